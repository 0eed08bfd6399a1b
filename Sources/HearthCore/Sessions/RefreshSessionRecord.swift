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
    /// The tenant of the session's user (`nil`: the project's). A tenant's refresh token ends in `.` and the tenant id
    /// (``tenantID(ofToken:)``), so that the refresh, which names no tenant, looks it up in that tenant alone.
    public var tenantID: String?

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
        uid: String, signInProvider: String, authTime: Date, now: Date, extraClaims: String? = nil, secondFactor: SecondFactorUse? = nil,
        tenantID: String? = nil
    ) -> (token: String, record: RefreshSessionRecord) {
        // 48 random bytes, drawn 8 at a time.
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(48)
        for _ in 0..<6 {
            withUnsafeBytes(of: generator.next() as UInt64) { bytes.append(contentsOf: $0) }
        }
        let token = "AMf-" + Base64URL.encode(bytes) + (tenantID.map { ".\($0)" } ?? "")
        var record = RefreshSessionRecord(
            tokenHash: hash(token), uid: uid, signInProvider: signInProvider, authTime: authTime,
            createdAt: now, extraClaims: extraClaims, secondFactor: secondFactor
        )
        record.tenantID = tenantID
        return (token, record)
    }

    /// The tenant a refresh token names after its last `.` (`nil`: the project's). Only where to look: the token's
    /// hash is still looked up in that tenant, so a token whose tenant part was changed finds nothing.
    public static func tenantID(ofToken token: String) -> String? {
        guard let dot = token.lastIndex(of: ".") else { return nil }
        return String(token[token.index(after: dot)...])
    }

    /// Lowercase hex SHA-256 of `token`'s UTF-8 bytes (the key of its stored session).
    public static func hash(_ token: String) -> String {
        var token = token
        let digest = token.withUTF8 { SHA256.hash(data: UnsafeRawBufferPointer($0)) }
        return digest.withUnsafeBytes { HexDigits.lowercase($0) }
    }
}
