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

        // Browser sign-in (the web code flow through /__/auth/handler). The client secret Apple's token
        // endpoint wants is an ES256 JWT Hearth signs itself with the key below and renews before it expires.

        /// The 10-character Team ID (`iss` of the client secret).
        public var teamID: String = ""
        /// The 10-character Key ID of the `.p8` key (`kid` of the client secret).
        public var keyID: String = ""
        /// The `.p8` private key (PKCS#8 PEM of a P-256 key). Never printed.
        public var privateKey: ProviderSecret = ""
        /// How long each client secret Hearth signs is valid; Apple accepts at most 15 777 000 s (about six
        /// months). Hearth signs a new one when less than a tenth of this is left.
        public var clientSecretLifetime: TimeInterval = 180 * 86_400
        /// Apple's authorization page.
        public var authorizationURL: URL = Apple.defaultAuthorizationURL
        /// Apple's token endpoint (code exchange).
        public var tokenURL: URL = Apple.defaultTokenURL
        /// Apple's revoke endpoint (`accounts:revokeToken`).
        public var revokeURL: URL = Apple.defaultRevokeURL
        /// The real default of ``authorizationURL``: `https://appleid.apple.com/auth/authorize`.
        public static let defaultAuthorizationURL = URL.providerDefault("https://appleid.apple.com/auth/authorize")
        /// The real default of ``tokenURL``: `https://appleid.apple.com/auth/token`.
        public static let defaultTokenURL = URL.providerDefault("https://appleid.apple.com/auth/token")

        /// The real default of ``revokeURL``: `https://appleid.apple.com/auth/revoke`.
        public static let defaultRevokeURL = URL.providerDefault("https://appleid.apple.com/auth/revoke")

        /// The `client_id` of the browser flow: the first Services ID.
        public var webClientID: String? { serviceIDs.first }

        /// Whether Hearth can sign client secrets: the team ID, key ID and `.p8` key (the browser flow and
        /// `accounts:revokeToken` need them).
        public var signsClientSecrets: Bool { !teamID.isEmpty && !keyID.isEmpty && !privateKey.isEmpty }

        /// Whether the browser flow can run: switched on, a Services ID, and the key to sign client secrets.
        public var supportsBrowserSignIn: Bool {
            isUsable && webClientID != nil && !teamID.isEmpty && !keyID.isEmpty && !privateKey.isEmpty
        }

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
            "Apple(enabled: \(enabled), bundleIDs: \(bundleIDs), serviceIDs: \(serviceIDs), issuers: \(issuers), jwksURL: \(jwksURL), "
                + "teamID: \(teamID), keyID: \(keyID), privateKey: \(privateKey), clientSecretLifetime: \(clientSecretLifetime)s, "
                + "authorizationURL: \(authorizationURL), tokenURL: \(tokenURL), revokeURL: \(revokeURL))"
        }
    }
}

extension ProvidersConfiguration.Apple: ProviderSettings {
    public static var providerID: String { "apple.com" }
    public static var defaults: Self { Self() }
}

extension ProvidersConfiguration {
    /// Sign in with Apple (`apple.com`).
    public var apple: Apple {
        get { self[Apple.self] }
        set { self[Apple.self] = newValue }
    }
}
