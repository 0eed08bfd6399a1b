import Foundation
import HearthCore
import HearthTesting
#if canImport(Glibc)
import Glibc
#endif

/// A `hearth serve` process of its own, for tests that need replicas to kill.
final class HearthProcess: @unchecked Sendable {
    let process: Process
    let port: Int
    let dataDirectory: URL
    private let output: LockedBox<String>

    var baseURL: String { "http://127.0.0.1:\(port)" }
    var log: String { output.withLock { $0 } }

    private init(process: Process, port: Int, dataDirectory: URL, output: LockedBox<String>) {
        self.process = process
        self.port = port
        self.dataDirectory = dataDirectory
        self.output = output
    }

    /// The `hearth` executable `swift test` built next to the tests.
    static func executable() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let candidates = [".build/debug/hearth", ".build/release/hearth"].map { root.appendingPathComponent($0).path }
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

    /// Runs `hearth <arguments>` to its end with `environment` added (the test process's own `HEARTH_*`
    /// variables removed), waiting without blocking a concurrency thread.
    static func run(_ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval = 120) async throws -> CommandResult {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-command-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outputs = [directory.appendingPathComponent("stdout"), directory.appendingPathComponent("stderr")]
        for output in outputs { FileManager.default.createFile(atPath: output.path, contents: nil) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try executable())
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("HEARTH_") }
        env.merge(environment) { $1 }
        process.environment = env
        let handles = try outputs.map { try FileHandle(forWritingTo: $0) }
        defer { for handle in handles { try? handle.close() } }
        process.standardOutput = handles[0]
        process.standardError = handles[1]
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            guard Date() < deadline else {
                process.terminate()
                throw HarnessError("hearth \(arguments.joined(separator: " ")) did not finish within \(timeout) s")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        let texts = try outputs.map { String(decoding: try Data(contentsOf: $0), as: UTF8.self) }
        return CommandResult(status: process.terminationStatus, standardOutput: texts[0], standardError: texts[1])
    }

    /// Starts `hearth serve` on a free port with `environment` added, and waits until it listens.
    static func start(environment: [String: String], timeout: TimeInterval = 60) async throws -> HearthProcess {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-replica-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try executable())
        process.arguments = ["serve", "--port", "0", "--data-dir", directory.path, "--log-level", "warning"]
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("HEARTH_") }
        env["HEARTH_PASSWORDS_SCRYPT_LOG_N"] = "4"
        env.merge(environment) { $1 }
        process.environment = env
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let output = LockedBox("")
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil; return }
            output.withLock { $0 += String(decoding: data, as: UTF8.self) }
        }
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let text = output.withLock { $0 }
            if let range = text.range(of: #"Hearth is listening on http://127\.0\.0\.1:(\d+)"#, options: .regularExpression) {
                let port = Int(text[range].split(separator: ":").last ?? "") ?? 0
                return HearthProcess(process: process, port: port, dataDirectory: directory, output: output)
            }
            guard process.isRunning else { throw HarnessError("hearth exited before listening:\n\(text)") }
            try await Task.sleep(for: .milliseconds(50))
        }
        process.terminate()
        throw HarnessError("hearth did not start within \(timeout) s:\n\(output.withLock { $0 })")
    }

    /// SIGKILL: no shutdown, no goodbye. Waits (without blocking a concurrency thread) until it is gone.
    func kill() async {
        if process.isRunning { _ = Glibc.kill(process.processIdentifier, SIGKILL) }
        for _ in 0..<200 where process.isRunning { try? await Task.sleep(for: .milliseconds(25)) }
    }

    /// SIGTERM, the graceful way, SIGKILL if it lingers, then clean up. Never blocks for long:
    /// it is called from `defer`.
    func stop() {
        if process.isRunning {
            process.terminate()
            for _ in 0..<100 where process.isRunning { usleep(20_000) }
            if process.isRunning { _ = Glibc.kill(process.processIdentifier, SIGKILL) }
        }
        try? FileManager.default.removeItem(at: dataDirectory)
    }
}
