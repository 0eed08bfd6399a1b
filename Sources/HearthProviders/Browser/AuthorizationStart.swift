import Foundation

/// What `createAuthUri` asks the flows for.
public struct AuthorizationRequest: Sendable {
    /// `google.com`, `apple.com`, …, `oidc.<name>`.
    public var providerID: String
    /// Hearth's redirect handler, as registered with the provider.
    public var redirectURI: URL
    /// The opaque, single-use `state` (Twitter: carried in the callback URL's query).
    public var state: String
    /// Scopes the app adds to Hearth's defaults (`oauthScope`).
    public var scopes: [String]
    /// The app's custom parameters; reserved names are dropped, `tenant` picks Microsoft's tenant.
    public var customParameters: [String: String]

    public init(providerID: String, redirectURI: URL, state: String, scopes: [String], customParameters: [String: String]) {
        self.providerID = providerID
        self.redirectURI = redirectURI
        self.state = state
        self.scopes = scopes
        self.customParameters = customParameters
    }
}

/// The start of a browser sign-in: where to send the browser, and what the handler will need later.
public struct AuthorizationStart: Sendable {
    /// The provider's authorization page with every parameter (`authUri`).
    public var url: URL
    /// Values to keep with the pending sign-in until the provider answers: `code_verifier` (PKCE), `nonce`
    /// (raw; the provider got its SHA-256), `tenant` (Microsoft), `request_token` and `request_token_secret`
    /// (Twitter). Secrets: they live in the database only until the handler consumes them.
    public var pendingValues: [String: String]
}
