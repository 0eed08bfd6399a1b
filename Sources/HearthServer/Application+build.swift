import Foundation
import HearthConfiguration
import HearthCore
import HearthTelemetry
import HearthTokens
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle
import Tracing

/// Builds the Hearth application: routes, middleware and background services.
///
/// Tests call this with services on a temporary data directory and drive it with `app.test(.router)`
/// or `.live`; `hearth serve` calls it and runs the result.
/// - Parameters:
///   - tls: speak HTTPS with its certificate and key, rather than plain HTTP.
///   - reloadsOnHangup: re-read `tls`'s files on SIGHUP (and survive the signal without them): `hearth serve`.
///   - onServerRunning: called with the bound port once the server listens (useful with port 0).
public func buildApplication(
    services: HearthServices,
    tls: ServerTLS? = nil,
    reloadsOnHangup: Bool = false,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) -> some ApplicationProtocol {
    let configuration = services.configuration
    let router = buildRouter(services: services)
    let http1 = HTTP1Channel.Configuration(additionalChannelHandlers: [MalformedRequestResponder()])
    let server: HTTPServerBuilder =
        if let tls {
            HTTPServerBuilder { responder in HTTP1Channel(responder: responder, configuration: http1).behind(tls) }
        } else {
            .http1(configuration: http1)
        }
    var app = Application(
        router: router,
        server: server,
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Hearth"),
        onServerRunning: { channel in
            let port = channel.localAddress?.port ?? configuration.port
            services.serverDidBind(port: port)
            await onServerRunning(port)
        },
        logger: services.logger
    )
    // First, so that it stops last: the spans of the other services' last work are sent too.
    if let exporter = services.traceExporter { app.addServices(exporter) }
    app.addServices(
        KeyRotationService(keyRing: services.keyRing, logger: services.logger),
        AnonymousCleanupService(services: services),
        AbusePruningService(services: services),
        AuditPruningService(services: services))
    if reloadsOnHangup {
        app.addServices(HangupService(tls: tls, logger: services.logger))
    }
    if let transport = services.mailTransport {
        app.addServices(MailDeliveryService(services: services, transport: transport))
    }
    if let gateway = services.smsGateway {
        app.addServices(SMSDeliveryService(services: services, gateway: gateway))
    }
    if configuration.metrics.enabled, let address = configuration.metrics.listen {
        app.addServices(buildMetricsApplication(services: services, address: address))
    }
    return app
}

