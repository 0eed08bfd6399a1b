import Foundation
import Hummingbird
import Logging
import Synchronization

/// Offline stand-ins for the identity providers Hearth verifies credentials with: Apple, Microsoft, Google,
/// Facebook (Graph and Limited Login), GitHub, Twitter (OAuth 1.0a), Yahoo and generic OpenID Connect issuers.
///
/// The sandbox serves each provider's real paths under a per-provider prefix (``SandboxProvider/pathPrefix``),
/// answers in the provider's own formats, and signs with its own fresh keys (RSA 2048; P-256 for Yahoo's ES256). Tests and Hearth's
/// development mode point the provider URLs at it (see ``endpoints()``) and mint credentials with the
/// `…IDToken` / `…AccessToken` methods.
///
/// Mount it on a router, then tell it where it is reachable:
/// ```swift
/// let sandbox = Sandbox(baseURL: "http://127.0.0.1:8080/sandbox")
/// sandbox.addRoutes(to: router.group("/sandbox"))
/// let endpoints = sandbox.endpoints()   // URLs and credentials to configure Hearth with
/// let token = try sandbox.googleIDToken(for: .googleGmail)
/// ```
///
/// Besides the endpoints that verify credentials (JWKS, discovery, Apple's token and revoke endpoints, Google
/// tokeninfo/userinfo, Facebook debug_token and `/me`, GitHub `/user`, `/user/emails` and the token check, Twitter
/// verify_credentials, Yahoo userinfo), every provider has its browser-facing consent page and code exchange
/// (``AuthorizationRoutes``; Twitter's OAuth 1.0a ``TwitterOAuthRoutes``), so a relying party can run the real
/// redirect flows. Tests can also mint credentials directly, as a native SDK would hand them over.
///
/// All state (keys, issued tokens, used nonces, fetch counters) lives in the instance and is thread-safe.
public final class Sandbox: Sendable {
    /// The relying-party credentials the sandbox expects.
    public let credentials: SandboxCredentials
    public let settings: SandboxSettings
    let clock: @Sendable () -> Date
    let logger: Logger
    let state: Mutex<SandboxState>

    /// - Parameters:
    ///   - baseURL: where the sandbox's routes are reachable, including any mount prefix, without a trailing
    ///     slash (e.g. `http://127.0.0.1:8080/sandbox`). Used in discovery documents, generic OIDC issuers and as
    ///     the fallback origin of the OAuth 1.0a base string. Change it later with ``baseURL``.
    ///   - identities: accounts the sandbox knows from the start.
    ///   - credentials: the apps registered with each provider; fresh random ones by default.
    ///   - clock: the time the sandbox issues and checks tokens at.
    public init(
        baseURL: String = "http://127.0.0.1:8080/sandbox", identities: [SandboxIdentity] = SandboxIdentity.presets,
        credentials: SandboxCredentials = .generate(), settings: SandboxSettings = SandboxSettings(),
        clock: @escaping @Sendable () -> Date = { Date() }, logger: Logger = Logger(label: "hearth.sandbox")
    ) {
        self.credentials = credentials
        self.settings = settings
        self.clock = clock
        self.logger = logger
        var initial = SandboxState(baseURL: Self.trimmed(baseURL), oidcClients: credentials.oidc)
        for identity in identities { initial.remember(identity) }
        state = Mutex(initial)
    }

    /// Where the sandbox's routes are reachable (see ``init(baseURL:identities:credentials:settings:clock:logger:)``).
    /// Set it once the port is known, e.g. inside `app.test(.live)`.
    public var baseURL: String {
        get { state.withLock { $0.baseURL } }
        set { state.withLock { $0.baseURL = Self.trimmed(newValue) } }
    }

    var now: Date { clock() }

    /// Runs `body` with exclusive access to the sandbox's state.
    func withState<T: Sendable, E: Error>(_ body: (inout SandboxState) throws(E) -> T) throws(E) -> T {
        try state.withLock { (state: inout SandboxState) throws(E) -> T in try body(&state) }
    }

    private static func trimmed(_ url: String) -> String {
        url.hasSuffix("/") ? String(url.dropLast()) : url
    }

    // MARK: Identities

    /// The known accounts of `provider`, ready-made ones first.
    public func identities(for provider: SandboxProvider) -> [SandboxIdentity] {
        state.withLock { $0.identities.filter { $0.provider == provider } }
    }

    /// Adds an account, or replaces the one with the same provider and subject.
    public func add(_ identity: SandboxIdentity) {
        state.withLock { $0.remember(identity) }
    }

    /// The account of `provider` with this subject.
    public func identity(_ provider: SandboxProvider, subject: String) -> SandboxIdentity? {
        state.withLock { $0.identities.first { $0.provider == provider && $0.subject == subject } }
    }

    // MARK: Keys

    /// Makes a new key (of the provider's kind) the one that signs `provider`'s tokens and returns its `kid`. With `keepPrevious`
    /// (the default, as real providers do) the old keys stay in the JWKS; otherwise they disappear from it and
    /// tokens signed with them no longer verify.
    @discardableResult
    public func rotateKeys(_ provider: SandboxProvider, keepPrevious: Bool = true) throws -> String {
        try state.withLock { state in
            var set = try state.keySet(for: provider)
            let key = try set.rotate(keepPrevious: keepPrevious)
            state.keySets[provider] = set
            return key.kid
        }
    }

