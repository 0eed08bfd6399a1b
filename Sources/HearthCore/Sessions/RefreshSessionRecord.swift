import Crypto
import Foundation

/// The server side of a refresh token. The token itself is never stored, only its SHA-256.
public struct RefreshSessionRecord: Sendable, Equatable {
    /// Hex SHA-256 of the opaque token.
    public var tokenHash: String
    public var uid: String
    /// `firebase.sign_in_provider` of the sign-in that started the session.
    public var signInProvider: String
    /// The sign-in time; stays the same across refreshes (`auth_time`).
    public var authTime: Date
    public var createdAt: Date
    /// Claims a custom token added to this session, as a JSON object text.
    public var extraClaims: String?

    public init(tokenHash: String, uid: String, signInProvider: String, authTime: Date, createdAt: Date, extraClaims: String? = nil) {
        self.tokenHash = tokenHash
        self.uid = uid
        self.signInProvider = signInProvider
        self.authTime = authTime
        self.createdAt = createdAt
        self.extraClaims = extraClaims
    }

    /// Makes a new random token and the record that goes with it.
    public static func issue(
        uid: String, signInProvider: String, authTime: Date, now: Date, extraClaims: String? = nil
    ) -> (token: String, record: RefreshSessionRecord) {
        var bytes = [UInt8](repeating: 0, count: 48)
        var generator = SystemRandomNumberGenerator()
        for i in bytes.indices { bytes[i] = UInt8.random(in: .min ... .max, using: &generator) }
        let token = "AMf-" + Data(bytes).base64URLEncodedString()
        let record = RefreshSessionRecord(
            tokenHash: hash(token), uid: uid, signInProvider: signInProvider, authTime: authTime,
            createdAt: now, extraClaims: extraClaims
        )
        return (token, record)
    }

    public static func hash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}

extension Data {
    /// Base64url without padding (RFC 7515 §2).
    public func base64URLEncodedString() -> String {
        base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
