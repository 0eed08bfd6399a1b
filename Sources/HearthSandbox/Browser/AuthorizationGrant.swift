import Foundation

/// What an OAuth 2.0 authorization code issued by a sandbox consent page stands for (Google, Microsoft,
/// Facebook, GitHub, Yahoo, generic OIDC; Apple's codes are ``AppleGrant``s).
struct AuthorizationGrant: Sendable {
    let provider: SandboxProvider
    let identity: SandboxIdentity
    let clientID: String
    let redirectURI: String
    let scopes: [String]
    /// The `nonce` of the authorization request, put verbatim into the ID token.
    let nonce: String?
    /// PKCE: the `code_challenge` and its method (`S256` or `plain`), if the request had one.
    let codeChallenge: String?
    let codeChallengeMethod: String?
    let issuedAt: Date
    var used = false
}

/// A Twitter request token between `request_token` and `access_token`.
struct TwitterRequestToken: Sendable {
    let consumerKey: String
    let secret: String
    let callback: String
    let issuedAt: Date
    /// Set when the person approves on the authenticate page.
    var identity: SandboxIdentity?
    var verifier: String?
}

extension Sandbox {
    /// The parameters of the last authorization (consent) page request `provider` received, without the
    /// `sandbox_*` ones: what a relying party's authorization URL actually carried to the provider.
    public func lastAuthorizationRequest(_ provider: SandboxProvider) -> [String: String]? {
        withState { $0.lastAuthorizationParameters[provider] }
    }
}
