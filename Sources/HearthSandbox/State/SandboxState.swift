import Foundation

/// Everything a ``Sandbox`` remembers, guarded by its mutex.
struct SandboxState: Sendable {
    var baseURL: String
    var keySets: [SandboxProvider: SandboxKeySet] = [:]
    var jwksFetches: [SandboxProvider: Int] = [:]
    var discoveryFetches: [SandboxProvider: Int] = [:]
    var identities: [SandboxIdentity] = []
    var microsoftTenants: [SandboxMicrosoftTenant] = [.contoso, .fabrikam]
    var oidcClients: [String: SandboxCredentials.OIDCClient]
    /// Opaque access tokens of Google, Facebook, GitHub, Apple, Microsoft, Yahoo and OIDC issuers, by token.
    var accessTokens: [String: IssuedAccessToken] = [:]
    /// Twitter OAuth 1.0a tokens, by `oauth_token`.
    var twitterTokens: [String: IssuedTwitterToken] = [:]
    /// OAuth 1.0a nonces seen, keyed `consumer&token&nonce`, with their timestamps (pruned outside the window).
    var twitterNonces: [String: Int] = [:]
    var appleCodes: [String: AppleGrant] = [:]
    var appleRefreshTokens: [String: AppleGrant] = [:]
    /// Every request `/auth/revoke` accepted, oldest first.
    var appleRevocations: [AppleRevocation] = []
    /// Authorization codes of the consent pages (all OAuth 2.0 providers but Apple), by code.
    var authorizationCodes: [String: AuthorizationGrant] = [:]
    /// `clientID|subject` of the Apple accounts that approved an app once: later approvals carry no `user` JSON.
    var appleConsents: Set<String> = []
    /// Twitter request tokens, by `oauth_token`.
    var twitterRequestTokens: [String: TwitterRequestToken] = [:]
    /// The parameters the last authorization request of each provider carried (tests read what reached it).
    var lastAuthorizationParameters: [SandboxProvider: [String: String]] = [:]
    /// The SAML IdP's key, users and last request (``SandboxSAMLState``).
    var saml = SandboxSAMLState()

    mutating func keySet(for provider: SandboxProvider) throws -> SandboxKeySet {
        if let set = keySets[provider] { return set }
        let definition = provider.definition
        let set = try SandboxKeySet(style: definition.keyIDStyle, algorithm: definition.algorithm)
        keySets[provider] = set
        return set
    }

    mutating func remember(_ identity: SandboxIdentity) {
        if let index = identities.firstIndex(where: { $0.provider == identity.provider && $0.subject == identity.subject }) {
            identities[index] = identity
        } else {
            identities.append(identity)
        }
        if let tenantID = identity.tenantID, tenantID != SandboxMicrosoftTenant.personalAccountsTenantID,
            !microsoftTenants.contains(where: { $0.id.lowercased() == tenantID.lowercased() })
        {
            microsoftTenants.append(SandboxMicrosoftTenant(id: tenantID))
        }
    }
}
