import Crypto
import Foundation

/// The key that seals secrets at rest (token-signing private keys, provider secrets): 256 bits for
/// AES-GCM, from `secrets.keyFile` or `HEARTH_SECRETS_KEY` as 32 bytes in base64.
///
/// Its ``id`` names it in every value it seals, so that a database opened with another key fails with a
/// message naming both keys rather than with garbage. The key itself is never printed: `description`
/// shows the id only.
public struct KeyEncryptionKey: Sendable, CustomStringConvertible {
    let key: SymmetricKey
    /// 12 hex digits of a SHA-256 of the key: safe to print, and enough to tell keys apart.
    public let id: String

    /// The key in `base64`: 32 bytes, surrounding whitespace ignored.
    public init(base64 text: String) throws {
        guard let bytes = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)), bytes.count == 32 else {
            throw SecretSealerError(.malformedKey, "expected 32 bytes in base64 (make one with: openssl rand -base64 32)")
        }
        self.init(SymmetricKey(data: bytes))
    }

    /// The key in the file at `path`, written as ``init(base64:)`` reads it.
    public init(contentsOfFile path: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw SecretSealerError(.malformedKey, "no key file at \(path)")
        }
        guard !isDirectory.boolValue else { throw SecretSealerError(.malformedKey, "\(path) is a directory, not a key file") }
        guard FileManager.default.isReadableFile(atPath: path), let data = FileManager.default.contents(atPath: path) else {
            throw SecretSealerError(.malformedKey, "the key file \(path) cannot be read by this user (check its permissions)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw SecretSealerError(.malformedKey, "\(path): expected 32 bytes in base64 (make one with: openssl rand -base64 32)")
        }
        do {
            try self.init(base64: text)
        } catch let error as SecretSealerError {
            throw SecretSealerError(.malformedKey, "\(path): \(error.message)")
        }
    }

    /// A new random key.
    public static func generate() -> KeyEncryptionKey {
        KeyEncryptionKey(SymmetricKey(size: .bits256))
    }

    private init(_ key: SymmetricKey) {
        self.key = key
        var hash = SHA256()
        hash.update(data: Data("hearth key-encryption key id\n".utf8))
        key.withUnsafeBytes { hash.update(bufferPointer: $0) }
        id = HexDigits.lowercase(hash.finalize().prefix(6))
    }

    /// The key in base64, as a key file holds it. A secret: for writing the file, never for printing.
    public var base64: String {
        key.withUnsafeBytes { Data($0).base64EncodedString() }
    }

    public var description: String { "key-encryption key \(id)" }
}
