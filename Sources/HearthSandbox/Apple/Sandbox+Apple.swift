import Crypto
import Foundation
import HearthBase64URL

extension Sandbox {
    /// The issuer of Apple ID tokens.
    public static let appleIssuer = "https://appleid.apple.com"

    /// An Apple identity token, RS256 with the sandbox's Apple key (header `{"kid","alg"}`, no `typ`, like Apple's).
    ///
    /// Claims: `iss` `https://appleid.apple.com`, `aud`, `exp`, `iat`, `sub`, `nonce` (when given),
    /// `nonce_supported` true, `auth_time`, and when the identity has an email `email`, `email_verified` and
    /// `is_private_email` (strings `"true"`/`"false"` unless `booleansAsStrings` is false — Apple has sent both
    /// forms), `real_user_status` when the identity has one and the audience is not the Services
    /// ID (native sign-ins only). Never a name.
    /// - Parameters:
    ///   - audience: the `client_id`; defaults to the first bundle id (native sign-in). Use the Services ID for web.
    ///   - nonce: ``SandboxNonce/raw(_:)`` puts the hex SHA-256 of the raw nonce in the token.
    ///   - expiresIn: seconds until `exp` (Apple's lifetimes vary between minutes and a day).
    public func appleIDToken(
        for identity: SandboxIdentity, audience: String? = nil, nonce: SandboxNonce? = nil,
        expiresIn: TimeInterval = 600, booleansAsStrings: Bool = true, defect: SandboxTokenDefect? = nil,
        extraClaims: [String: SandboxJSON] = [:], omittedClaims: Set<String> = []
    ) throws -> String {
        try appleIDToken(
            for: identity, audience: audience ?? credentials.apple.bundleIDs.first ?? credentials.apple.servicesID,
            nonce: nonce, expiresIn: expiresIn, booleansAsStrings: booleansAsStrings, accessToken: nil,
            defect: defect, extraClaims: extraClaims, omittedClaims: omittedClaims)
    }

    func appleIDToken(
        for identity: SandboxIdentity, audience: String, nonce: SandboxNonce?, expiresIn: TimeInterval,
        booleansAsStrings: Bool, accessToken: String?, defect: SandboxTokenDefect?,
        extraClaims: [String: SandboxJSON], omittedClaims: Set<String>
    ) throws -> String {
        try require(identity, is: .apple)
        add(identity)
        let times = tokenTimes(expiresIn: expiresIn)
        func flag(_ value: Bool) -> SandboxJSON { booleansAsStrings ? .string(value ? "true" : "false") : .bool(value) }
        var claims: [String: SandboxJSON] = [
            "iss": .string(Self.appleIssuer), "aud": .string(audience), "sub": .string(identity.subject),
            "iat": .int(times.iat), "exp": .int(times.exp), "auth_time": .int(times.iat), "nonce_supported": true,
        ]
        if let nonce { claims["nonce"] = .string(nonce.claimValue) }
        if let email = identity.email {
            claims["email"] = .string(email)
            claims["email_verified"] = flag(identity.emailVerified)
            claims["is_private_email"] = flag(identity.isPrivateEmail)
        }
        // Only native sign-ins (bundle id audience) report real_user_status; the web flow never does.
        if let status = identity.realUserStatus, audience != credentials.apple.servicesID {
            claims["real_user_status"] = .int(status)
        }
        if let accessToken { claims["at_hash"] = .string(Self.halfHash(accessToken)) }
        return try signIDToken(
            provider: .apple, includeType: false, claims: claims, expiresIn: expiresIn, defect: defect,
            extraClaims: extraClaims, omittedClaims: omittedClaims)
    }

    /// An authorization code as Apple's authorize step would post it back (`c…​.0.xxxx.…`), redeemable once at
    /// `/auth/token` within ``SandboxSettings/appleCodeLifetime`` by `clientID` with a valid client secret.
    /// Stands in for the browser flow until the authorize pages exist.
    /// - Parameters:
    ///   - clientID: Services ID (web, the default) or a bundle id.
    ///   - redirectURI: when set, the token request must repeat it exactly.
    ///   - nonce: carried into the ID token the code redeems for.
    public func appleAuthorizationCode(
        for identity: SandboxIdentity, clientID: String? = nil, redirectURI: String? = nil, nonce: SandboxNonce? = nil
    ) throws -> String {
        try require(identity, is: .apple)
        let code =
            "c\(SandboxRandom.hex(bytes: 16)).0.\(SandboxRandom.string(4, from: "abcdefghijklmnopqrstuvwxyz")).\(SandboxRandom.base64URL(bytes: 16))"
        let grant = AppleGrant(
            identity: identity, clientID: clientID ?? credentials.apple.servicesID, redirectURI: redirectURI,
            nonce: nonce, issuedAt: now)
        withState { state in
            state.remember(identity)
            state.appleCodes[code] = grant
        }
        return code
    }

    /// A client secret JWT as the relying party makes it (ES256 with the `.p8` key of ``SandboxCredentials/apple``),
    /// for tests of the sandbox itself and for scripts. Hearth must build its own.
    public func appleClientSecret(clientID: String? = nil, issuedAt: Date? = nil, expiresIn: TimeInterval = 3600) throws -> String {
        let apple = credentials.apple
        let key = try P256.Signing.PrivateKey(pemRepresentation: apple.privateKeyPEM)
        let iat = Self.seconds(issuedAt ?? now)
        let claims: SandboxJSON = [
            "iss": .string(apple.teamID), "iat": .int(iat), "exp": .int(iat + Self.wholeSeconds(expiresIn)),
            "aud": .string(Self.appleIssuer), "sub": .string(clientID ?? apple.servicesID),
        ]
        return try SandboxJWT.encode(header: ["alg": "ES256", "kid": .string(apple.keyID)], claims: claims) {
            try key.signature(for: $0).rawRepresentation
        }
    }

    /// OIDC `at_hash`/`c_hash`: base64url of the left half of SHA-256.
    static func halfHash(_ value: String) -> String {
        Base64URL.encode(SHA256.hash(data: Data(value.utf8)).prefix(16))
    }
}
