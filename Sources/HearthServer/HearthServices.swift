import AsyncHTTPClient
import Foundation
import HearthConfiguration
import HearthCore
import HearthMessages
import HearthProviders
import HearthSMS
import HearthStorage
import HearthTelemetry
import HearthTokens
import Logging
import NIOPosix
import ServiceLifecycle

/// The parts a running server is made of, opened once and shared by controllers and background services.
public struct HearthServices: Sendable {
    public let configuration: ServerConfiguration
    public var store: any HearthStore { database }
    /// The same store as the SQL store it is (SQLite or PostgreSQL): its pools are reported by `/metrics` and the status
    /// page.
    public private(set) var database: SQLStore
    /// The tenant these services work in (`nil`: the project's own users): see ``scoped(to:)``.
    public private(set) var tenantID: String?
    public let keyRing: KeyRing
    public let tokens: TokenService
    /// Checks the custom tokens of `accounts:signInWithCustomToken`.
    public let customTokens: CustomTokenVerifier
    public let passwords: PasswordHasher
    /// Where every password hash and check runs: native and imported checks in separate lanes, imported hashes
    /// within a time budget (``PasswordHashing``).
    public let hashing: PasswordHashing
    /// Verifies identity-provider credentials for `signInWithIdp`.
    public private(set) var identityVerifier: any IdentityVerifier
    /// The configured providers with the settings stored through the admin API laid over them; `nil` when the
    /// verifier was given (a server with no providers).
    private(set) var administeredProviders: AdministeredProviders?
    /// Routes and providers given from outside (development mode's provider sandbox).
    public let extensions: [any ServerExtension]
    /// Where phone sign-in's codes go: the SMS queue when `sms.gateway` is set (and is not Twilio Verify, which sends
    /// them itself: ``externalPhoneVerification``), else the first extension's sender
    /// (development mode's outbox); `nil`: test numbers only.
    public var verificationCodeSender: (any VerificationCodeSending)? {
        if externalPhoneVerification != nil { return nil }
        guard smsGateway != nil else { return extensions.lazy.compactMap(\.verificationCodeSender).first }
        let (text, metrics) = (configuration.smsText, metrics)
        return QueuedCodeSender(
            store: store, render: { text.verification(code: $0, languageCode: $1) }, whatsappRegions: configuration.sms.whatsappRegions,
            signal: smsSignal, queued: { metrics.count(.smsQueued, $0, $1.rawValue) })
    }
    /// The providers at the server's final base URL (see ``serverDidBind(port:)``).
    private var providersAtBaseURL: (@Sendable (String) -> ProvidersConfiguration)?
    public let clock: WallClock
    public let logger: Logger
    /// The HTTP client of every call to an identity provider: the composition root's (`hearth serve`, the test kit).
    public let httpClient: HTTPClient
    /// What the server measures (and the tracer its spans go to), and the status page's recent requests.
    public let metrics: ServerMetrics
    /// How many password checks ran, and how many of them against the decoy hash.
    public let passwordChecks = PasswordCheckCounter()
    /// The project's sign-in settings: the configuration's with an administrator's overrides, cached briefly.
    public private(set) var projectSettings: ProjectSettingsSource
    /// The OpenID discovery documents, shared by the provider registry and the browser sign-in.
    public internal(set) var providerDiscovery = DiscoveryCache()
    /// The mails of the e-mail actions, built in or from `email.templatesDirectory`.
    let mailTemplates: MailTemplates
    /// Where queued mails go: the mail server of `email.smtp.url`; `nil` without one (development mode's
    /// outbox keeps them).
    public let mailTransport: (any MailTransport)?
    /// Wakes the delivery service when a mail is queued.
    let mailSignal = QueueSignal()
    /// Where queued SMS go: the gateway of `sms.gateway`; `nil` without one.
    public let smsGateway: (any SMSGateway)?
    /// Wakes the SMS delivery service when a message is queued.
    let smsSignal = QueueSignal()
    /// The app verification of `sendVerificationCode` (`sms.appVerification.*`); `nil`: none.
    public let appVerifier: (any AppVerifying)?
    /// Twilio Verify, when `sms.twilio.verifyServiceSID` is set: it sends and checks the codes.
    public let externalPhoneVerification: (any ExternalPhoneVerification)?
    /// Sends the spans to the collector of `tracing.otlpEndpoint`; `buildApplication` runs it. `nil` when tracing
    /// is off or the composition runs no exporter.
    public private(set) var traceExporter: (any Service)?
    /// The port the server listens on once it does (``serverDidBind(port:)``): with port 0 the configuration's is 0.
    private let boundPort = LockedBox<Int?>(nil)

    /// Where clients reach this server: `server.publicURL`, else the address it listens on (the bound port when
    /// the configuration asked for any free one).
    public var publicBaseURL: String {
        if let publicURL = configuration.publicURL { return publicURL }
        guard let port = boundPort.withLock({ $0 }) else { return configuration.baseURL }
        var bound = configuration
        bound.port = port
        return bound.baseURL
    }

