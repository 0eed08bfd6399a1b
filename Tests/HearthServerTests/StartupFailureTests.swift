import Foundation
import HearthTesting
import NIOCore
import NIOPosix
import Testing

/// `hearth serve` that cannot start says why in one line and exits non-zero, in a debug build too, with
/// everything it opened closed: no assertion, no crash, no type dump or source path.
@Suite("hearth serve start-up failures, the real binary")
struct StartupFailureTests {
    static func expectOneClearLine(_ result: HearthProcess.CommandResult, containing text: String) {
        #expect(result.status == 1, "\(result.standardError)")
        let lines = result.standardError.split(separator: "\n").filter { $0.hasPrefix("hearth: ") }
        #expect(lines.count == 1, "\(result.standardError)")
        #expect(lines.first?.contains(text) == true, "\(result.standardError)")
        for leak in ["Assertion", "Illegal instruction", "Fatal error", ".swift:", "HearthError", "Backtrace"] {
            let lines = result.standardError.split(separator: "\n").filter { $0.contains(leak) }
            #expect(lines.isEmpty, "\(leak) in: \(lines.joined(separator: "\n"))")
        }
    }

    @Test("a port that is taken (say by a Firebase emulator) is named; the database is closed first, so a debug build does not crash")
    func portTaken() async throws {
        let taken = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(taken.localAddress?.port)
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await HearthProcess.run(
            ["serve", "--port", "\(port)", "--data-dir", directory.path], environment: ["HEARTH_PASSWORDS_SCRYPT_LOG_N": "4"])
        try await taken.close()
        Self.expectOneClearLine(result, containing: "cannot listen on 127.0.0.1:\(port): the address is already in use")
    }

    @Test("a second server on the same SQLite file says so and what to do, without a source path")
    func databaseLocked() async throws {
        let first = try await HearthProcess.start(environment: [:])
        defer { first.stop() }
        let result = try await HearthProcess.run(
            ["serve", "--port", "0", "--data-dir", first.dataDirectory.path], environment: ["HEARTH_PASSWORDS_SCRYPT_LOG_N": "4"])
        Self.expectOneClearLine(result, containing: "another Hearth server is using the SQLite database")
        #expect(result.standardError.contains("stop the other one, or run several on PostgreSQL"))
    }

    @Test("a data directory that cannot be written is named")
    func unwritableDirectory() async throws {
        let parent = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: parent) }
        // A file where the data directory should be: no user, root included, can create a directory inside it.
        let blocker = parent.appendingPathComponent("not-a-directory")
        FileManager.default.createFile(atPath: blocker.path, contents: Data("x".utf8))
        let result = try await HearthProcess.run(["serve", "--port", "0", "--data-dir", blocker.appendingPathComponent("data").path])
        #expect(result.status != 0)
        let lines = result.standardError.split(separator: "\n").filter { $0.hasPrefix("hearth: ") }
        #expect(lines.count == 1, "\(result.standardError)")
        #expect(lines.first?.contains(blocker.path) == true, "\(result.standardError)")
        #expect(lines.first?.contains("the data directory cannot be created or written") == true, "\(result.standardError)")
        for leak in ["Assertion", "Illegal instruction", "Fatal error", ".swift:", "HearthError"] {
            #expect(!result.standardError.contains(leak), "\(leak) in: \(result.standardError.prefix(400))")
        }
    }
}
