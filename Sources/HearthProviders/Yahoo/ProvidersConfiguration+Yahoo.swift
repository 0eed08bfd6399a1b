import Foundation

extension ProvidersConfiguration {
    /// Yahoo (`yahoo.com`), Firebase's built-in Yahoo provider: OpenID Connect at `https://api.login.yahoo.com`,
    /// ES256 ID tokens, endpoints from Yahoo's discovery document.
    public struct Yahoo: Sendable, Equatable, CustomStringConvertible {
        /// Yahoo's issuer: `https://api.login.yahoo.com`.
        public static let defaultIssuer = "https://api.login.yahoo.com"
        /// The real default of ``discoveryURL``.
        public static let defaultDiscoveryURL = URL.providerDefault("https://api.login.yahoo.com/.well-known/openid-configuration")

        /// Whether `yahoo.com` sign-in is accepted.
        public var enabled: Bool
        /// The app's client ids (Yahoo calls the first the Client ID); a token's `aud` must be one of them.
        public var clientIDs: [String]
        /// The client secret, for the browser flow's code exchange. Never printed.
        public var clientSecret: ProviderSecret
        /// The issuer; tokens' `iss` and the discovery document's `issuer` must equal it.
        public var issuer: String
        /// Yahoo's discovery document, which names the keys and the browser flow's endpoints.
        public var discoveryURL: URL

        /// Every parameter defaults to Yahoo's real value; the provider stays off until `enabled` is set.
        public init(
            enabled: Bool = false, clientIDs: [String] = [], clientSecret: ProviderSecret = "", issuer: String = Yahoo.defaultIssuer,
            discoveryURL: URL = Yahoo.defaultDiscoveryURL
        ) {
            self.enabled = enabled
            self.clientIDs = clientIDs
            self.clientSecret = clientSecret
            self.issuer = issuer
            self.discoveryURL = discoveryURL
        }

        /// Switched on, with a client id.
        public var isUsable: Bool { enabled && !clientIDs.isEmpty }

        /// Whether the browser flow can run: usable and a client secret.
        public var supportsBrowserSignIn: Bool { isUsable && !clientSecret.isEmpty }

        /// The OpenID Connect provider Yahoo is: ES256 only, as Yahoo signs.
        var openIDConnect: OIDC {
            var oidc = OIDC(enabled: enabled, issuer: issuer, clientIDs: clientIDs, discoveryURL: discoveryURL, algorithms: [.es256])
            oidc.clientSecret = clientSecret
            return oidc
        }

        /// The settings, with secrets shown as `<redacted>` (or `<unset>`).
        public var description: String {
            "Yahoo(enabled: \(enabled), clientIDs: \(clientIDs), issuer: \(issuer), discoveryURL: \(discoveryURL), clientSecret: \(clientSecret))"
        }
    }
}

extension ProvidersConfiguration.Yahoo: ProviderSettings {
    public static var providerID: String { "yahoo.com" }
    public static var defaults: Self { Self() }
}

extension ProvidersConfiguration {
    /// Yahoo, OpenID Connect (`yahoo.com`).
    public var yahoo: Yahoo {
        get { self[Yahoo.self] }
        set { self[Yahoo.self] = newValue }
    }
}
