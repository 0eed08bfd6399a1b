import Foundation

extension ProvidersConfiguration {
    /// One generic OpenID Connect provider (`oidc.<name>`): ID tokens checked against the keys named by the
    /// issuer's discovery document.
    public struct OIDC: Sendable, Equatable, CustomStringConvertible {
        /// Whether this provider is accepted.
        public var enabled: Bool
        /// The issuer; a token's `iss` and the discovery document's `issuer` must equal it exactly.
        public var issuer: String
        /// Client ids; the token's `aud` must contain one of them.
        public var clientIDs: [String]
        /// Where the discovery document is; default `<issuer>/.well-known/openid-configuration`.
        public var discoveryURL: URL?
        /// Signing algorithms accepted (further narrowed to what the discovery document lists).
        public var algorithms: [IDTokenAlgorithm]
        /// Browser sign-in: the client secret of the first client id, for the code exchange at the discovery
        /// document's `token_endpoint`. Never printed.
        public var clientSecret: ProviderSecret = ""

        /// Whether the browser flow can run: usable and a client secret.
        public var supportsBrowserSignIn: Bool { isUsable && !clientSecret.isEmpty }

        /// One provider: its issuer and client ids; discovery at `<issuer>/.well-known/openid-configuration` unless given.
        public init(
            enabled: Bool = true, issuer: String, clientIDs: [String], discoveryURL: URL? = nil,
            algorithms: [IDTokenAlgorithm] = [.rs256, .es256]
        ) {
            self.enabled = enabled
            self.issuer = issuer
            self.clientIDs = clientIDs
            self.discoveryURL = discoveryURL
            self.algorithms = algorithms
        }

        /// The configured discovery URL, or the one OpenID Connect Discovery derives from the issuer.
        public var resolvedDiscoveryURL: URL? {
            if let discoveryURL { return discoveryURL }
            var base = issuer
            while base.hasSuffix("/") { base.removeLast() }
            return URL(string: base + "/.well-known/openid-configuration")
        }

        /// Switched on, with an issuer, a client id and a usable discovery URL.
        public var isUsable: Bool { enabled && !issuer.isEmpty && !clientIDs.isEmpty && resolvedDiscoveryURL != nil }

        /// The settings, with secrets shown as `<redacted>` (or `<unset>`).
        public var description: String {
            "OIDC(enabled: \(enabled), issuer: \(issuer), clientIDs: \(clientIDs), "
                + "discoveryURL: \(resolvedDiscoveryURL?.absoluteString ?? "invalid"), algorithms: \(algorithms.map(\.rawValue)), "
                + "clientSecret: \(clientSecret))"
        }
    }
}
