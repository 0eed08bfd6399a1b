import Foundation

extension ProvidersConfiguration {
    /// GitHub (`github.com`): the access token reads `/user` and `/user/emails`.
    public struct GitHub: Sendable, Equatable, CustomStringConvertible {
        /// The real default of ``apiBaseURL``: `https://api.github.com`.
        public static let defaultAPIBaseURL = URL.providerDefault("https://api.github.com")

        /// Whether `github.com` sign-in is accepted.
        public var enabled: Bool
        /// The REST API root (`https://api.github.com`; GitHub Enterprise: `https://<host>/api/v3`).
        public var apiBaseURL: URL
        /// Optional OAuth app client id. With ``clientSecret`` set too, every token is first checked with
        /// `POST /applications/{client_id}/token`, which proves it was issued to this app (GitHub access
        /// tokens carry no audience otherwise).
        public var clientID: String?
        /// Optional OAuth app client secret for the token check. Never printed.
        public var clientSecret: ProviderSecret?

        /// Browser sign-in: GitHub's authorization page (needs ``clientID`` and ``clientSecret``).
        public var authorizationURL: URL = URL.providerDefault("https://github.com/login/oauth/authorize")
        /// Browser sign-in: GitHub's code exchange.
        public var tokenURL: URL = URL.providerDefault("https://github.com/login/oauth/access_token")

        /// Whether the browser flow can run: switched on, the OAuth app's client id and secret.
        public var supportsBrowserSignIn: Bool {
            enabled && !(clientID ?? "").isEmpty && !(clientSecret?.isEmpty ?? true)
        }

        /// Every parameter defaults to the provider's real value; the provider stays off until `enabled` is set.
        public init(
            enabled: Bool = false, apiBaseURL: URL = GitHub.defaultAPIBaseURL, clientID: String? = nil,
            clientSecret: ProviderSecret? = nil
        ) {
            self.enabled = enabled
            self.apiBaseURL = apiBaseURL
            self.clientID = clientID
            self.clientSecret = clientSecret
        }

        /// Switched on.
        public var isUsable: Bool { enabled }

        /// The settings, with secrets shown as `<redacted>` (or `<unset>`).
        public var description: String {
            "GitHub(enabled: \(enabled), apiBaseURL: \(apiBaseURL), clientID: \(clientID ?? "none"), "
                + "clientSecret: \(clientSecret.map(String.init(describing:)) ?? "none"), authorizationURL: \(authorizationURL), "
                + "tokenURL: \(tokenURL))"
        }
    }
}

extension ProvidersConfiguration.GitHub: ProviderSettings {
    public static var providerID: String { "github.com" }
    public static var defaults: Self { Self() }
}

extension ProvidersConfiguration {
    /// GitHub OAuth apps (`github.com`).
    public var gitHub: GitHub {
        get { self[GitHub.self] }
        set { self[GitHub.self] = newValue }
    }
}
