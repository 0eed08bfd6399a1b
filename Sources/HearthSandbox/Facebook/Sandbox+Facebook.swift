import Crypto
import Foundation

extension Sandbox {
    /// The `iss` of Facebook Limited Login tokens.
    public static let facebookLimitedLoginIssuer = "https://www.facebook.com"

    /// A classic Facebook Login user access token (`EAA…`), valid at `/debug_token` and `/me` until it expires.
    /// - Parameters:
    ///   - appID: the app it was issued to; ``SandboxCredentials/Facebook/appID`` by default, or
    ///     ``SandboxCredentials/Facebook/otherAppID`` to test the audience check.
    ///   - scopes: granted permissions (without `email`, `/me` has no email).
    ///   - expiresIn: seconds (long-lived tokens last about 60 days); negative for an expired token.
    public func facebookAccessToken(
        for identity: SandboxIdentity, appID: String? = nil, scopes: [String] = ["email", "public_profile"],
        expiresIn: TimeInterval = 5_183_944
    ) throws -> String {
        try require(identity, is: .facebook)
        return issueAccessToken(
            "EAA\(SandboxRandom.alphanumeric(180))", provider: .facebook, identity: identity,
            clientID: appID ?? credentials.facebook.appID, scopes: scopes, expiresIn: expiresIn)
    }

    /// A Facebook Limited Login ID token (iOS), RS256 with the sandbox's Facebook key.
    ///
    /// Claims: `iss` `https://www.facebook.com`, `aud` (app id), `sub` (app-scoped id), `iat`, `exp`, `jti`,
    /// `nonce` (Facebook passes the client's value unchanged: ``SandboxNonce/raw(_:)`` puts its SHA-256 hex),
    /// `name`, `given_name`, `family_name`, `picture`, `email` (when the identity has one).
    public func facebookLimitedLoginToken(
        for identity: SandboxIdentity, appID: String? = nil, nonce: SandboxNonce?, expiresIn: TimeInterval = 3600,
        defect: SandboxTokenDefect? = nil, extraClaims: [String: SandboxJSON] = [:], omittedClaims: Set<String> = []
    ) throws -> String {
        try require(identity, is: .facebook)
        add(identity)
        let times = tokenTimes(expiresIn: expiresIn)
        var claims: [String: SandboxJSON] = [
            "iss": .string(Self.facebookLimitedLoginIssuer), "aud": .string(appID ?? credentials.facebook.appID),
            "sub": .string(identity.subject), "iat": .int(times.iat), "exp": .int(times.exp),
            "jti": .string(SandboxRandom.uuid()),
        ]
        for (name, value) in [
            ("name", identity.displayName), ("given_name", identity.givenName), ("family_name", identity.familyName),
            ("picture", identity.photoURL), ("email", identity.email),
        ] {
            if let value { claims[name] = .string(value) }
        }
        if let nonce { claims["nonce"] = .string(nonce.claimValue) }
        return try signIDToken(
            provider: .facebook, includeType: true, claims: claims, expiresIn: expiresIn, defect: defect,
            extraClaims: extraClaims, omittedClaims: omittedClaims)
    }

    /// `appsecret_proof`: lower-case hex HMAC-SHA256 of the access token keyed with the app secret.
    public static func facebookAppSecretProof(accessToken: String, appSecret: String) -> String {
        Data(HMAC<SHA256>.authenticationCode(for: Data(accessToken.utf8), using: SymmetricKey(data: Data(appSecret.utf8))))
            .hexString
    }

    /// The secret and display name of a Facebook app the sandbox knows.
    func facebookApp(_ appID: String) -> (secret: String, name: String)? {
        let facebook = credentials.facebook
        switch appID {
        case facebook.appID: return (facebook.appSecret, facebook.appName)
        case facebook.otherAppID: return (facebook.otherAppSecret, "Other Sandbox App")
        default: return nil
        }
    }
}
