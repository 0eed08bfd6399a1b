import Crypto
import Foundation

/// The nonce an ID token carries.
public enum SandboxNonce: Sendable, Hashable {
    /// The raw nonce the client keeps and later sends to Firebase; the token carries its lower-case hex
    /// SHA-256, as Apple, Google and Facebook Limited Login tokens do under Firebase's convention (providers.md §1.7).
    case raw(String)
    /// Put this value into the `nonce` claim verbatim (e.g. an unhashed nonce, to test the "hashed twice" mistake).
    case claim(String)

    /// The value of the `nonce` claim.
    public var claimValue: String {
        switch self {
        case .raw(let raw): Self.sha256Hex(raw)
        case .claim(let value): value
        }
    }

    /// Lower-case hexadecimal SHA-256 of the UTF-8 bytes of `raw`.
    public static func sha256Hex(_ raw: String) -> String {
        Data(SHA256.hash(data: Data(raw.utf8))).hexString
    }
}
