/// Everything Hearth must be configured with to use a sandbox instead of the real providers: the URL of each
/// endpoint it calls, the issuers it must accept, and the relying-party credentials the sandbox expects.
///
/// Obtain it from ``Sandbox/endpoints()`` after ``Sandbox/baseURL`` is final. Every `baseURL` field is the
/// stand-in for the provider's real host (e.g. `https://api.github.com` → `<sandbox>/github`); the real paths
/// follow it unchanged.
public struct SandboxEndpoints: Sendable {
    public struct Apple: Sendable {
        /// Stand-in for `https://appleid.apple.com`.
        public var baseURL: String
        /// `https://appleid.apple.com` (tokens carry the real issuer).
        public var issuer: String
        public var jwksURL: String
        public var tokenURL: String
        public var revokeURL: String
        public var discoveryURL: String
        public var credentials: SandboxCredentials.Apple
    }

    public struct Microsoft: Sendable {
        /// Stand-in for `https://login.microsoftonline.com` (then `/{tenant}/discovery/v2.0/keys` etc.).
        public var loginBaseURL: String
        /// `https://login.microsoftonline.com/{tenantid}/v2.0`: substitute the token's `tid`.
        public var issuerTemplate: String
        /// `9188040d-6c67-4c5b-b112-36a304b66dad`.
        public var personalAccountsTenantID: String
        /// The tenant Hearth is configured with (`common`).
        public var tenant: String
        /// `<loginBaseURL>/common/discovery/v2.0/keys`.
        public var jwksURL: String
        /// `<loginBaseURL>/common/v2.0/.well-known/openid-configuration`.
        public var discoveryURL: String
        public var credentials: SandboxCredentials.Microsoft
    }

    public struct Google: Sendable {
        /// Stand-in for Google's API hosts (www.googleapis.com, oauth2.googleapis.com, openidconnect.googleapis.com).
        public var baseURL: String
        /// `https://accounts.google.com` and `accounts.google.com`.
        public var issuers: [String]
        public var jwksURL: String
        public var tokenInfoURL: String
        public var userInfoURL: String
        public var discoveryURL: String
        public var credentials: SandboxCredentials.Google
    }

    public struct Facebook: Sendable {
        /// Stand-in for `https://graph.facebook.com` (a version segment such as `/v24.0` may follow).
        public var graphBaseURL: String
        /// `https://www.facebook.com`.
        public var limitedLoginIssuer: String
        /// Stand-in for `https://limited.facebook.com/.well-known/oauth/openid/jwks/`.
        public var limitedLoginJWKSURL: String
        public var limitedLoginDiscoveryURL: String
        public var credentials: SandboxCredentials.Facebook
    }

    public struct GitHub: Sendable {
        /// Stand-in for `https://api.github.com`.
        public var apiBaseURL: String
        public var credentials: SandboxCredentials.GitHub
    }

    public struct Twitter: Sendable {
        /// Stand-in for `https://api.twitter.com`; sign requests with the URL actually called.
        public var apiBaseURL: String
        public var verifyCredentialsURL: String
        public var credentials: SandboxCredentials.Twitter
    }

    public struct Yahoo: Sendable {
        /// Stand-in for `https://api.login.yahoo.com`.
        public var baseURL: String
        /// `https://api.login.yahoo.com` (tokens carry the real issuer).
        public var issuer: String
        /// `<baseURL>/.well-known/openid-configuration`.
        public var discoveryURL: String
        /// `<baseURL>/openid/v1/certs`: EC P-256 keys (ES256).
        public var jwksURL: String
        /// `<baseURL>/oauth2/request_auth`.
        public var authorizationURL: String
        /// `<baseURL>/oauth2/get_token`.
        public var tokenURL: String
        /// `<baseURL>/openid/v1/userinfo`.
        public var userInfoURL: String
        public var credentials: SandboxCredentials.Yahoo
    }