    /// Rotates the keys of every provider that has signed something so far.
    public func rotateAllKeys(keepPrevious: Bool = true) throws {
        let providers = state.withLock { Array($0.keySets.keys) }
        for provider in providers { try rotateKeys(provider, keepPrevious: keepPrevious) }
    }

    /// The `kid`s in `provider`'s JWKS, the signing key first.
    public func publishedKeyIDs(_ provider: SandboxProvider) throws -> [String] {
        try state.withLock { try $0.keySet(for: provider).published.map(\.kid) }
    }

    /// `provider`'s JWKS document as served.
    public func jwks(_ provider: SandboxProvider) throws -> SandboxJSON {
        try state.withLock { try $0.keySet(for: provider).jwks() }
    }

    /// How many times `provider`'s JWKS was fetched over HTTP (Microsoft: all tenants together).
    public func jwksFetchCount(_ provider: SandboxProvider) -> Int {
        state.withLock { $0.jwksFetches[provider] ?? 0 }
    }

    /// How many times `provider`'s discovery document was fetched over HTTP.
    public func discoveryFetchCount(_ provider: SandboxProvider) -> Int {
        state.withLock { $0.discoveryFetches[provider] ?? 0 }
    }

    /// Sets all fetch counters back to zero.
    public func resetFetchCounts() {
        state.withLock {
            $0.jwksFetches = [:]
            $0.discoveryFetches = [:]
        }
    }

    /// Serves `provider`'s JWKS, counting the fetch.
    func servedJWKS(_ provider: SandboxProvider) throws -> SandboxJSON {
        try state.withLock { state in
            state.jwksFetches[provider, default: 0] += 1
            return try state.keySet(for: provider).jwks()
        }
    }

    func countDiscoveryFetch(_ provider: SandboxProvider) {
        state.withLock { $0.discoveryFetches[provider, default: 0] += 1 }
    }

    // MARK: Generic OIDC issuers

    /// Registers a generic OIDC issuer `name` (served under `oidc/<name>/`) and returns its client, creating a
    /// random one unless the issuer exists already.
    @discardableResult
    public func addOIDCIssuer(name: String, client: SandboxCredentials.OIDCClient? = nil) -> SandboxCredentials.OIDCClient {
        state.withLock { state in
            if let client {
                state.oidcClients[name] = client
                return client
            }
            if let existing = state.oidcClients[name] { return existing }
            let created = SandboxCredentials.OIDCClient.generate()
            state.oidcClients[name] = created
            return created
        }
    }

    /// The client registered at the generic OIDC issuer `name`.
    public func oidcClient(_ name: String) -> SandboxCredentials.OIDCClient? {
        state.withLock { $0.oidcClients[name] }
    }

    /// The `iss` of the generic OIDC issuer `name`: `<baseURL>/oidc/<name>`.
    public func oidcIssuer(_ name: String) -> String {
        "\(baseURL)/\(SandboxProvider.oidc(name).pathPrefix)"
    }

    // MARK: Microsoft tenants

    /// Registers a Microsoft tenant so its discovery and key URLs answer (tenants of added identities are
    /// registered automatically).
    public func addMicrosoftTenant(_ tenant: SandboxMicrosoftTenant) {
        state.withLock { state in
            state.microsoftTenants.removeAll { $0.id.lowercased() == tenant.id.lowercased() }
            state.microsoftTenants.append(tenant)
        }
    }

    // MARK: Revocation

    /// Makes an access token (Google, Facebook, GitHub, Apple, Yahoo, …) or Twitter OAuth token unusable from now on,
    /// as if the user removed the app.
    public func revoke(token: String) {
        state.withLock { state in
            state.accessTokens[token]?.revoked = true
            state.twitterTokens[token]?.revoked = true
            state.appleRefreshTokens[token]?.used = true
        }
    }

    /// The requests Apple's `/auth/revoke` accepted, oldest first.
    public func appleRevocations() -> [AppleRevocation] {
        state.withLock { $0.appleRevocations }
    }

    // MARK: Helpers for the provider files

    func require(_ identity: SandboxIdentity, is provider: SandboxProvider) throws {
        guard identity.provider == provider else { throw SandboxError.wrongProvider(expected: provider, got: identity.provider) }
    }

    /// Records an opaque access token.
    func issueAccessToken(
        _ token: String, provider: SandboxProvider, identity: SandboxIdentity, clientID: String, scopes: [String],
        expiresIn: TimeInterval?
    ) -> String {
        let issuedAt = now
        state.withLock { state in
            state.remember(identity)
            state.accessTokens[token] = IssuedAccessToken(
                provider: provider, identity: identity, clientID: clientID, scopes: scopes, issuedAt: issuedAt,
                expiresAt: expiresIn.map { issuedAt.addingTimeInterval($0) })
        }
        return token
    }

    /// The access token if the sandbox issued it for `provider` (expired and revoked ones included).
    func accessToken(_ token: String, provider: SandboxProvider) -> IssuedAccessToken? {
        state.withLock { state in
            guard let issued = state.accessTokens[token], issued.provider == provider else { return nil }
            return issued
        }
    }

    /// Unix seconds.
    static func seconds(_ date: Date) -> Int { wholeSeconds(date.timeIntervalSince1970.rounded(.down)) }

    /// A duration in whole seconds, clamped to ±10¹¹ so that absurd test inputs cannot trap.
    static func wholeSeconds(_ interval: TimeInterval) -> Int {
        guard interval.isFinite else { return interval > 0 ? 100_000_000_000 : -100_000_000_000 }
        return Int(min(max(interval.rounded(), -100_000_000_000), 100_000_000_000))
    }
}
