import Foundation

/// What `createAuthUri` asks the flows for.
public struct AuthorizationRequest: Sendable {
    /// `google.com`, `apple.com`, …, `oidc.<name>`.
    public var providerID: String
    /// Where the provider sends the browser back (`redirect_uri`, Twitter's `oauth_callback`): Hearth's
    /// redirect handler, or the app's own redirect URI in Firebase's callback mode.
    public var redirectURI: URL
    /// The opaque, single-use `state` (Twitter: carried in the callback URL's query).
    public var state: String
    /// Scopes the app adds to Hearth's defaults (`oauthScope`).
    public var scopes: [String]
    /// The app's custom parameters; reserved names are dropped, `tenant` picks Microsoft's tenant.
    public var customParameters: [String: String]
    /// Whether Twitter's callback URL carries ``state`` in its query (Hearth's handler). The app's own redirect
    /// URI is registered with Twitter as it is, so there the request token finds the sign-in instead.
    public var twitterCallbackCarriesState: Bool

    public init(
        providerID: String, redirectURI: URL, state: String, scopes: [String], customParameters: [String: String],
        twitterCallbackCarriesState: Bool = true
    ) {
        self.providerID = providerID
        self.redirectURI = redirectURI
        self.state = state
        self.scopes = scopes
        self.customParameters = customParameters
        self.twitterCallbackCarriesState = twitterCallbackCarriesState
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
