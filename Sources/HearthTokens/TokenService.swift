import Crypto
import CryptoExtras
import Foundation
import HearthBase64URL
import HearthCore
import HearthWire
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

    /// How many verified ID tokens ``verifyIDToken(_:)`` remembers (see ``VerifiedTokenCache``).
    public static let verifiedTokenCacheCapacity = 4_096

    public let keyRing: KeyRing
    public let configuration: Configuration
    private let clock: WallClock
    /// Tokens already verified, shared by every copy of this service.
    let verifiedTokens: VerifiedTokenCache

    var clockNow: Date { clock.now }

    public init(keyRing: KeyRing, configuration: Configuration, clock: WallClock) {
        self.keyRing = keyRing
        self.configuration = configuration
        self.clock = clock
        verifiedTokens = VerifiedTokenCache(capacity: Self.verifiedTokenCacheCapacity)
    }

    /// Signs an ID token for `user`.
    /// - Parameters:
    ///   - signInProvider: `firebase.sign_in_provider` (`anonymous`, `password`, `custom`, an IdP id).
    ///   - authTime: when the session began (`auth_time`), unchanged by refreshes.
    ///   - sessionClaims: claims a custom token added to this session; they win over the account's.
    ///   - secondFactor: the second factor the sign-in passed (`firebase.sign_in_second_factor`,
    ///     `firebase.second_factor_identifier`).
    public func mintIDToken(
        for user: UserRecord, signInProvider: String, authTime: Date, sessionClaims: [String: JSONValue] = [:],
        secondFactor: SecondFactorUse? = nil
    ) async throws -> String {
        let now = clock.now
        // The key from the ring's lock-protected snapshot: no hop into the KeyRing or JWTKit actors.
        let signer = keyRing.signer(at: now)
        var signingKid = signer?.kid
        if signingKid == nil { signingKid = await keyRing.signingKid(at: now) }
        guard let kid = signingKid else {
            throw HearthError(.internalError, reason: "no signing key is active")
        }
        var custom = user.customAttributes.flatMap(JSONValue.object(fromJSON:)) ?? [:]
        var sessionClaims = sessionClaims
        // A SAML sign-in's attributes go inside `firebase`, not beside the developer's claims.
        var signInAttributes: [String: JSONValue]?
        if case .object(let attributes)? = sessionClaims.removeValue(forKey: FederatedSignIn.signInAttributesClaim) {
            signInAttributes = attributes
        }
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
            firebase: .init(
                identities: user.identities, signInProvider: signInProvider, tenant: user.tenantID,
                signInSecondFactor: secondFactor?.kind.rawValue,
                secondFactorIdentifier: secondFactor?.enrollmentID, signInAttributes: signInAttributes),
            custom: custom
        )
        if let signer, signer.kid == kid {
            return try Self.sign(claims, kid: kid, key: signer.key)
        }
        var header = JWTHeader()
        header.typ = "JWT"
        return try await keyRing.collection.sign(claims, kid: JWKIdentifier(string: kid), header: header)
    }

    /// Signs `payload` as a JWT with the current signing key, as ID tokens are signed (RS256, the key's `kid`): the
    /// blocking hooks' events, which a hook checks at the same published keys.
    public func signJWT(_ payload: [String: JSONValue]) async throws -> String {
        let now = clock.now
        var signer = keyRing.signer(at: now)
        if signer == nil {
            try await keyRing.reload()
            signer = keyRing.signer(at: now)
        }
        guard let signer else { throw HearthError(.internalError, reason: "no signing key is active") }
        var token = Base64URL.encode(try WireJSONEncoder.encode(Header(kid: signer.kid)))
        token.append(".")
        token.append(Base64URL.encode(try WireJSONEncoder.encode(JSONValue.object(payload))))
        return try signer.key.jws(signingInput: token)
    }

    /// The JOSE header of ID tokens, `{"alg":"RS256","kid":…,"typ":"JWT"}`.
    private struct Header: Encodable {
        let alg = "RS256"
        let kid: String
        let typ = "JWT"
    }

    /// An RS256 JWT (RSASSA-PKCS1-v1_5 with SHA-256, the JWS compact form), made on the calling thread, without
    /// JWTKit's actor. The JSON is compact with unescaped slashes, as JWTKit's serializer writes it, but written by
    /// ``WireJSONEncoder`` in the claims' own order (Foundation's `JSONEncoder` took 4 % of the server's CPU in refreshes).
    static func sign(_ claims: IDTokenClaims, kid: String, key: RS256SigningKey) throws -> String {
        let header = try WireJSONEncoder.encode(Header(kid: kid))
        let payload = try WireJSONEncoder.encode(claims)
        var token = Base64URL.encode(header)
        token.append(".")
        token.append(Base64URL.encode(payload))
        return try key.jws(signingInput: token)
    }

    /// The `kid` of a JWT's header, if it has one.
    static func keyID(of token: String) -> String? {
        guard let header = token.split(separator: ".", maxSplits: 1).first else { return nil }
        guard header.utf8.count <= 4_096, let bytes = Base64URL.decode(header),
            case .object(let fields)? = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)),
            case .string(let kid)? = fields["kid"]
        else { return nil }
        return kid
    }

    /// Checks an ID token's signature, issuer, audience and expiry.
    ///
    /// A token that passed recently is found in a cache of verified tokens, which skips the RSA
    /// verification and the JSON decoding; the issuer, audience, subject and time checks run against
    /// the clock on every call all the same.
    /// - Throws: ``HearthError/Code/invalidIDToken`` for anything malformed, forged or foreign;
    ///   ``HearthError/Code/tokenExpired`` when it has expired.
    public func verifyIDToken(_ token: String) async throws -> IDTokenClaims {
        if let claims = verifiedTokens.claims(for: token, now: Int64(clock.now.timeIntervalSince1970)) {
            try check(claims)
            return claims
        }
        let claims: IDTokenClaims
        do {
            claims = try await keyRing.collection.verify(token, as: IDTokenClaims.self)
        } catch {
            // A key another replica made since this one last loaded the key set: learn it and try again.
            guard let kid = Self.keyID(of: token), await keyRing.learn(kid: kid),
                let retried = try? await keyRing.collection.verify(token, as: IDTokenClaims.self)
            else { throw HearthError(.invalidIDToken, reason: "signature or format", underlying: error) }
            claims = retried
        }
        let now = try check(claims)
        verifiedTokens.insert(claims, for: token, now: now)
        return claims
    }

    /// The checks of a token whose signature is good: issuer, audience, subject, expiry and issue
    /// time, against the clock now. Returns that instant (seconds since 1970).
    @discardableResult
    private func check(_ claims: IDTokenClaims) throws -> Int64 {
        guard claims.issuer == configuration.issuer, claims.audience == configuration.projectID,
            !claims.subject.isEmpty, claims.subject.count <= 128
        else { throw HearthError(.invalidIDToken, reason: "issuer, audience or subject") }
        let now = Int64(clock.now.timeIntervalSince1970)
        guard claims.expiresAt > now else { throw HearthError(.tokenExpired, reason: "exp passed") }
        guard claims.issuedAt <= now + 300 else { throw HearthError(.invalidIDToken, reason: "issued in the future") }
        return now
    }
}