    /// Hearth's redirect handler as providers and browsers reach it: `browserSignIn.handlerURL`, else ``publicBaseURL``'s
    /// `/__/auth/handler`; without a public URL, a server on port 0 (tests) uses the `authority` a client reached it at.
    public func browserSignInHandlerURL(authority: String?) -> URL {
        if let configured = configuration.providers.browserSignIn.handlerURL { return configured }
        let reached = configuration.publicURL == nil && configuration.port == 0 ? authority.flatMap { $0.isEmpty ? nil : "http://\($0)" } : nil
        return URL(string: (reached ?? publicBaseURL) + "/__/auth/handler") ?? URL(fileURLWithPath: "/__/auth/handler")
    }

    /// What a server is built on, chosen and made by its composition (`hearth serve`, the test kits: see
    /// HearthComposition): the store and where metrics and spans go.
    public struct Base: Sendable {
        /// Open, perhaps not migrated yet (``open(configuration:base:httpClient:clock:logger:identityVerifier:extensions:adjustProviders:)``
        /// migrates it).
        public var store: SQLStore
        public var telemetry: Telemetry
        /// Sends the spans to the collector of `tracing.otlpEndpoint` (``TraceExport``); `buildApplication` runs it.
        public var traceExporter: (any Service)?

        public init(store: SQLStore, telemetry: Telemetry, traceExporter: (any Service)? = nil) {
            self.store = store
            self.telemetry = telemetry
            self.traceExporter = traceExporter
        }
    }

    /// Builds the server on `base`: applies pending migrations, checks that the key-encryption key opens the stored
    /// secrets (sealing those an earlier version left in plain text), reads the providers' stored settings, and
    /// loads or creates the signing keys. Closes the store when it fails.
    ///
    /// - Parameters:
    ///   - extensions: routes and providers from outside (development mode's sandbox); each replaces the
    ///     providers in turn. With port 0 the server's URL is known only once it listens:
    ///     ``serverDidBind(port:)`` asks them again then.
    ///   - adjustProviders: a last change to the providers once the extensions' are known (tests use it to
    ///     set, say, Microsoft's allowed tenants on the sandbox's Microsoft).
    public static func open(
        configuration: ServerConfiguration, base: Base, httpClient: HTTPClient, clock: WallClock = .system, logger: Logger,
        identityVerifier: (any IdentityVerifier)? = nil, extensions: [any ServerExtension] = [],
        adjustProviders: @escaping @Sendable (inout ProvidersConfiguration) -> Void = { _ in }
    ) async throws -> HearthServices {
        var configuration = configuration
        let configured = configuration.providers
        let providersAtBaseURL: @Sendable (String) -> ProvidersConfiguration = { baseURL in
            var providers = extensions.reduce(configured) { $1.providers(replacing: $0, baseURL: baseURL) }
            adjustProviders(&providers)
            return providers
        }
        configuration.providers = providersAtBaseURL(configuration.baseURL)
        let store = base.store
        let telemetry = base.telemetry
        do {
            try await store.migrate()
            let sealed = try await store.sealStoredSecrets()
            if sealed.total > 0 {
                logger.notice(
                    "Sealed secrets an earlier version stored in plain text",
                    metadata: ["signingKeys": "\(sealed.signingKeys)", "settings": "\(sealed.settings)"])
            }
            let discovery = DiscoveryCache()
            let administered = AdministeredProviders(base: configuration.providers, store: store) { providers in
                ProviderRegistry(
                    configuration: providers, httpClient: httpClient, clock: clock, logger: logger,
                    replayGuard: store, telemetry: telemetry, discovery: discovery)
            }
            try await administered.refresh()
            var services = try await open(
                configuration: configuration, store: store, httpClient: httpClient, clock: clock, logger: logger,
                identityVerifier: identityVerifier ?? administered, administeredProviders: administered,
                extensions: extensions, telemetry: telemetry)
            services.providersAtBaseURL = providersAtBaseURL
            services.providerDiscovery = discovery
            services.traceExporter = base.traceExporter
            return services
        } catch {
            try? await store.close()
            throw error
        }
    }

    /// A Prometheus registry of the server's own when `metrics.enabled`, else nothing; no spans.
    public static func defaultTelemetry(_ configuration: ServerConfiguration) -> Telemetry {
        configuration.metrics.enabled ? .prometheus() : .off
    }

