import Foundation
import HearthCore
import JWTKit

/// A verified provider identity Hearth hands back to a client (`pendingToken`) so that it can be linked
/// later, after the user signed in to the account that owns the e-mail, without asking the provider again.
///
/// It is a JWT signed with the project's keys, so every replica can read it, with an audience no ID
/// token has, so neither can pass for the other.
public struct PendingCredentialClaims: JWTPayload, Equatable {
    static let audienceSuffix = ":pending-credential"

    public var issuer: String
    public var audience: String
    public var issuedAt: Int64
    public var expiresAt: Int64
    /// The verified identity, as the provider's verifier produced it.
    public var profile: FederatedProfile

    enum CodingKeys: String, CodingKey {
        case issuer = "iss"
        case audience = "aud"
        case issuedAt = "iat"
        case expiresAt = "exp"
        case profile
    }

    public func verify(using algorithm: some JWTAlgorithm) async throws {}
}

extension TokenService {
    /// Lifetime of a pending credential.
    public static let pendingCredentialLifetime: TimeInterval = 3_600

    public func mintPendingToken(for profile: FederatedProfile) async throws -> String {
        let now = clockNow
        guard let kid = await keyRing.signingKid(at: now) else { throw HearthError(.internalError, reason: "no signing key is active") }
        let issuedAt = Int64(now.timeIntervalSince1970)
        let claims = PendingCredentialClaims(
            issuer: configuration.issuer, audience: configuration.projectID + PendingCredentialClaims.audienceSuffix,
            issuedAt: issuedAt, expiresAt: issuedAt + Int64(Self.pendingCredentialLifetime), profile: profile)
        return try await keyRing.collection.sign(claims, kid: JWKIdentifier(string: kid))
    }

    /// - Throws: ``HearthError/Code/invalidPendingToken`` for anything forged, foreign or expired.
    public func verifyPendingToken(_ token: String) async throws -> FederatedProfile {
        let claims: PendingCredentialClaims
        do {
            claims = try await keyRing.collection.verify(token, as: PendingCredentialClaims.self)
        } catch {
            throw HearthError(.invalidPendingToken, underlying: error)
        }
        guard claims.issuer == configuration.issuer,
            claims.audience == configuration.projectID + PendingCredentialClaims.audienceSuffix,
            claims.expiresAt > Int64(clockNow.timeIntervalSince1970)
        else { throw HearthError(.invalidPendingToken, reason: "audience, issuer or expiry") }
        return claims.profile
    }
}
