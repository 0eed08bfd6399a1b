import Foundation
import NIOCore
import Testing

@testable import HearthConsole

/// The import's upload written to a temporary file as it arrives: the file only its owner reads, its bytes as sent,
/// removed afterwards however the upload ends; a body past the limit refused while it streams, with no length told.
@Suite("Console upload file")
struct ConsoleUploadFileTests {
    /// `chunks` as a request body streams them.
    static func body(_ chunks: [String]) -> AsyncStream<ByteBuffer> {
        AsyncStream { continuation in
            for chunk in chunks { continuation.yield(ByteBuffer(string: chunk)) }
            continuation.finish()
        }
    }

    /// A new empty directory for the upload's file.
    static func makeDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-upload-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func files(in directory: URL) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
    }

    @Test("the body is in a 0600 file while it is handled, read back whole, and the file is gone afterwards")
    func written() async throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let read = try await ConsoleUploadFile.receive(Self.body(["--b\r\n", "hello, ", "world"]), limit: 64, directory: directory) { bytes in
            let files = try Self.files(in: directory)
            #expect(files.count == 1)
            let mode = try FileManager.default.attributesOfItem(atPath: try #require(files.first).path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
            return String(decoding: bytes, as: UTF8.self)
        }
        #expect(read == "--b\r\nhello, world")
        #expect(try Self.files(in: directory).isEmpty)
        // Exactly the limit is taken.
        #expect(try await ConsoleUploadFile.receive(Self.body(["12345", "678"]), limit: 8, directory: directory) { $0.count } == 8)
    }

    @Test("a body past the limit is refused as it streams, before the rest is read; a failed handling removes the file too")
    func refused() async throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var handled = false
        await #expect(throws: ConsoleUploadFile.TooLarge.self) {
            try await ConsoleUploadFile.receive(Self.body(["12345", "6789", "never read"]), limit: 8, directory: directory) { _ in
                handled = true
            }
        }
        #expect(!handled)
        #expect(try Self.files(in: directory).isEmpty)
        struct Failed: Error {}
        await #expect(throws: Failed.self) {
            try await ConsoleUploadFile.receive(Self.body(["x"]), limit: 8, directory: directory) { _ in throw Failed() }
        }
        #expect(try Self.files(in: directory).isEmpty)
    }
}
