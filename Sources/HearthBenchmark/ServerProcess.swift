import Foundation
import HearthPostgresLauncher

/// A `hearth serve` child process on a fresh temporary data directory and an ephemeral port.
///
/// Its stdout and stderr go to files in the temporary directory; the port is read from the banner on
/// stdout. ``stop()`` ends it with SIGTERM, then SIGKILL, and deletes the directory. The database is
/// whatever `HEARTH_DATABASE_URL` in `environment` says (by default SQLite in the temporary directory).
/// Started with `posix_spawn` (``ChildProcess``), not Foundation's `Process`, which crashed a test process.
final class ServerProcess {
    let executable: String
    let port: Int
    let pid: Int32
    private let process: ChildProcess
    private let directory: URL
    private let stdoutFile: URL
    private let stderrFile: URL

    private init(executable: String, port: Int, process: ChildProcess, directory: URL) {
        self.executable = executable
        self.port = port
        self.process = process
        self.pid = process.pid
        self.directory = directory
        self.stdoutFile = directory.appendingPathComponent("stdout.log")
        self.stderrFile = directory.appendingPathComponent("stderr.log")
    }

    /// The `hearth` binary next to this executable (`.build/release/hearth` beside `.build/release/hearth-benchmark`).
    static func defaultExecutable() -> String {
        let own = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        return own.resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("hearth").path
    }

    /// Starts the server and waits until it prints the port it listens on.
    /// - Parameter environment: added to this process's environment (e.g. `HEARTH_PASSWORDS_SCRYPT_LOG_N`).
    static func launch(executable: String, environment: [String: String], startupTimeout: Duration) async throws -> ServerProcess {
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw BenchmarkError("no hearth executable at \(executable); build it (swift build -c release --product hearth) or pass --server PATH")
        }
        return try await launch(
            arguments: { [executable, "serve", "--mode", "development", "--host", "127.0.0.1", "--port", "0", "--data-dir", $0] },
            environment: environment, startupTimeout: startupTimeout)
    }

    /// Starts the command `arguments` gives for a fresh data directory and waits until it prints `banner` and its
    /// address (`banner` + `HOST:PORT`), or until `readPort` finds the port in what it printed on stdout.
    static func launch(
        arguments: (String) -> [String], environment: [String: String], startupTimeout: Duration,
        banner: String = "Hearth is listening on http://", readPort: ((String) -> Int?)? = nil
    ) async throws -> ServerProcess {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-benchmark-\(UUID().uuidString)")
        let dataDirectory = directory.appendingPathComponent("data")
        let stdoutFile = directory.appendingPathComponent("stdout.log")
        let stderrFile = directory.appendingPathComponent("stderr.log")
        let command = arguments(dataDirectory.path)
        let executable = command[0]
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: stdoutFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrFile.path, contents: nil)

        let process: ChildProcess
        do {
            process = try ChildProcess.start(
                command,
                environment: ProcessInfo.processInfo.environment.merging(environment) { _, new in new }, output: stdoutFile,
                errorOutput: stderrFile)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw BenchmarkError("cannot start \(executable): \(error)")
        }

        let deadline = ContinuousClock.now + startupTimeout
        while true {
            let output = (try? String(contentsOf: stdoutFile, encoding: .utf8)) ?? ""
            if let port = readPort.map({ $0(output) }) ?? bannerPort(in: output, banner: banner) {
                return ServerProcess(executable: executable, port: port, process: process, directory: directory)
            }
            if !process.isRunning {
                let stderr = (try? String(contentsOf: stderrFile, encoding: .utf8)) ?? ""
                try? FileManager.default.removeItem(at: directory)
                throw BenchmarkError("the server exited (\(Self.describe(try? process.exitStatus()))) before listening:\n\(stderr.suffix(2_000))")
            }
            if ContinuousClock.now >= deadline {
                let server = ServerProcess(executable: executable, port: 0, process: process, directory: directory)
                let stderr = server.stderrTail()
                await server.stop()
                throw BenchmarkError("the server did not print its port within \(startupTimeout):\n\(stderr)")
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
    }

    /// The port in "Hearth is listening on http://HOST:PORT" (or another `banner`).
    static func bannerPort(in output: String, banner: String = "Hearth is listening on http://") -> Int? {
        guard let marker = output.range(of: banner) else { return nil }
        let rest = output[marker.upperBound...]
        guard let newline = rest.firstIndex(of: "\n") else { return nil }  // the line is complete
        let line = rest[..<newline]
        guard let colon = line.lastIndex(of: ":") else { return nil }
        return Int(line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }

    var isRunning: Bool { process.isRunning }

    /// How the process ended ("exit status 1", "signal 9"); nil while it runs.
    var exitDescription: String? {
        guard !process.isRunning else { return nil }
        return Self.describe(try? process.exitStatus())
    }

    /// "exit status 1", "signal 9" for ``ChildProcess/exitStatus()`` (128 + the signal when one ended it).
    static func describe(_ status: Int32?) -> String {
        guard let status else { return "still running" }
        return status > 128 ? "signal \(status - 128)" : "exit status \(status)"
    }

    /// The temporary directory holding the database and the server's output.
    var directoryPath: String { directory.path }

    /// Resident memory now and at its peak, from `/proc/<pid>/status`; nil where there is no procfs.
    func memory() -> ProcessStatus? { ProcessStatus(pid: String(pid)) }

    /// The last lines the server wrote on stderr.
    func stderrTail(maxCharacters: Int = 2_000) -> String {
        String(((try? String(contentsOf: stderrFile, encoding: .utf8)) ?? "").suffix(maxCharacters))
    }

    /// SIGTERM, SIGKILL after `gracePeriod`; then removes the temporary directory. Safe to call twice.
    func stop(gracePeriod: Duration = .seconds(10)) async {
        if process.isRunning {
            process.send(SIGTERM)
            let deadline = ContinuousClock.now + gracePeriod
            while process.isRunning, ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(50))
            }
            if process.isRunning {
                FileHandle.standardError.write(Data("hearth-benchmark: the server ignored SIGTERM for \(gracePeriod); sending SIGKILL\n".utf8))
                process.send(SIGKILL)
                let killDeadline = ContinuousClock.now + .seconds(5)
                while process.isRunning, ContinuousClock.now < killDeadline {
                    try? await Task.sleep(for: .milliseconds(50))
                }
            }
        }
        try? FileManager.default.removeItem(at: directory)
    }
}