/// The router alone, for tests and benchmarks that need no background services.
public func buildRouter(services: HearthServices) -> Router<HearthRequestContext> {
    let configuration = services.configuration
    let router = Router(context: HearthRequestContext.self)
    // The access log and the request metrics outermost, so that it sees every final answer; then CORS, so that error answers carry the
    // CORS headers a browser needs to read them.
    router.add(
        middleware: RequestObservationMiddleware(
            enabled: configuration.log.accessLog,
            addresses: ClientAddressResolver(trustedProxies: configuration.abuse.trustedProxies.compactMap(IPAddressRange.init)),
            metrics: services.metrics))
    // A server span per request when spans go somewhere; the store's and the providers' spans nest under it.
    if !(services.metrics.telemetry.tracer is NoOpTracer) {
        router.add(middleware: RequestTracingMiddleware(tracer: services.metrics.telemetry.tracer))
    }
    router.add(middleware: FirebaseCORSMiddleware())
    router.add(middleware: WireErrorMiddleware())

    // The parts the controllers are given: each controller holds the few it uses.
    let audit = AuditTrail(services: services)
    let idTokens = ServerIDTokens(services: services)
    let signIn = SignInUseCases(services: services)
    let accountUseCases = AccountUseCases(services: services)
    let emailActions = EmailActions(services: services)
    let browserSignIn = BrowserSignIn(services: services)

    WellKnownController<HearthRequestContext>(
        keyRing: services.keyRing, store: services.store, clock: services.clock, logger: services.logger, configuration: configuration,
        baseURL: configuration.baseURL
    ).addRoutes(to: router)
    let sessionCookies = SessionCookieController<HearthRequestContext>(
        keyRing: services.keyRing, tokens: services.tokens, idTokens: idTokens, clock: services.clock, configuration: configuration)
    sessionCookies.addPublicRoutes(to: router)
    // Routes given from outside: development mode's identity-provider stand-ins.
    for serverExtension in services.extensions { serverExtension.addRoutes(to: router, services: services) }
    BrowserSignInController<HearthRequestContext>(browserSignIn: browserSignIn).addRoutes(to: router)
    ActionPageController<HearthRequestContext>(actions: emailActions, store: services.store, configuration: configuration)
        .addRoutes(to: router)

    let accessTokens = AdminAccessTokens(
        keyRing: services.keyRing, keys: ServiceAccountKeys(store: services.store), projectID: configuration.projectID,
        idTokenLifetime: configuration.idTokenLifetime, tokenURLs: [configuration.publicBaseURL + ServiceAccountKeys.tokenPath],
        clock: services.clock)
    let administrators = AdministratorCredentials(configuration: configuration, accessTokens: accessTokens)
    let apiKeys = APIKeyMiddleware<HearthRequestContext>(
        acceptsAnyKey: configuration.mode == .development, keys: Set(configuration.apiKeys), administrators: administrators)
    let secureToken = SecureTokenController<HearthRequestContext>(
        store: services.store, idTokens: ServerIDTokens(services: services), configuration: configuration, clock: services.clock)
    // The bare paths, then the host-prefixed paths Firebase SDKs use in emulator mode, then the legacy v3 names.
    let adminAccounts = AdminAccountsController<HearthRequestContext>(
        accounts: AdministeredAccounts(
            store: services.store, passwords: ServerPasswords(services: services), audit: audit, clock: services.clock),
        store: services.store, hashing: services.hashing, audit: audit, configuration: configuration, clock: services.clock)
    let accounts = AccountsController<HearthRequestContext>(
        signIn: signIn, accountUseCases: accountUseCases, idTokens: idTokens, admin: adminAccounts,
        emailActions: EmailActionsController(
            actions: emailActions, addressing: accountUseCases.addressing, emailLinkSignIn: signIn.emailLinkSignIn,
            settings: services.projectSettings, audit: audit, configuration: configuration),
        federated: FederatedController(
            signIn: signIn.federatedSignIn, browserSignIn: browserSignIn, identityVerifier: services.identityVerifier,
            tokens: services.tokens, audit: audit, configuration: configuration),
        customToken: CustomTokenController(signIn: signIn.customTokenSignIn, audit: audit, maxBodyBytes: configuration.maxBodyBytes),
        phone: PhoneSignInController(signIn: signIn.phoneSignIn, audit: audit, maxBodyBytes: configuration.maxBodyBytes),
        browserSignIn: browserSignIn, audit: audit, configuration: configuration)
    let admin = AdminAuthMiddleware<HearthRequestContext>(credentials: administrators)
    let project = ProjectMiddleware<HearthRequestContext>(projectID: configuration.projectID)
    if configuration.metrics.enabled {
        MetricsController<HearthRequestContext>(scrape: services.scrapeMetrics).addRoutes(to: router.group("/metrics").add(middleware: admin))
    }
    StatusPageController<HearthRequestContext>(report: services.statusReport).addRoutes(
        to: router.group(RouterPath(StatusPageController<HearthRequestContext>.path))
            .add(middleware: StatusPageAccessMiddleware(admin: admin, opensToLocalBrowsers: configuration.mode == .development)))
    for prefix in ["/v1", "/identitytoolkit.googleapis.com/v1"] {
        let group = router.group(RouterPath(prefix)).add(middleware: apiKeys)
        accounts.addRoutes(to: group, names: .v1)
        adminAccounts.addRoutes(to: group)
        // The project-scoped paths of the Admin SDKs: an administrator's only.
        let scoped = router.group(RouterPath(prefix + "/projects/:project")).add(middleware: admin).add(middleware: project)
        accounts.addRoutes(to: scoped, names: .v1)
        scoped.post("accounts", use: accounts.signUp)
        adminAccounts.addRoutes(to: scoped)
        AuditEventsController<HearthRequestContext>(store: services.store).addRoutes(to: scoped)
        // `projects.queryAccounts`: accounts:query by its other name.
        router.group(RouterPath(prefix + "/projects")).add(middleware: admin).add(middleware: project)
            .post("{project}:queryAccounts", use: adminAccounts.query)
    }
    for prefix in ["/identitytoolkit/v3/relyingparty", "/www.googleapis.com/identitytoolkit/v3/relyingparty"] {
        let group = router.group(RouterPath(prefix)).add(middleware: apiKeys)
        accounts.addRoutes(to: group, names: .legacyV3)
        adminAccounts.addLegacyRoutes(to: group)
    }
    // Identity Toolkit v2's client call (the iOS SDKs use v2 for it).
    for prefix in ["/v2", "/identitytoolkit.googleapis.com/v2"] {
        RevokeTokenController<HearthRequestContext>(
            idTokens: idTokens, identityVerifier: services.identityVerifier, providers: { services.providersInEffect },
            httpClient: services.httpClient, clock: services.clock, logger: services.logger, telemetry: services.metrics.telemetry,
            configuration: configuration
        ).addRoutes(to: router.group(RouterPath(prefix)).add(middleware: apiKeys))
        MultiFactorController<HearthRequestContext>(
            enrollments: signIn.secondFactorEnrollments, signIn: signIn.secondFactorSignIn, audit: audit, maxBodyBytes: configuration.maxBodyBytes
        ).addRoutes(to: router.group(RouterPath(prefix)).add(middleware: apiKeys))
    }
    // The admin API: an administrator's bearer token, no API key.
    for prefix in ["/v2/projects/:project", "/identitytoolkit.googleapis.com/v2/projects/:project"] {
        let group = router.group(RouterPath(prefix)).add(middleware: admin)
        IdpConfigController<HearthRequestContext>(
            store: services.store, identityVerifier: services.identityVerifier, audit: audit, configuration: configuration
        ).addRoutes(to: group)
        ProjectConfigController<HearthRequestContext>(
            settings: services.projectSettings, passwords: services.passwords, audit: audit, configuration: configuration
        ).addRoutes(to: group)
    }
    for prefix in ["/v1/projects", "/identitytoolkit.googleapis.com/v1/projects"] {
        sessionCookies.addAdminRoutes(to: router.group(RouterPath(prefix)).add(middleware: admin))
    }
    // The token_uri of service-account files: an assertion buys an admin access token (no API key).
    router.post(
        RouterPath(ServiceAccountKeys.tokenPath),
        use: ServiceAccountTokenController<HearthRequestContext>(logger: services.logger, accessTokens: accessTokens).token)
    for path in ["/v1/token", "/securetoken.googleapis.com/v1/token"] {
        router.group(RouterPath(path)).add(middleware: apiKeys).post(use: secureToken.token)
    }
    return router
}
