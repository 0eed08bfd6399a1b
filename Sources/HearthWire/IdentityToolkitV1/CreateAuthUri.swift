/// `accounts:createAuthUri` (legacy `createAuthUri`): which sign-in methods an e-mail has, or, with
/// `providerId`, the start of a browser sign-in (see docs/browser-sign-in.md).
public struct CreateAuthUriRequest: Codable, Sendable, Equatable {
    public var identifier: String?
    /// The app's return URL (browser sign-in): a custom scheme or a loopback `http://127.0.0.1:PORT/` address.
    public var continueUri: String?
    public var providerId: String?
    /// The client's session; `signInWithIdp` must present the same one. Random when absent.
    public var sessionId: String?
    public var tenantId: String?
    /// Space-separated scopes added to the provider's defaults.
    public var oauthScope: String?
    /// Parameters passed through to the provider's page (`prompt`, `login_hint`, `tenant`, `lang`, …);
    /// `client_id`, `redirect_uri`, `response_type`, `scope`, `state` and `response_mode` are ignored.
    public var customParameter: [String: String]?

    public init(identifier: String?, continueUri: String? = "http://localhost") {
        self.identifier = identifier
        self.continueUri = continueUri
    }
}

public struct CreateAuthUriResponse: Codable, Sendable, Equatable {
    public var kind = "identitytoolkit#CreateAuthUriResponse"
    public var registered: Bool?
    public var allProviders: [String]?
    public var signinMethods: [String]?
    public var sessionId: String?
    /// Browser sign-in: the provider's authorization page to open.
    public var authUri: String?
    /// Browser sign-in: the provider of ``authUri``.
    public var providerId: String?

    public init(registered: Bool?, allProviders: [String]?, signinMethods: [String]?, sessionId: String?) {
        self.registered = registered
        self.allProviders = allProviders
        self.signinMethods = signinMethods
        self.sessionId = sessionId
    }
}
