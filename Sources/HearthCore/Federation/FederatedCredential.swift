/// What a client hands over to prove an identity at a provider: the fields of `signInWithIdp`'s `postBody`.
public struct FederatedCredential: Sendable, Equatable {
    /// The `postBody` (and browser-callback) names of the fields every provider shares; the others are
    /// ``providerFields``.
    public static let commonFieldNames: Set<String> = ["providerId", "id_token", "access_token", "oauth_token_secret", "nonce"]

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
    /// The other non-empty fields the client or the provider's callback handed over, by name (one
    /// provider sends a first-sign-in profile this way); the provider's folder in HearthProviders reads them.
    public var providerFields: [String: String]

    public init(
        providerID: String, idToken: String? = nil, accessToken: String? = nil, tokenSecret: String? = nil,
        rawNonce: String? = nil, providerFields: [String: String] = [:]
    ) {
        self.providerID = providerID
        self.idToken = idToken
        self.accessToken = accessToken
        self.tokenSecret = tokenSecret
        self.rawNonce = rawNonce
        self.providerFields = providerFields
    }

    /// The fields of `fields` that are not common ones and not empty: what ``providerFields`` keeps.
    public static func providerFields(of fields: [String: String]) -> [String: String] {
        fields.filter { !commonFieldNames.contains($0.key) && !$0.value.isEmpty }
    }
}
