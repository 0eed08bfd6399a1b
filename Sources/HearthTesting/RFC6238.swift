import Crypto
import Foundation

/// What an authenticator app computes, for the tests of second factors: RFC 6238 with HMAC-SHA1, 6 digits and
/// 30-second periods (RFC 4226's truncation), and RFC 4648 base32. Written here from the RFCs, so the tests check the
/// server's library (HummingbirdOTP) against a second party rather than against itself.
public enum RFC6238 {
    /// The code of `key` for the period `date` falls in.
    public static func code(key: [UInt8], at date: Date) -> String {
        code(key: key, step: Int64((date.timeIntervalSince1970 / 30).rounded(.down)))
    }

    /// The code of `key` for the period `step` (seconds since 1970 divided by 30).
    public static func code(key: [UInt8], step: Int64) -> String {
        var counter = UInt64(step).bigEndian
        let message = withUnsafeBytes(of: &counter) { Array($0) }
        let mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: SymmetricKey(data: key)))
        let offset = Int(mac[mac.count - 1] & 0x0f)
        let binary =
            (UInt32(mac[offset] & 0x7f) << 24) | (UInt32(mac[offset + 1]) << 16) | (UInt32(mac[offset + 2]) << 8) | UInt32(mac[offset + 3])
        let value = String(binary % 1_000_000)
        return String(repeating: "0", count: 6 - value.count) + value
    }

    /// The bytes of RFC 4648 base32 text (padding optional, either case); `nil` for another character.
    public static func base32Decode(_ text: String) -> [UInt8]? {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        var bits: UInt64 = 0
        var count = 0
        var bytes: [UInt8] = []
        for character in text.uppercased() where character != "=" {
            guard let index = alphabet.firstIndex(of: character) else { return nil }
            bits = (bits << 5) | UInt64(index)
            count += 5
            if count >= 8 {
                count -= 8
                bytes.append(UInt8((bits >> UInt64(count)) & 0xff))
            }
        }
        return bytes
    }
}
