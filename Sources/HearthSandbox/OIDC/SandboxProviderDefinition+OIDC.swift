import Foundation
import Hummingbird

extension SandboxProvider {
    /// The Firebase provider ids' prefix of generic OpenID Connect issuers.
    static let oidcPrefix = "oidc."

    /// The generic OpenID Connect issuer `name` (`oidc.<name>`).
    public static func oidc(_ name: String) -> SandboxProvider { SandboxProvider(id: oidcPrefix + name) }

    /// The `<name>` of `oidc.<name>`; `nil` for the other providers.
    public var oidcName: String? {
        firebaseProviderID.hasPrefix(Self.oidcPrefix) ? String(firebaseProviderID.dropFirst(Self.oidcPrefix.count)) : nil
    }
}

extension SandboxIdentity {
    /// A user of the default generic OIDC issuer (``SandboxCredentials/defaultOIDCIssuerName``).
    public static let oidcUser = SandboxIdentity(
        provider: .oidc(SandboxCredentials.defaultOIDCIssuerName), subject: "f3b9c2a1-7d4e-4b8a-a1c2-d3e4f5a6b7c8",
        email: "olivia@example.com", emailVerified: true, displayName: "Olivia Issuer", givenName: "Olivia",
        familyName: "Issuer", photoURL: "https://idp.example.com/avatars/olivia.png", locale: "en")
}

extension SandboxProviderDefinition {
    /// Generic OpenID Connect issuers (`oidc.<name>`, served under `oidc/<name>/`): discovery, keys, the
    /// consent page `authorize` and `token`. Issuers come and go at run time (``Sandbox/addOIDCIssuer(name:client:)``),
    /// so their clients and endpoints are the sandbox's, not a registered app's.
    static let oidc = SandboxProviderDefinition(
        id: SandboxProvider.oidcPrefix, pathPrefix: "oidc", name: "OIDC", accent: "#5b4fc4", keyIDStyle: .uuid,
        routes: { [OIDCRoutes(sandbox: $0)] },
        authorization: SandboxAuthorization(
            authorizePaths: [":issuer/authorize"], tokenPaths: [":issuer/token"],
            clientSecret: { sandbox, provider, clientID in
                guard let name = provider.oidcName, let client = sandbox.oidcClient(name), client.clientID == clientID else { return nil }
                return client.clientSecret
            },
            issue: { sandbox, grant, _ in
                let accessToken = sandbox.issueAccessToken(
                    SandboxRandom.base64URL(bytes: 32), provider: grant.provider, identity: grant.identity, clientID: grant.clientID,
                    scopes: grant.scopes, expiresIn: 3600)
                let idToken = try sandbox.oidcIDToken(
                    for: grant.identity, issuerName: grant.provider.oidcName, clientID: grant.clientID, nonce: grant.nonce.map(SandboxNonce.claim))
                return SandboxHTTP.json([
                    "access_token": .string(accessToken), "token_type": "Bearer", "expires_in": 3600, "id_token": .string(idToken),
                    "scope": .string(grant.scopes.joined(separator: " ")),
                ])
            }),
        presets: [.oidcUser],
        nativeCredential: { sandbox, identity, rawNonce in
            .init(idToken: try sandbox.oidcIDToken(for: identity, nonce: rawNonce.map(SandboxNonce.raw)))
        })
}

extension OIDCRoutes: SandboxRoutes {}
