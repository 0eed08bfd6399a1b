import Foundation

extension ProvidersConfiguration {
    /// Google (`google.com`): RS256 ID tokens, or access tokens checked with `tokeninfo` then read with `userinfo`.
    public struct Google: Sendable, Equatable, CustomStringConvertible {
        /// The real default of ``jwksURL``: `https://www.googleapis.com/oauth2/v3/certs`.
        public static let defaultJWKSURL = URL.providerDefault("https://www.googleapis.com/oauth2/v3/certs")
        /// The real default of ``userinfoURL``: `https://openidconnect.googleapis.com/v1/userinfo`.
        public static let defaultUserinfoURL = URL.providerDefault("https://openidconnect.googleapis.com/v1/userinfo")
        /// The real default of ``tokeninfoURL``: `https://oauth2.googleapis.com/tokeninfo`.
        public static let defaultTokeninfoURL = URL.providerDefault("https://oauth2.googleapis.com/tokeninfo")

        /// Whether `google.com` sign-in is accepted.
        public var enabled: Bool
        /// OAuth client ids of the project (web, Android, iOS); an ID token's `aud` and an access token's
        /// `aud`/`azp` must be one of them.
        public var clientIDs: [String]
        /// Accepted `iss` values: Google issues both forms.
        public var issuers: [String]
        /// Google's JWKS.
        public var jwksURL: URL
        /// The OpenID userinfo endpoint (profile of an access token).
        public var userinfoURL: URL
        /// The token-info endpoint (audience and expiry of an access token).
        public var tokeninfoURL: URL
        /// Whether a credential with only an access token is accepted.
        public var acceptsAccessTokens: Bool

        // Browser sign-in: the authorization-code flow with PKCE, as the web client (the first client id).

        /// The web client's secret, for the code exchange. Never printed.
        public var clientSecret: ProviderSecret = ""
        /// Google's authorization page.
        public var authorizationURL: URL = URL.providerDefault("https://accounts.google.com/o/oauth2/v2/auth")
        /// Google's token endpoint.
        public var tokenURL: URL = URL.providerDefault("https://oauth2.googleapis.com/token")

        /// Whether the browser flow can run: switched on, a web client id and its secret.
        public var supportsBrowserSignIn: Bool { isUsable && !clientSecret.isEmpty }

        /// Every parameter defaults to the provider's real value; the provider stays off until `enabled` is set.
        public init(
            enabled: Bool = false, clientIDs: [String] = [],
            issuers: [String] = ["https://accounts.google.com", "accounts.google.com"],
            jwksURL: URL = Google.defaultJWKSURL,
            userinfoURL: URL = Google.defaultUserinfoURL,
            tokeninfoURL: URL = Google.defaultTokeninfoURL,
            acceptsAccessTokens: Bool = true
        ) {
            self.enabled = enabled
            self.clientIDs = clientIDs
            self.issuers = issuers
            self.jwksURL = jwksURL
            self.userinfoURL = userinfoURL
            self.tokeninfoURL = tokeninfoURL
            self.acceptsAccessTokens = acceptsAccessTokens
        }

        /// Switched on, with at least one client id.
        public var isUsable: Bool { enabled && !clientIDs.isEmpty }

        /// The settings, with secrets shown as `<redacted>` (or `<unset>`).
        public var description: String {
            "Google(enabled: \(enabled), clientIDs: \(clientIDs), issuers: \(issuers), jwksURL: \(jwksURL), "
                + "userinfoURL: \(userinfoURL), tokeninfoURL: \(tokeninfoURL), acceptsAccessTokens: \(acceptsAccessTokens), "
                + "clientSecret: \(clientSecret), authorizationURL: \(authorizationURL), tokenURL: \(tokenURL))"
        }
    }
}

extension ProvidersConfiguration.Google: ProviderSettings {
    public static var providerID: String { "google.com" }
    public static var defaults: Self { Self() }
}

extension ProvidersConfiguration {
    /// Google (`google.com`).
    public var google: Google {
        get { self[Google.self] }
        set { self[Google.self] = newValue }
    }
}
