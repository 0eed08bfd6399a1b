import Foundation
import HearthCore
import HearthPostgresLauncher
import HearthTesting

#if canImport(Glibc)
import Glibc
#endif

/// A `hearth serve` process of its own, for tests that need replicas to kill. Started with
/// ``ChildProcess`` (`posix_spawn`), never Foundation's `Process`, whose `run()` faults now and then on Linux.
final class HearthProcess: @unchecked Sendable {
    let child: ChildProcess
    let port: Int
    /// `https` when it serves TLS (`server.tls.*`).
    let scheme: String
    let dataDirectory: URL
    private let outputFile: URL

    var baseURL: String { "\(scheme)://127.0.0.1:\(port)" }
    var log: String { (try? String(contentsOf: outputFile, encoding: .utf8)) ?? "" }
    var isRunning: Bool { child.isRunning }

    private init(child: ChildProcess, port: Int, scheme: String, dataDirectory: URL, outputFile: URL) {
        self.child = child
        self.port = port
        self.scheme = scheme
        self.dataDirectory = dataDirectory
        self.outputFile = outputFile
    }

    /// The `hearth` executable `swift test` built next to the tests.
    static func executable() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let candidates =
            [".build/debug/hearth", ".build/release/hearth"].map { root.appendingPathComponent($0).path }
            + [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("hearth").path]
        guard let path = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw HarnessError("the hearth executable was not built (looked in \(candidates))")
        }
        return path
    }

    /// What a `hearth` command that ran to its end said.
    struct CommandResult: Sendable {
        let status: Int32
        let standardOutput: String
        let standardError: String
    }

    /// The test process's environment without its own `HEARTH_*` variables, with `environment` added.
    private static func environment(adding environment: [String: String]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("HEARTH_") }
        env.merge(environment) { $1 }
        return env
    }

    /// Runs `hearth <arguments>` to its end with `environment` added (the test process's own `HEARTH_*`
    /// variables removed), waiting without blocking a concurrency thread.
    static func run(_ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval = 120) async throws -> CommandResult {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-command-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outputs = [directory.appendingPathComponent("stdout"), directory.appendingPathComponent("stderr")]
        let child = try ChildProcess.start(
            [try executable()] + arguments, environment: Self.environment(adding: environment), output: outputs[0], errorOutput: outputs[1])
        guard let status = try await child.wait(timeout: timeout) else {
            child.send(SIGKILL)
            _ = try await child.wait(timeout: 5)
            throw HarnessError("hearth \(arguments.joined(separator: " ")) did not finish within \(timeout) s")
        }
        let texts = outputs.map { (try? String(contentsOf: $0, encoding: .utf8)) ?? "" }
        return CommandResult(status: status, standardOutput: texts[0], standardError: texts[1])
    }

    /// Starts `hearth serve` on a free port with `environment` and `arguments` added, and waits until it listens.
    static func start(environment: [String: String], arguments: [String] = [], timeout: TimeInterval = 60) async throws -> HearthProcess {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-replica-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-replica-\(UUID().uuidString).log")
        var env = Self.environment(adding: [:])
        env["HEARTH_PASSWORDS_SCRYPT_LOG_N"] = "4"
        env.merge(environment) { $1 }
        let child = try ChildProcess.start(
            [try executable(), "serve", "--port", "0", "--data-dir", directory.path, "--log-level", "warning"] + arguments,
            environment: env, output: outputFile)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let text = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
            if let range = text.range(of: #"Hearth is listening on https?://127\.0\.0\.1:(\d+)"#, options: .regularExpression) {
                let port = Int(text[range].split(separator: ":").last ?? "") ?? 0
                let scheme = text[range].contains("https://") ? "https" : "http"
                return HearthProcess(child: child, port: port, scheme: scheme, dataDirectory: directory, outputFile: outputFile)
            }
            guard child.isRunning else { throw HarnessError("hearth exited before listening:\n\(text)") }
            try await Task.sleep(for: .milliseconds(50))
        }
        child.send(SIGKILL)
        throw HarnessError("hearth did not start within \(timeout) s:\n\((try? String(contentsOf: outputFile, encoding: .utf8)) ?? "")")
    }

    /// SIGKILL: no shutdown, no goodbye. Waits (without blocking a concurrency thread) until it is gone.
    func kill() async {
        child.send(SIGKILL)
        _ = try? await child.wait(timeout: 5)
    }

    /// SIGTERM, the graceful way, SIGKILL if it lingers, then clean up. Never blocks for long:
    /// it is called from `defer`.
    func stop() {
        if child.isRunning {
            child.send(SIGTERM)
            for _ in 0..<100 where child.isRunning { usleep(20_000) }
            if child.isRunning {
                child.send(SIGKILL)
                for _ in 0..<50 where child.isRunning { usleep(20_000) }
            }
        }
        try? FileManager.default.removeItem(at: dataDirectory)
        try? FileManager.default.removeItem(at: outputFile)
    }
}
