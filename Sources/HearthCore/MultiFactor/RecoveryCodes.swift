import Crypto
import Foundation

/// Recovery codes (a Hearth extension): one-time codes a user generates while signed in and keeps on paper, each
/// taken once by `mfaSignIn:finalize` in place of a factor. Shown once; the account keeps only their hashes.
///
/// A code is 12 characters from a 32-letter alphabet without look-alikes (60 bits), shown as `XXXX-XXXX-XXXX`; its
/// hash is SHA-256 over the uid and the code. Sixty random bits are beyond trying against a stolen row, so a slow
/// password hash would only cost every sign-in its time.
public enum RecoveryCodes {
    /// Codes a set has.
    public static let count = 10
    static let alphabet = Array("ABCDEFGHJKMNPQRSTUVWXYZ23456789")
    static let length = 12

    /// A new set of codes, as shown to the user.
    public static func make() -> [String] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in
            let raw = String((0..<length).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
            return stride(from: 0, to: length, by: 4).map { start in
                String(raw.dropFirst(start).prefix(4))
            }.joined(separator: "-")
        }
    }

    /// The stored hash of `code` for the account `uid`; `nil` when `code` cannot be a recovery code.
    public static func hash(_ code: String, uid: String) -> String? {
        let normalized = String(code.uppercased().unicodeScalars.filter { $0 != "-" && $0 != " " })
        guard normalized.count == length, normalized.allSatisfy({ alphabet.contains($0) }) else { return nil }
        return HexDigits.lowercase(SHA256.hash(data: Data("hearth-recovery-code:\(uid):\(normalized)".utf8)))
    }

    /// The stored hash `code` matches, among `hashes`; each is compared in full.
    public static func matchingHash(_ code: String, uid: String, in hashes: [String]) -> String? {
        guard let candidate = hash(code, uid: uid) else { return nil }
        var found: String?
        for stored in hashes where constantTimeEqual(stored.utf8, candidate.utf8) && found == nil { found = stored }
        return found
    }
}
