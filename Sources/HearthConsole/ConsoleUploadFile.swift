import Foundation
import HearthCore
import NIOCore

/// An upload's body written, as it arrives, to a temporary file only the server's user may read (0600, made with
/// `O_EXCL`) rather than gathered in memory; read back mapped from that file, and removed once the upload has been
/// handled, however that ends.
enum ConsoleUploadFile {
    /// The body is longer than the limit: the upload is refused, and what was written of it removed.
    struct TooLarge: Error {}

    /// Writes `body` (at most `limit` bytes) to a new file in `directory`, calls `use` with its bytes, and removes it.
    static func receive<Body: AsyncSequence, Result>(
        _ body: Body, limit: Int, directory: URL = FileManager.default.temporaryDirectory, _ use: (Data) async throws -> Result
    ) async throws -> Result where Body.Element == ByteBuffer {
        let file = directory.appendingPathComponent("hearth-console-upload-\(UUID().uuidString)")
        try PrivateFiles.createFile(atPath: file.path)
        defer { try? FileManager.default.removeItem(at: file) }
        let handle = try FileHandle(forWritingTo: file)
        do {
            var length = 0
            for try await buffer in body {
                length += buffer.readableBytes
                guard length <= limit else { throw TooLarge() }
                try handle.write(contentsOf: Data(buffer.readableBytesView))
            }
            try handle.close()
        } catch {
            try? handle.close()
            throw error
        }
        return try await use(try Data(contentsOf: file, options: .alwaysMapped))
    }
}
