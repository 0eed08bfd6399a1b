import Foundation

extension ProvidersConfiguration {
    /// Sign in with Apple (`apple.com`): RS256 ID tokens checked against Apple's published keys.
    public struct Apple: Sendable, Equatable, CustomStringConvertible {
        /// The real default of ``jwksURL``: `https://appleid.apple.com/auth/keys`.
        public static let defaultJWKSURL = URL.providerDefault("https://appleid.apple.com/auth/keys")

        /// Whether `apple.com` sign-in is accepted.
        public var enabled: Bool
        /// App (bundle) ids of the native apps; accepted as the token's `aud`.
        public var bundleIDs: [String]
        /// Services ids of the web clients; accepted as the token's `aud`.
        public var serviceIDs: [String]
        /// Accepted `iss` values. Apple documents `https://appleid.apple.com`; tokens with
        /// `https://account.apple.com` have been observed since 2025, so both are accepted by default.
        public var issuers: [String]
        /// Apple's JWKS.
        public var jwksURL: URL

        /// Every parameter defaults to the provider's real value; the provider stays off until `enabled` is set.
        public init(
            enabled: Bool = false, bundleIDs: [String] = [], serviceIDs: [String] = [],
            issuers: [String] = ["https://appleid.apple.com", "https://account.apple.com"],
            jwksURL: URL = Apple.defaultJWKSURL
        ) {
            self.enabled = enabled
            self.bundleIDs = bundleIDs
            self.serviceIDs = serviceIDs
            self.issuers = issuers
            self.jwksURL = jwksURL
        }

        /// Every accepted audience: bundle ids and services ids.
        public var audiences: [String] { bundleIDs + serviceIDs }

        /// Switched on and with at least one audience.
        public var isUsable: Bool { enabled && !audiences.isEmpty }

        /// The settings, with secrets shown as `<redacted>` (or `<unset>`).
        public var description: String {
            "Apple(enabled: \(enabled), bundleIDs: \(bundleIDs), serviceIDs: \(serviceIDs), issuers: \(issuers), jwksURL: \(jwksURL))"
        }
    }
}
