import Crypto
import Foundation

/// The codes and handles of phone verification: the 6-digit code, the `sessionInfo` that names a session and the
/// `temporaryProof`, both 256 random bits a client holds, and what the store keeps of them.
public enum VerificationCode {
    /// How many digits a code has.
    public static let length = 6

    /// A new code: 6 digits, uniform, from the system's CSPRNG.
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let value = generator.next(upperBound: UInt32(1_000_000))
        let digits = String(value)
        return String(repeating: "0", count: length - digits.count) + digits
    }

    /// Whether `text` is a code a person can have been sent: 6 ASCII digits.
    public static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == length && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// A new `sessionInfo` or `temporaryProof`: 32 random bytes in base64url, like an e-mail action code.
    public static func makeHandle() -> String { ActionCode.make() }

    /// Whether `text` could be a handle this server made (43 base64url characters); anything else is refused
    /// before the database is asked.
    public static func isWellFormedHandle(_ text: String) -> Bool { ActionCode.isWellFormed(text) }

    /// What the store keys a session or proof by: the handle's SHA-256 in hex.
    public static func key(_ handle: String) -> String { ActionCode.hash(handle) }

    /// What the store keeps of `code`: SHA-256 of the session's handle and the code. The handle is the salt and is
    /// never stored, so a stolen row gives no code to try.
    public static func hash(_ code: String, sessionInfo: String) -> String {
        HexDigits.lowercase(SHA256.hash(data: Data("\(sessionInfo):\(code)".utf8)))
    }
}