    public struct OIDC: Sendable {
        /// The name in `oidc.<name>`.
        public var name: String
        public var issuer: String
        /// `<issuer>/.well-known/openid-configuration`.
        public var discoveryURL: String
        public var jwksURL: String
        public var client: SandboxCredentials.OIDCClient
    }

    public var apple: Apple
    public var microsoft: Microsoft
    public var google: Google
    public var facebook: Facebook
    public var github: GitHub
    public var twitter: Twitter
    public var yahoo: Yahoo
    /// Generic OIDC issuers by name.
    public var oidc: [String: OIDC]

    /// The endpoints as flat `provider.setting` → value pairs (URLs, issuers, ids and secrets), e.g.
    /// `apple.jwksURL`, `google.clientIDs`, `oidc.sandbox.issuer`; lists are comma-separated.
    public var flattened: [String: String] {
        var values: [String: String] = [
            "apple.baseURL": apple.baseURL, "apple.issuer": apple.issuer, "apple.jwksURL": apple.jwksURL,
            "apple.tokenURL": apple.tokenURL, "apple.revokeURL": apple.revokeURL,
            "apple.discoveryURL": apple.discoveryURL, "apple.teamID": apple.credentials.teamID,
            "apple.servicesID": apple.credentials.servicesID,
            "apple.bundleIDs": apple.credentials.bundleIDs.joined(separator: ","),
            "apple.keyID": apple.credentials.keyID, "apple.privateKeyPEM": apple.credentials.privateKeyPEM,
            "microsoft.loginBaseURL": microsoft.loginBaseURL, "microsoft.issuerTemplate": microsoft.issuerTemplate,
            "microsoft.tenant": microsoft.tenant, "microsoft.jwksURL": microsoft.jwksURL,
            "microsoft.discoveryURL": microsoft.discoveryURL, "microsoft.clientID": microsoft.credentials.clientID,
            "microsoft.clientSecret": microsoft.credentials.clientSecret,
            "google.baseURL": google.baseURL, "google.issuers": google.issuers.joined(separator: ","),
            "google.jwksURL": google.jwksURL, "google.tokenInfoURL": google.tokenInfoURL,
            "google.userInfoURL": google.userInfoURL, "google.discoveryURL": google.discoveryURL,
            "google.clientIDs": google.credentials.clientIDs.joined(separator: ","),
            "google.webClientID": google.credentials.webClientID,
            "google.webClientSecret": google.credentials.webClientSecret,
            "facebook.graphBaseURL": facebook.graphBaseURL, "facebook.limitedLoginIssuer": facebook.limitedLoginIssuer,
            "facebook.limitedLoginJWKSURL": facebook.limitedLoginJWKSURL, "facebook.appID": facebook.credentials.appID,
            "facebook.appSecret": facebook.credentials.appSecret,
            "github.apiBaseURL": github.apiBaseURL, "github.clientID": github.credentials.clientID,
            "github.clientSecret": github.credentials.clientSecret,
            "twitter.apiBaseURL": twitter.apiBaseURL, "twitter.consumerKey": twitter.credentials.consumerKey,
            "twitter.consumerSecret": twitter.credentials.consumerSecret,
            "yahoo.baseURL": yahoo.baseURL, "yahoo.issuer": yahoo.issuer, "yahoo.discoveryURL": yahoo.discoveryURL,
            "yahoo.jwksURL": yahoo.jwksURL, "yahoo.authorizationURL": yahoo.authorizationURL,
            "yahoo.tokenURL": yahoo.tokenURL, "yahoo.userInfoURL": yahoo.userInfoURL,
            "yahoo.clientID": yahoo.credentials.clientID, "yahoo.clientSecret": yahoo.credentials.clientSecret,
        ]
        for (name, issuer) in oidc {
            values["oidc.\(name).issuer"] = issuer.issuer
            values["oidc.\(name).discoveryURL"] = issuer.discoveryURL
            values["oidc.\(name).jwksURL"] = issuer.jwksURL
            values["oidc.\(name).clientID"] = issuer.client.clientID
            values["oidc.\(name).clientSecret"] = issuer.client.clientSecret
        }
        return values
    }
}
