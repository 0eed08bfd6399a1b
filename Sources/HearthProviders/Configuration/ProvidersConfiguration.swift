import Foundation

/// Everything ``ProviderRegistry`` needs to know about the identity providers: which are switched on,
/// whose tokens they accept (client ids, audiences, tenants), the secrets for the providers that need one,
/// and every URL Hearth calls, each with the provider's real default so that tests and sandboxes can point
/// any of them at a local stand-in.
///
/// Secrets are ``ProviderSecret`` values; ``description`` and ``debugDescription`` never show them.
public struct ProvidersConfiguration: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// Each built-in provider's settings, by provider id; read and written through the typed accessor of its
    /// folder (`apple`, `yahoo`, …) or ``subscript(_:)``.
    var providerSettings: [String: any ProviderSettings] = [:]
    /// Generic OpenID Connect providers, keyed by the name after `oidc.` in the provider id.
    public var oidc: [String: OIDC]
    /// SAML 2.0 providers (the admin API's `inboundSamlConfigs`), keyed by the name after `saml.` in the provider id.
    public var saml: [String: SAML] = [:]
    /// Timeouts and limits of every outbound call.
    public var network: Network
    /// How fetched key sets and discovery documents are cached.
    public var keyCaching: KeyCaching
    /// Leeway for `exp`, `nbf` and `iat` against Hearth's clock, in seconds.
    public var clockSkew: TimeInterval
    /// The browser sign-in: redirect handler URL, accepted app return URLs, session lifetime.
    public var browserSignIn = BrowserSignIn()

    /// Every provider off, real endpoints, 60 s clock skew; see each nested type for its defaults.
    public init(
        apple: Apple = Apple(), microsoft: Microsoft = Microsoft(), twitter: Twitter = Twitter(), google: Google = Google(),
        facebook: Facebook = Facebook(), gitHub: GitHub = GitHub(), oidc: [String: OIDC] = [:], network: Network = Network(),
        keyCaching: KeyCaching = KeyCaching(), clockSkew: TimeInterval = 60
    ) {
        self.oidc = oidc
        self.network = network
        self.keyCaching = keyCaching
        self.clockSkew = clockSkew
        self.apple = apple
        self.microsoft = microsoft
        self.twitter = twitter
        self.google = google
        self.facebook = facebook
        self.gitHub = gitHub
    }

    public static func == (left: ProvidersConfiguration, right: ProvidersConfiguration) -> Bool {
        let ids = Set(left.providerSettings.keys).union(right.providerSettings.keys)
        let sameProviders = ids.allSatisfy { id in
            switch (left.providerSettings[id], right.providerSettings[id]) {
            case (let l?, let r?): l.isEqual(to: r)
            case (let l?, nil): l.isEqual(to: type(of: l).defaults)
            case (nil, let r?): r.isEqual(to: type(of: r).defaults)
            case (nil, nil): true
            }
        }
        return sameProviders && left.oidc == right.oidc && left.saml == right.saml && left.network == right.network
            && left.keyCaching == right.keyCaching
            && left.clockSkew == right.clockSkew && left.browserSignIn == right.browserSignIn
    }

    /// The settings, with secrets shown as `<redacted>` (or `<unset>`).
    public var description: String {
        let builtIn = ProviderCatalogue.all.compactMap { description -> String? in
            guard !description.isFamily else { return nil }
            return "\(description.settingsKey): \(description.settingsText(self))"
        }
        let oidcText =
            oidc.keys.sorted().map { "oidc.\($0): \(oidc[$0].map(String.init(describing:)) ?? "")" }
            + saml.keys.sorted().map { "saml.\($0): \(saml[$0].map(String.init(describing:)) ?? "")" }
        return "ProvidersConfiguration("
            + (builtIn + oidcText + [
                "network: \(network)", "keyCaching: \(keyCaching)", "clockSkew: \(clockSkew)s", "browserSignIn: \(browserSignIn)",
            ])
            .joined(separator: ", ") + ")"
    }

    /// Same as ``description``: secrets redacted.
    public var debugDescription: String { description }
}

extension ProvidersConfiguration {
    /// Timeouts and limits of the calls Hearth makes to providers.
    public struct Network: Sendable, Equatable, CustomStringConvertible {
        /// The longest a single provider call may take, connection included, in seconds. A provider that has
        /// not answered by then fails the sign-in with `INVALID_IDP_RESPONSE`.
        public var requestTimeout: TimeInterval
        /// The largest response body accepted from a provider, in bytes.
        public var maxResponseBytes: Int
        /// The `User-Agent` header sent with every call (GitHub rejects requests without one).
        public var userAgent: String

        /// Defaults: 10 s per call, 1 MiB per response, `User-Agent: Hearth`.
        public init(requestTimeout: TimeInterval = 10, maxResponseBytes: Int = 1 << 20, userAgent: String = "Hearth") {
            self.requestTimeout = requestTimeout
            self.maxResponseBytes = maxResponseBytes
            self.userAgent = userAgent
        }

        /// The settings, with secrets shown as `<redacted>` (or `<unset>`).
        public var description: String {
            "Network(requestTimeout: \(requestTimeout)s, maxResponseBytes: \(maxResponseBytes), userAgent: \(userAgent))"
        }
    }

    /// How JWKS key sets and OpenID discovery documents are cached.
    public struct KeyCaching: Sendable, Equatable, CustomStringConvertible {
        /// Lifetime of a fetched document whose response has no `Cache-Control: max-age`, in seconds.
        public var defaultMaxAge: TimeInterval
        /// Upper bound on any lifetime, whatever `max-age` the provider sends, in seconds.
        public var maximumMaxAge: TimeInterval
        /// The floor between two fetches of one key set, in seconds. A token whose `kid` is not in the cached
        /// set triggers a refetch (the provider may have rotated), but at most once per this interval, so a
        /// flood of tokens with made-up key ids cannot hammer the provider. Also the shortest lifetime.
        public var minimumRefetchInterval: TimeInterval

        /// Defaults: one hour without `max-age`, at most one day, at most one refetch per minute.
        public init(defaultMaxAge: TimeInterval = 3_600, maximumMaxAge: TimeInterval = 86_400, minimumRefetchInterval: TimeInterval = 60) {
            self.defaultMaxAge = defaultMaxAge
            self.maximumMaxAge = maximumMaxAge
            self.minimumRefetchInterval = minimumRefetchInterval
        }

        /// The settings, with secrets shown as `<redacted>` (or `<unset>`).
        public var description: String {
            "KeyCaching(defaultMaxAge: \(defaultMaxAge)s, maximumMaxAge: \(maximumMaxAge)s, minimumRefetchInterval: \(minimumRefetchInterval)s)"
        }
    }
}
