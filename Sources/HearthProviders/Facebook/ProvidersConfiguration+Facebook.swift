import Foundation

extension ProvidersConfiguration {
    /// Facebook (`facebook.com`): classic access tokens checked with Graph `debug_token` and read from
    /// `/me` with `appsecret_proof`; Limited Login ID tokens checked against Facebook's keys with a nonce.
    public struct Facebook: Sendable, Equatable, CustomStringConvertible {
        /// The real default of ``graphBaseURL``: `https://graph.facebook.com`.
        public static let defaultGraphBaseURL = URL.providerDefault("https://graph.facebook.com")
        /// The real default of ``limitedLoginJWKSURL``: `https://limited.facebook.com/.well-known/oauth/openid/jwks/`.
        public static let defaultLimitedLoginJWKSURL = URL.providerDefault("https://limited.facebook.com/.well-known/oauth/openid/jwks/")

        /// Whether `facebook.com` sign-in is accepted.
        public var enabled: Bool
        /// The app id: `debug_token`'s `app_id` and a Limited Login token's `aud` must equal it.
        public var appID: String
        /// The app secret, for the app access token and `appsecret_proof`. Never printed.
        public var appSecret: ProviderSecret
        /// The Graph API host.
        public var graphBaseURL: URL
        /// The Graph API version path segment (`v24.0`), or `nil` for unversioned paths.
        public var graphAPIVersion: String?
        /// Whether Limited Login ID tokens are accepted.
        public var limitedLoginEnabled: Bool
        /// Accepted `iss` values of Limited Login tokens.
        public var limitedLoginIssuers: [String]
        /// The Limited Login JWKS.
        public var limitedLoginJWKSURL: URL

        /// Browser sign-in: Facebook's login dialog (the code is exchanged at Graph `/oauth/access_token`
        /// with ``appSecret``).
        public var dialogURL: URL = URL.providerDefault("https://www.facebook.com/v24.0/dialog/oauth")

        /// Whether the browser flow can run: switched on, the app id and its secret.
        public var supportsBrowserSignIn: Bool { enabled && !appID.isEmpty && !appSecret.isEmpty }

        /// Every parameter defaults to the provider's real value; the provider stays off until `enabled` is set.
        public init(
            enabled: Bool = false, appID: String = "", appSecret: ProviderSecret = "",
            graphBaseURL: URL = Facebook.defaultGraphBaseURL, graphAPIVersion: String? = "v24.0",
            limitedLoginEnabled: Bool = true, limitedLoginIssuers: [String] = ["https://www.facebook.com"],
            limitedLoginJWKSURL: URL = Facebook.defaultLimitedLoginJWKSURL
        ) {
            self.enabled = enabled
            self.appID = appID
            self.appSecret = appSecret
            self.graphBaseURL = graphBaseURL
            self.graphAPIVersion = graphAPIVersion
            self.limitedLoginEnabled = limitedLoginEnabled
            self.limitedLoginIssuers = limitedLoginIssuers
            self.limitedLoginJWKSURL = limitedLoginJWKSURL
        }

        /// A Graph endpoint, with the version segment when one is configured.
        public func graphURL(_ path: String) -> URL {
            let versioned = graphAPIVersion.map { "/\($0)" + (path.hasPrefix("/") ? path : "/" + path) } ?? path
            return graphBaseURL.appendingProviderPath(versioned)
        }

        /// The photo URL Firebase reports for a user: `<graph>/<id>/picture`.
        public func pictureURL(forUserID id: String) -> String {
            graphBaseURL.appendingProviderPath("/\(id)/picture").absoluteString
        }

        /// Switched on, with an app id and secret (classic login needs both; Limited Login needs the id).
        public var isUsable: Bool { enabled && !appID.isEmpty && (!appSecret.isEmpty || limitedLoginEnabled) }

        /// The settings, with secrets shown as `<redacted>` (or `<unset>`).
        public var description: String {
            "Facebook(enabled: \(enabled), appID: \(appID), appSecret: \(appSecret), graphBaseURL: \(graphBaseURL), "
                + "graphAPIVersion: \(graphAPIVersion ?? "none"), limitedLoginEnabled: \(limitedLoginEnabled), "
                + "limitedLoginIssuers: \(limitedLoginIssuers), limitedLoginJWKSURL: \(limitedLoginJWKSURL), dialogURL: \(dialogURL))"
        }
    }
}

extension ProvidersConfiguration.Facebook: ProviderSettings {
    public static var providerID: String { "facebook.com" }
    public static var defaults: Self { Self() }
}

extension ProvidersConfiguration {
    /// Facebook classic login and Limited Login (`facebook.com`).
    public var facebook: Facebook {
        get { self[Facebook.self] }
        set { self[Facebook.self] = newValue }
    }
}
