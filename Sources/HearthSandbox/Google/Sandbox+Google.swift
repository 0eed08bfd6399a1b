import Foundation

extension Sandbox {
    /// The modern issuer of Google ID tokens.
    public static let googleIssuer = "https://accounts.google.com"
    /// The scheme-less issuer Google still returns for legacy implementations (also valid).
    public static let googleLegacyIssuer = "accounts.google.com"
    /// The scopes of a Google sign-in: `openid`, `…/userinfo.email`, `…/userinfo.profile`.
    public static let googleSignInScopes = [
        "openid", "https://www.googleapis.com/auth/userinfo.email", "https://www.googleapis.com/auth/userinfo.profile",
    ]

    /// A Google ID token (header `alg` RS256, `kid`, `typ` JWT).
    ///
    /// Claims: `iss`, `azp`, `aud`, `sub`, `iat`, `exp`, `email` and `email_verified` (a boolean) when the identity
    /// has an email, `hd` for Workspace accounts, `name`, `given_name`, `family_name`, `picture`, `locale` when
    /// `includeProfile`, `at_hash` when `accessToken` is given, `nonce` when given.
    /// - Parameters:
    ///   - audience: the OAuth client id (`aud`); the project's web client by default.
    ///   - authorizedParty: `azp`; defaults to `audience`. Android/iOS sign-ins have `azp` = the mobile client and
    ///     `aud` = the web client.
    ///   - issuer: ``googleIssuer`` or ``googleLegacyIssuer``.
    ///   - includeProfile: whether the `profile` scope was granted (without it there is no name or picture).
    public func googleIDToken(
        for identity: SandboxIdentity, audience: String? = nil, authorizedParty: String? = nil,
        nonce: SandboxNonce? = nil, issuer: String = Sandbox.googleIssuer, includeProfile: Bool = true,
        accessToken: String? = nil, expiresIn: TimeInterval = 3600, defect: SandboxTokenDefect? = nil,
        extraClaims: [String: SandboxJSON] = [:], omittedClaims: Set<String> = []
    ) throws -> String {
        try require(identity, is: .google)
        add(identity)
        let aud = audience ?? credentials.google.webClientID
        let times = tokenTimes(expiresIn: expiresIn)
        var claims: [String: SandboxJSON] = [
            "iss": .string(issuer), "azp": .string(authorizedParty ?? aud), "aud": .string(aud),
            "sub": .string(identity.subject), "iat": .int(times.iat), "exp": .int(times.exp),
        ]
        if let email = identity.email {
            claims["email"] = .string(email)
            claims["email_verified"] = .bool(identity.emailVerified)
        }
        if let domain = identity.hostedDomain { claims["hd"] = .string(domain) }
        if includeProfile {
            for (name, value) in [
                ("name", identity.displayName), ("given_name", identity.givenName), ("family_name", identity.familyName),
                ("picture", identity.photoURL), ("locale", identity.locale),
            ] {
                if let value { claims[name] = .string(value) }
            }
        }
        if let accessToken { claims["at_hash"] = .string(Self.halfHash(accessToken)) }
        if let nonce { claims["nonce"] = .string(nonce.claimValue) }
        return try signIDToken(
            provider: .google, includeType: true, claims: claims, expiresIn: expiresIn, defect: defect,
            extraClaims: extraClaims, omittedClaims: omittedClaims)
    }

    /// A Google OAuth access token (`ya29.…`) that tokeninfo and userinfo accept until it expires.
    /// - Parameters:
    ///   - clientID: the client it was issued to (tokeninfo `aud`/`azp`); the web client by default.
    ///   - expiresIn: seconds; negative for an already expired token.
    public func googleAccessToken(
        for identity: SandboxIdentity, clientID: String? = nil, scopes: [String] = Sandbox.googleSignInScopes,
        expiresIn: TimeInterval = 3599
    ) throws -> String {
        try require(identity, is: .google)
        return issueAccessToken(
            "ya29.a0\(SandboxRandom.base64URL(bytes: 120))", provider: .google, identity: identity,
            clientID: clientID ?? credentials.google.webClientID, scopes: scopes, expiresIn: expiresIn)
    }
}
