/// Why a key-encryption key could not be read, or a sealed value could not be opened. The message
/// names key ids and files, never a key or a secret.
public struct SecretSealerError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Code: Sendable, Equatable {
        /// The key is not 32 bytes of base64, or its file cannot be read.
        case malformedKey
        /// The value was sealed with another key (its id differs from the key in use).
        case wrongKey
        /// No key was given, but the value is sealed.
        case noKey
        /// The value is not in a sealed format this version reads.
        case malformedValue
        /// The key id matches but the value does not open: it was altered, or moved to another row.
        case tampered
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
}
