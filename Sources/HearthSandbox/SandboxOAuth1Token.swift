/// An OAuth 1.0a access token and its secret, as Twitter's `/oauth/access_token` returns them.
public struct SandboxOAuth1Token: Sendable, Hashable {
    /// `oauth_token`, e.g. `1457823950123456789-…` (the user id, a dash, random characters).
    public var token: String
    /// `oauth_token_secret`.
    public var secret: String

    public init(token: String, secret: String) {
        self.token = token
        self.secret = secret
    }
}
