import Foundation
import HearthPostgresLauncher

/// A Python program of `scripts/` run through `scripts/python-venv.sh` (which makes the virtual environment with the
/// PyPI packages the tests' second parties need): the independent SAML IdP, the WebAuthn software authenticator.
/// Test support only (Foundation and ``ChildProcess``), so that a small test target needs nothing else to use it.
public struct PythonScript: Sendable {
    /// The script's file name in `scripts/`.
    public let name: String
    /// The repository's root.
    public let repository: URL

    public init(_ name: String, repository: URL = PythonScript.repository) {
        self.name = name
        self.repository = repository
    }

    /// This package's root, found from this file's place in it.
    public static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Runs the script with `arguments` and `input` on its standard input; returns its standard output, or throws
    /// ``Failure`` with what it wrote to standard error when it exits with another status than 0. The child is
    /// started by ``ChildProcess`` (posix_spawn), not Foundation's `Process`, whose start faults now and then in a
    /// test process with many descriptors open.
    public func run(_ arguments: [String], input: Data = Data()) throws -> Data {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (stdin, stdout, stderr) = (
            directory.appendingPathComponent("input"), directory.appendingPathComponent("output"), directory.appendingPathComponent("errors")
        )
        try input.write(to: stdin)
        let child = try ChildProcess.start(
            ["/bin/bash", repository.appendingPathComponent("scripts/python-venv.sh").path, name] + arguments, input: stdin, output: stdout,
            errorOutput: stderr)
        var status = try child.exitStatus()
        while status == nil {
            usleep(2_000)
            status = try child.exitStatus()
        }
        guard status == 0 else {
            let log = (try? String(contentsOf: stderr, encoding: .utf8)) ?? ""
            throw Failure(message: "\(name) \(arguments.joined(separator: " ")) exited \(status ?? -1): \(log)")
        }
        return try Data(contentsOf: stdout)
    }

    /// A script that failed, with its standard error.
    public struct Failure: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }
}
