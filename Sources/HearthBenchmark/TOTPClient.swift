import Crypto
import Foundation
import HearthBase64URL

/// What an authenticator app computes, for the second-factor scenario: RFC 6238 with HMAC-SHA1, 6 digits, 30-second
/// periods, written here from the RFC (the load client is the second party, not the server's library).
enum TOTPClient {
    static func step(at date: Date) -> Int64 { Int64(date.timeIntervalSince1970 / 30) }

    static func code(key: [UInt8], step: Int64) -> String {
        var counter = UInt64(step).bigEndian
        let message = withUnsafeBytes(of: &counter) { Array($0) }
        let mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: SymmetricKey(data: key)))
        let offset = Int(mac[mac.count - 1] & 0x0f)
        let binary =
            (UInt32(mac[offset] & 0x7f) << 24) | (UInt32(mac[offset + 1]) << 16) | (UInt32(mac[offset + 2]) << 8) | UInt32(mac[offset + 3])
        let value = String(binary % 1_000_000)
        return String(repeating: "0", count: 6 - value.count) + value
    }

    /// RFC 4648 base32, without padding.
    static func base32Decode(_ text: String) -> [UInt8]? {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        var bits: UInt64 = 0
        var count = 0
        var bytes: [UInt8] = []
        for character in text where character != "=" {
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

    /// `firebase.second_factor_identifier` of an ID token (read, not verified: the server just made it).
    static func secondFactorIdentifier(in idToken: String) -> String? {
        let parts = idToken.split(separator: ".")
        guard parts.count == 3, let payload = Base64URL.decode(parts[1]),
            let object = try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any],
            let firebase = object["firebase"] as? [String: Any]
        else { return nil }
        return firebase["second_factor_identifier"] as? String
    }
}
