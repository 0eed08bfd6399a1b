import Foundation

extension Sandbox {
    /// The issuer of Yahoo ID tokens.
    public static let yahooIssuer = "https://api.login.yahoo.com"
    /// The scopes of a Yahoo sign-in: `openid`, `email`, `profile`.
    public static let yahooSignInScopes = ["openid", "email", "profile"]

    /// A Yahoo ID token (header `alg` ES256, `kid`, `typ` JWT), signed with the sandbox's Yahoo P-256 key.
    ///
    /// Claims: `iss` ``yahooIssuer``, `aud`, `sub`, `iat`, `exp`, `auth_time`, `amr` `["pwd"]`, `email` and
    /// `email_verified` (a boolean) when the identity has an email, `name`, `given_name`, `family_name`,
    /// `nickname` (the identity's ``SandboxIdentity/screenName``), `picture`, `locale` (those the identity has),
    /// `at_hash` when `accessToken` is given, `nonce` when given.
    /// - Parameters:
    ///   - clientID: `aud`; the registered app's client id by default.
    ///   - nonce: ``SandboxNonce/raw(_:)`` puts the hex SHA-256 of the raw nonce in the token,
    ///     ``SandboxNonce/claim(_:)`` the value itself (what Yahoo does with the authorization request's `nonce`).
    public func yahooIDToken(
        for identity: SandboxIdentity, clientID: String? = nil, nonce: SandboxNonce? = nil, accessToken: String? = nil,
        expiresIn: TimeInterval = 3600, defect: SandboxTokenDefect? = nil, extraClaims: [String: SandboxJSON] = [:],
        omittedClaims: Set<String> = []
    ) throws -> String {
        try require(identity, is: .yahoo)
        add(identity)
        let times = tokenTimes(expiresIn: expiresIn)
        var claims: [String: SandboxJSON] = [
            "iss": .string(Self.yahooIssuer), "aud": .string(clientID ?? credentials.yahoo.clientID),
            "sub": .string(identity.subject), "iat": .int(times.iat), "exp": .int(times.exp), "auth_time": .int(times.iat),
            "amr": ["pwd"],
        ]
        if let email = identity.email {
            claims["email"] = .string(email)
            claims["email_verified"] = .bool(identity.emailVerified)
        }
        for (name, value) in Self.yahooProfile(identity) { claims[name] = .string(value) }
        if let accessToken { claims["at_hash"] = .string(Self.halfHash(accessToken)) }
        if let nonce { claims["nonce"] = .string(nonce.claimValue) }
        return try signIDToken(
            provider: .yahoo, includeType: true, claims: claims, expiresIn: expiresIn, defect: defect,
            extraClaims: extraClaims, omittedClaims: omittedClaims)
    }

    /// A Yahoo OAuth 2.0 access token (opaque) that the userinfo endpoint accepts until it expires.
    /// - Parameters:
    ///   - clientID: the app it was issued to; the registered app by default.
    ///   - scopes: without `email` userinfo has no address, without `profile` no name or picture.
    ///   - expiresIn: seconds; negative for an already expired token.
    public func yahooAccessToken(
        for identity: SandboxIdentity, clientID: String? = nil, scopes: [String] = Sandbox.yahooSignInScopes,
        expiresIn: TimeInterval = 3600
    ) throws -> String {
        try require(identity, is: .yahoo)
        return issueAccessToken(
            SandboxRandom.base64URL(bytes: 96), provider: .yahoo, identity: identity,
            clientID: clientID ?? credentials.yahoo.clientID, scopes: scopes, expiresIn: expiresIn)
    }

    /// The secret of a registered Yahoo app, `nil` for an unknown client id.
    func yahooSecret(_ clientID: String) -> String? {
        let yahoo = credentials.yahoo
        switch clientID {
        case yahoo.clientID: return yahoo.clientSecret
        case yahoo.otherClientID: return yahoo.otherClientSecret
        default: return nil
        }
    }

    /// The profile claims Yahoo reports for `identity`, those it has.
    static func yahooProfile(_ identity: SandboxIdentity) -> [(String, String)] {
        [
            ("name", identity.displayName), ("given_name", identity.givenName), ("family_name", identity.familyName),
            ("nickname", identity.screenName), ("picture", identity.photoURL), ("locale", identity.locale),
        ].compactMap { name, value in value.map { (name, $0) } }
    }
}
