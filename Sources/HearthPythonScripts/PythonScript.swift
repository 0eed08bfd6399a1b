import Foundation

/// A Python program of `scripts/` run through `scripts/python-venv.sh` (which makes the virtual environment with the
/// PyPI packages the tests' second parties need): the independent SAML IdP, the WebAuthn software authenticator.
/// Test support only, Foundation only, so that a small test target needs nothing else to use it.
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
    /// ``Failure`` with what it wrote to standard error when it exits with another status than 0.
    public func run(_ arguments: [String], input: Data = Data()) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [repository.appendingPathComponent("scripts/python-venv.sh").path, name] + arguments
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-\(name)-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errors) }
        let standardInput = Pipe()
        let standardOutput = Pipe()
        process.standardInput = standardInput
        process.standardOutput = standardOutput
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        try standardInput.fileHandleForWriting.write(contentsOf: input)
        try standardInput.fileHandleForWriting.close()
        let output = standardOutput.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let log = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw Failure(message: "\(name) \(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(log)")
        }
        return output
    }

    /// A script that failed, with its standard error.
    public struct Failure: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }
}
