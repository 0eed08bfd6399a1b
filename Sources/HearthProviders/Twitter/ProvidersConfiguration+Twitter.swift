import Foundation

extension ProvidersConfiguration {
    /// Twitter / X with OAuth 1.0a (`twitter.com`): the user's token and secret are proven by a signed
    /// `account/verify_credentials` call made with the app's consumer key and secret.
    public struct Twitter: Sendable, Equatable, CustomStringConvertible {
        /// The real default of ``apiBaseURL``: `https://api.twitter.com`.
        public static let defaultAPIBaseURL = URL.providerDefault("https://api.twitter.com")

        /// Whether `twitter.com` sign-in is accepted.
        public var enabled: Bool
        /// The app's API key (`oauth_consumer_key`).
        public var consumerKey: String
        /// The app's API key secret. Never printed.
        public var consumerSecret: ProviderSecret
        /// The API host; calls go to `<apiBaseURL>/1.1/account/verify_credentials.json`. The OAuth 1.0a
        /// signature covers this URL, so a stand-in must verify against the URL it is reached at.
        public var apiBaseURL: URL

        /// Every parameter defaults to the provider's real value; the provider stays off until `enabled` is set.
        public init(
            enabled: Bool = false, consumerKey: String = "", consumerSecret: ProviderSecret = "",
            apiBaseURL: URL = Twitter.defaultAPIBaseURL
        ) {
            self.enabled = enabled
            self.consumerKey = consumerKey
            self.consumerSecret = consumerSecret
            self.apiBaseURL = apiBaseURL
        }

        /// The profile endpoint.
        public var verifyCredentialsURL: URL { apiBaseURL.appendingProviderPath("/1.1/account/verify_credentials.json") }
        /// Browser sign-in, step 1: `POST /oauth/request_token`.
        public var requestTokenURL: URL { apiBaseURL.appendingProviderPath("/oauth/request_token") }
        /// Browser sign-in, step 2: the page the person approves on, `GET /oauth/authenticate`.
        public var authenticateURL: URL { apiBaseURL.appendingProviderPath("/oauth/authenticate") }
        /// Browser sign-in, step 3: `POST /oauth/access_token`.
        public var accessTokenURL: URL { apiBaseURL.appendingProviderPath("/oauth/access_token") }

        /// Switched on, with a consumer key and secret.
        public var isUsable: Bool { enabled && !consumerKey.isEmpty && !consumerSecret.isEmpty }

        /// The settings, with secrets shown as `<redacted>` (or `<unset>`).
        public var description: String {
            "Twitter(enabled: \(enabled), consumerKey: \(consumerKey), consumerSecret: \(consumerSecret), apiBaseURL: \(apiBaseURL))"
        }
    }
}

extension ProvidersConfiguration.Twitter: ProviderSettings {
    public static var providerID: String { "twitter.com" }
    public static var defaults: Self { Self() }
}

extension ProvidersConfiguration {
    /// Twitter / X, OAuth 1.0a (`twitter.com`).
    public var twitter: Twitter {
        get { self[Twitter.self] }
        set { self[Twitter.self] = newValue }
    }
}
