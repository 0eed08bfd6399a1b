/// What a client hands over to prove an identity at a provider: the fields of `signInWithIdp`'s `postBody`.
public struct FederatedCredential: Sendable, Equatable {
    /// `google.com`, `apple.com`, `microsoft.com`, `twitter.com`, `facebook.com`, `github.com`, `oidc.<name>`.
    public var providerID: String
    /// An OpenID Connect ID token (Apple, Microsoft, Google, Facebook Limited Login, OIDC).
    public var idToken: String?
    /// An OAuth 2.0 access token, or Twitter's OAuth 1.0a access token.
    public var accessToken: String?
    /// Twitter's OAuth 1.0a token secret (`oauth_token_secret`).
    public var tokenSecret: String?
    /// The raw nonce whose SHA-256 (lower-case hex) the ID token carries.
    public var rawNonce: String?
    /// Apple's first-sign-in `user` JSON (`{"name":{"firstName":…,"lastName":…},"email":…}`).
    public var appleUser: String?

    public init(
        providerID: String, idToken: String? = nil, accessToken: String? = nil, tokenSecret: String? = nil,
        rawNonce: String? = nil, appleUser: String? = nil
    ) {
        self.providerID = providerID
        self.idToken = idToken
        self.accessToken = accessToken
        self.tokenSecret = tokenSecret
        self.rawNonce = rawNonce
        self.appleUser = appleUser
    }
}
