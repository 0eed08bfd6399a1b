import Foundation
import HearthBase64URL

/// Reads the payload of a JWT without verifying it: the SDK trusts tokens it got from its server over the
/// connection it chose, as FirebaseAuth does. Servers must verify ID tokens themselves.
enum JWTPayload {
    static func decode(_ token: String) -> [String: Any]? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        guard let bytes = Base64URL.decode(parts[1]),
            let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
        else { return nil }
        return object
    }

    /// A number claim (`exp`, `iat`, `auth_time`) as a date.
    static func date(_ claims: [String: Any], _ key: String) -> Date? {
        if let number = claims[key] as? NSNumber { return Date(timeIntervalSince1970: number.doubleValue) }
        if let number = claims[key] as? Double { return Date(timeIntervalSince1970: number) }
        if let number = claims[key] as? Int { return Date(timeIntervalSince1970: TimeInterval(number)) }
        return nil
    }
}