    /// Builds the services on a store that is already open and migrated.
    /// `telemetry` defaults to ``defaultTelemetry(_:)``.
    public static func open(
        configuration: ServerConfiguration, store: SQLStore, httpClient: HTTPClient, clock: WallClock, logger: Logger,
        identityVerifier: any IdentityVerifier = NoIdentityProviders(), administeredProviders: AdministeredProviders? = nil,
        extensions: [any ServerExtension] = [], telemetry: Telemetry? = nil
    ) async throws -> HearthServices {
        let keyRing = KeyRing(
            store: store, clock: clock,
            configuration: .init(
                rotationPeriod: configuration.keyRotationPeriod, publishLead: configuration.keyPublishLead,
                tokenLifetime: configuration.idTokenLifetime),
            logger: logger, auditStore: store)
        try await keyRing.start()
        let tokens = TokenService(
            keyRing: keyRing,
            configuration: .init(
                projectID: configuration.projectID, issuer: configuration.resolvedIssuer, idTokenLifetime: configuration.idTokenLifetime),
            clock: clock)
        var signers: [CustomTokenVerifier.Signer] = []
        for path in configuration.customTokenKeyFiles {
            let pem = try String(contentsOfFile: path, encoding: .utf8)
            let accounts: [String?] = configuration.customTokenServiceAccounts.isEmpty ? [nil] : configuration.customTokenServiceAccounts
            for account in accounts { signers.append(try CustomTokenVerifier.Signer(publicKeyPEM: pem, serviceAccount: account)) }
        }
        let customTokens = CustomTokenVerifier(signers: signers, acceptsUnsigned: configuration.mode == .development)
        let mailTemplates = try MailTemplates(overrideDirectory: configuration.email.templatesDirectory.map { URL(fileURLWithPath: $0) })
        let mailTransport = try configuration.email.smtpURL.map { _ in try SMTPMailTransport(configuration: configuration, logger: logger) }
        let passwords = PasswordHasher(logN: configuration.scryptLogN)
        let hashing = try await PasswordHashing.measured(
            hasher: passwords, importedCostLimit: configuration.importedHashes.costLimit,
            importedConcurrency: configuration.importedHashes.concurrency ?? PasswordHashing.defaultImportedConcurrency,
            threads: BlockingPoolThreads(pool: .singleton))
        return HearthServices(
            configuration: configuration, database: store, keyRing: keyRing, tokens: tokens, customTokens: customTokens,
            passwords: passwords, hashing: hashing, identityVerifier: identityVerifier, administeredProviders: administeredProviders,
            extensions: extensions,
            clock: clock, logger: logger, httpClient: httpClient,
            metrics: ServerMetrics(telemetry: telemetry ?? defaultTelemetry(configuration), startedAt: clock.now, clock: clock),
            projectSettings: ProjectSettingsSource(configuration: configuration, store: store),
            mailTemplates: mailTemplates, mailTransport: mailTransport,
            smsGateway: configuration.sms.gateway?.queueGateway(httpClient: httpClient, clock: clock, timeout: configuration.sms.timeout),
            appVerifier: configuration.sms.appVerification.verifier(
                projectID: configuration.projectID, replayGuard: store, httpClient: httpClient, clock: clock),
            externalPhoneVerification: configuration.sms.gateway?.verification(
                whatsappRegions: configuration.sms.whatsappRegions, httpClient: httpClient, timeout: configuration.sms.timeout))
    }

    /// Called once the server listens. With port 0 and extensions, the server's URL becomes known only
    /// now: the extensions are asked for their providers again.
    public func serverDidBind(port: Int) {
        boundPort.withLock { $0 = port }
        guard configuration.port == 0, !extensions.isEmpty, let providersAtBaseURL else { return }
        var bound = configuration
        bound.port = port
        administeredProviders?.rebase(providersAtBaseURL(bound.baseURL))
    }

    /// The providers in effect: the configuration's (with the sandbox's in development, at its final URL), with the
    /// settings stored through the admin API laid over them.
    var providersInEffect: ProvidersConfiguration {
        administeredProviders?.providers ?? configuration.providers
    }

    /// These services in one tenant: a store that sees that tenant's rows alone and the tenant's sign-in settings.
    /// Everything built from them (use cases, controllers) works in the tenant, and the ID tokens they sign carry it.
    func scoped(to tenantID: String) -> HearthServices {
        var scoped = self
        scoped.database = database.scoped(toTenant: tenantID)
        scoped.projectSettings = ProjectSettingsSource(
            configuration: configuration, store: scoped.database, tenantID: tenantID, project: projectSettings)
        scoped.tenantID = tenantID
        // The tenant's providers: none until its administrator turns them on (its own settings, over the server's
        // endpoints and, in development, the sandbox's).
        if let administeredProviders {
            let tenantProviders = administeredProviders.reading(scoped.database, over: administeredProviders.base.switchedOff())
            scoped.administeredProviders = tenantProviders
            scoped.identityVerifier = tenantProviders
        }
        return scoped
    }

    /// Hashes a password on the blocking thread pool, never on an event loop.
    func hashPassword(_ password: String) async throws -> String {
        try await hashing.hash(password)
    }

    /// Verifies a password on the blocking thread pool, in the lane of its hash (``PasswordHashing``).
    func verifyPassword(_ password: String, against hash: String) async throws -> Bool {
        passwordChecks.count(decoy: false)
        return try await hashing.verify(password, against: hash)
    }
}

/// NIO's blocking pool as the threads password hashing runs on.
struct BlockingPoolThreads: HashingThreads {
    let pool: NIOThreadPool

    func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await pool.runIfActive(work)
    }
}
