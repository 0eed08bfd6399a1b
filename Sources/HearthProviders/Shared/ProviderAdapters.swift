/// The adapters of one provider: how it accepts ID tokens and access tokens (either may be absent).
struct ProviderAdapters: Sendable {
    var idToken: (any IDTokenVerifier)?
    var accessToken: (any AccessTokenVerifier)?
}
