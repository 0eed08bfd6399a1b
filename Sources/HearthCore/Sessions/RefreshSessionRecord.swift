import Crypto
import Foundation
import HearthBase64URL

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
    /// The second factor the sign-in was completed with.
    public var secondFactor: SecondFactorUse?

    public init(
        tokenHash: String, uid: String, signInProvider: String, authTime: Date, createdAt: Date, extraClaims: String? = nil,
        secondFactor: SecondFactorUse? = nil
    ) {
        self.secondFactor = secondFactor
        self.tokenHash = tokenHash
        self.uid = uid
        self.signInProvider = signInProvider
        self.authTime = authTime
        self.createdAt = createdAt
        self.extraClaims = extraClaims
    }

    /// Makes a new random token and the record that goes with it.
    public static func issue(
        uid: String, signInProvider: String, authTime: Date, now: Date, extraClaims: String? = nil, secondFactor: SecondFactorUse? = nil
    ) -> (token: String, record: RefreshSessionRecord) {
        // 48 random bytes, drawn 8 at a time.
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(48)
        for _ in 0..<6 {
            withUnsafeBytes(of: generator.next() as UInt64) { bytes.append(contentsOf: $0) }
        }
        let token = "AMf-" + Base64URL.encode(bytes)
        let record = RefreshSessionRecord(
            tokenHash: hash(token), uid: uid, signInProvider: signInProvider, authTime: authTime,
            createdAt: now, extraClaims: extraClaims, secondFactor: secondFactor
        )
        return (token, record)
    }

    /// Lowercase hex SHA-256 of `token`'s UTF-8 bytes (the key of its stored session).
    public static func hash(_ token: String) -> String {
        var token = token
        let digest = token.withUTF8 { SHA256.hash(data: UnsafeRawBufferPointer($0)) }
        return digest.withUnsafeBytes { HexDigits.lowercase($0) }
    }
}
