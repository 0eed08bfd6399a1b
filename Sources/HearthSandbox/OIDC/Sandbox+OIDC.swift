import Foundation

extension Sandbox {
    /// An ID token of a generic OIDC issuer (header `alg` RS256, `kid`, `typ` JWT), signed with that issuer's key.
    ///
    /// Claims: `iss` (``oidcIssuer(_:)``), `aud`, `sub`, `iat`, `exp`, `auth_time`, `email`, `email_verified`,
    /// `name`, `given_name`, `family_name`, `picture`, `locale` (those the identity has), `nonce` when given.
    /// - Parameters:
    ///   - issuerName: the issuer (`oidc.<name>`); the identity's by default.
    ///   - clientID: `aud`; the client registered at the issuer by default.
    /// - Throws: ``SandboxError/unknownOIDCIssuer(_:)`` if the issuer was never registered.
    public func oidcIDToken(
        for identity: SandboxIdentity, issuerName: String? = nil, clientID: String? = nil, nonce: SandboxNonce? = nil,
        expiresIn: TimeInterval = 3600, defect: SandboxTokenDefect? = nil, extraClaims: [String: SandboxJSON] = [:],
        omittedClaims: Set<String> = []
    ) throws -> String {
        guard let identityIssuer = identity.provider.oidcName else {
            throw SandboxError.wrongProvider(expected: .oidc(issuerName ?? SandboxCredentials.defaultOIDCIssuerName), got: identity.provider)
        }
        let name = issuerName ?? identityIssuer
        guard let client = oidcClient(name) else { throw SandboxError.unknownOIDCIssuer(name) }
        add(identity)
        let times = tokenTimes(expiresIn: expiresIn)
        var claims: [String: SandboxJSON] = [
            "iss": .string(oidcIssuer(name)), "aud": .string(clientID ?? client.clientID), "sub": .string(identity.subject),
            "iat": .int(times.iat), "exp": .int(times.exp), "auth_time": .int(times.iat),
        ]
        if let email = identity.email {
            claims["email"] = .string(email)
            claims["email_verified"] = .bool(identity.emailVerified)
        }
        for (claim, value) in [
            ("name", identity.displayName), ("given_name", identity.givenName), ("family_name", identity.familyName),
            ("picture", identity.photoURL), ("locale", identity.locale),
        ] {
            if let value { claims[claim] = .string(value) }
        }
        if let nonce { claims["nonce"] = .string(nonce.claimValue) }
        return try signIDToken(
            provider: .oidc(name), includeType: true, claims: claims, expiresIn: expiresIn, defect: defect,
            extraClaims: extraClaims, omittedClaims: omittedClaims)
    }
}
