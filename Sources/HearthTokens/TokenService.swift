import Foundation
import HearthCore
import JWTKit

/// Mints and verifies the project's ID tokens.
public struct TokenService: Sendable {
    public struct Configuration: Sendable, Equatable {
        public var projectID: String
        /// `iss` of ID tokens; Firebase's form by default.
        public var issuer: String
        public var idTokenLifetime: TimeInterval

        public init(projectID: String, issuer: String? = nil, idTokenLifetime: TimeInterval = 3_600) {
            self.projectID = projectID
            self.issuer = issuer ?? "https://securetoken.google.com/\(projectID)"
            self.idTokenLifetime = idTokenLifetime
        }
    }

    public let keyRing: KeyRing
    public let configuration: Configuration
    private let clock: WallClock

    public init(keyRing: KeyRing, configuration: Configuration, clock: WallClock) {
        self.keyRing = keyRing
        self.configuration = configuration
        self.clock = clock
    }

    /// Signs an ID token for `user`.
    /// - Parameters:
    ///   - signInProvider: `firebase.sign_in_provider` (`anonymous`, `password`, `custom`, an IdP id).
    ///   - authTime: when the session began (`auth_time`), unchanged by refreshes.
    ///   - sessionClaims: claims a custom token added to this session; they win over the account's.
    public func mintIDToken(
        for user: UserRecord, signInProvider: String, authTime: Date, sessionClaims: [String: JSONValue] = [:]
    ) async throws -> String {
        let now = clock.now
        guard let kid = await keyRing.signingKid(at: now) else {
            throw HearthError(.internalError, reason: "no signing key is active")
        }
        var custom = user.customAttributes.flatMap(JSONValue.object(fromJSON:)) ?? [:]
        custom.merge(sessionClaims) { _, session in session }
        let issuedAt = Int64(now.timeIntervalSince1970)
        let claims = IDTokenClaims(
            issuer: configuration.issuer,
            audience: configuration.projectID,
            authTime: Int64(authTime.timeIntervalSince1970),
            userID: user.uid,
            issuedAt: issuedAt,
            expiresAt: issuedAt + Int64(configuration.idTokenLifetime),
            email: user.email,
            emailVerified: user.email == nil ? nil : user.emailVerified,
            phoneNumber: user.phoneNumber,
            name: user.displayName,
            picture: user.photoURL,
            providerID: signInProvider == "anonymous" ? "anonymous" : nil,
            firebase: .init(identities: user.identities, signInProvider: signInProvider),
            custom: custom
        )
        var header = JWTHeader()
        header.typ = "JWT"
        return try await keyRing.collection.sign(claims, kid: JWKIdentifier(string: kid), header: header)
    }

    /// Checks an ID token's signature, issuer, audience and expiry.
    /// - Throws: ``HearthError/Code/invalidIDToken`` for anything malformed, forged or foreign;
    ///   ``HearthError/Code/tokenExpired`` when it has expired.
    public func verifyIDToken(_ token: String) async throws -> IDTokenClaims {
        let claims: IDTokenClaims
        do {
            claims = try await keyRing.collection.verify(token, as: IDTokenClaims.self)
        } catch {
            throw HearthError(.invalidIDToken, reason: "signature or format", underlying: error)
        }
        guard claims.issuer == configuration.issuer, claims.audience == configuration.projectID,
              !claims.subject.isEmpty, claims.subject.count <= 128
        else { throw HearthError(.invalidIDToken, reason: "issuer, audience or subject") }
        let now = Int64(clock.now.timeIntervalSince1970)
        guard claims.expiresAt > now else { throw HearthError(.tokenExpired, reason: "exp passed") }
        guard claims.issuedAt <= now + 300 else { throw HearthError(.invalidIDToken, reason: "issued in the future") }
        return claims
    }
}
