import Foundation
import HearthConfiguration
import HearthConsole
import HearthCore
import HearthTLS
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

    // The parts the controllers are given: each controller holds the few it uses. The controllers of Identity
    // Toolkit's calls are the request's tenant's (TenantScopes): the tenant its body or path names, else the project's.
    let scopes = TenantScopes(services: services)
    let limit = configuration.maxBodyBytes

    WellKnownController<HearthRequestContext>(
        keyRing: services.keyRing, store: services.store, clock: services.clock, logger: services.logger, configuration: configuration,
        baseURL: configuration.publicBaseURL
    ).addRoutes(to: router)
    scopes.project.sessionCookies.addPublicRoutes(to: router)
    // Routes given from outside: development mode's identity-provider stand-ins.
    for serverExtension in services.extensions { serverExtension.addRoutes(to: router, services: services) }
    BrowserSignInController.addRoutes(to: router, from: scopes.byBrowserState(\.browserSignIn))
    ActionPageController<HearthRequestContext>.addRoutes(to: router, from: scopes.byQuery(\.actionPage))

    let accessTokens = AdminAccessTokens(
        keyRing: services.keyRing, keys: ServiceAccountKeys(store: services.store), projectID: configuration.projectID,
        idTokenLifetime: configuration.idTokenLifetime, tokenURLs: [configuration.publicBaseURL + ServiceAccountKeys.tokenPath],
        clock: services.clock)
    let administrators = AdministratorCredentials(configuration: configuration, accessTokens: accessTokens)
    let apiKeys = APIKeyMiddleware<HearthRequestContext>(
        acceptsAnyKey: configuration.mode == .development, keys: Set(configuration.apiKeys), administrators: administrators)
    let admin = AdminAuthMiddleware<HearthRequestContext>(credentials: administrators)
    // What only the project's administrators see: its tenants, metrics and status (a tenant's key is refused).
    let projectAdmin = AdminAuthMiddleware<HearthRequestContext>(credentials: administrators, projectWide: true)
    let project = ProjectMiddleware<HearthRequestContext>(projectID: configuration.projectID)
    if configuration.metrics.enabled {
        MetricsController<HearthRequestContext>(scrape: services.scrapeMetrics).addRoutes(to: router.group("/metrics").add(middleware: projectAdmin))
    }
    // The console (/console: operators' pages, and the status page, which an administrator's credential also opens).
    ConsoleRoutes.add(
        to: router, services: services.console(scopes: scopes), administrators: projectAdmin,
        clientAddress: { AbuseGuard(services: services).clientAddress($0, context: $1) })
    // The bare paths, then the host-prefixed paths Firebase SDKs use in emulator mode, then the legacy v3 names.
    for prefix in ["/v1", "/identitytoolkit.googleapis.com/v1"] {
        let group = router.group(RouterPath(prefix)).add(middleware: apiKeys)
        AccountsController.addRoutes(to: group, names: .v1, from: scopes.byBody(\.accounts, limit: limit))
        AdminAccountsController.addRoutes(to: group, from: scopes.byBody(\.adminAccounts, limit: limit))
        // The project-scoped paths of the Admin SDKs: an administrator's only; a tenant's under `tenants/{tenant}`.
        let scoped = router.group(RouterPath(prefix + "/projects/:project")).add(middleware: admin).add(middleware: project)
        let tenant = scoped.group("tenants/:tenant")
        for (group, accounts, adminAccounts, auditEvents) in [
            (scoped, scopes.byBody(\.accounts, limit: limit), scopes.byBody(\.adminAccounts, limit: limit), scopes.project(\.auditEvents)),
            (
                tenant, scopes.byPath(\.accounts, limit: limit), scopes.byPath(\.adminAccounts, limit: limit),
                scopes.byPath(\.auditEvents, limit: limit)
            ),
        ] {
            AccountsController.addRoutes(to: group, names: .v1, from: accounts)
            group.post("accounts", use: accounts { $0.signUp })
            AdminAccountsController.addRoutes(to: group, from: adminAccounts)
            AuditEventsController.addRoutes(to: group, from: auditEvents)
        }
        // `projects.queryAccounts`: accounts:query by its other name.
        router.group(RouterPath(prefix + "/projects")).add(middleware: admin).add(middleware: project)
            .post("{project}:queryAccounts", use: scopes.byBody(\.adminAccounts, limit: limit).callAsFunction { $0.query })
    }
    for prefix in ["/identitytoolkit/v3/relyingparty", "/www.googleapis.com/identitytoolkit/v3/relyingparty"] {
        let group = router.group(RouterPath(prefix)).add(middleware: apiKeys)
        AccountsController.addRoutes(to: group, names: .legacyV3, from: scopes.byBody(\.accounts, limit: limit))
        AdminAccountsController.addLegacyRoutes(to: group, from: scopes.byBody(\.adminAccounts, limit: limit))
    }
    // Identity Toolkit v2's client calls (the iOS SDKs use v2 for some).
    for prefix in ["/v2", "/identitytoolkit.googleapis.com/v2"] {
        RevokeTokenController<HearthRequestContext>(
            idTokens: ServerIDTokens(services: services), identityVerifier: services.identityVerifier,
            providers: { services.providersInEffect }, httpClient: services.httpClient, clock: services.clock, logger: services.logger,
            telemetry: services.metrics.telemetry, configuration: configuration
        ).addRoutes(to: router.group(RouterPath(prefix)).add(middleware: apiKeys))
        MultiFactorController.addRoutes(
            to: router.group(RouterPath(prefix)).add(middleware: apiKeys), from: scopes.byBody(\.multiFactor, limit: limit))
        PasskeyController.addRoutes(to: router.group(RouterPath(prefix)).add(middleware: apiKeys), from: scopes.byBody(\.passkeys, limit: limit))
    }
    // The admin API: an administrator's bearer token, no API key. A tenant's providers and settings under its path.
    for prefix in ["/v2/projects/:project", "/identitytoolkit.googleapis.com/v2/projects/:project"] {
        let group = router.group(RouterPath(prefix)).add(middleware: admin)
        IdpConfigController.addRoutes(to: group, from: scopes.project(\.idpConfigs))
        ProjectConfigController.addRoutes(to: group, from: scopes.project(\.projectConfig))
        TenantsController<HearthRequestContext>(services: services, changes: scopes.tenantChanges, audit: AuditTrail(services: services))
            .addRoutes(to: router.group(RouterPath(prefix)).add(middleware: projectAdmin).add(middleware: project))
        let tenant = group.group("tenants/:tenant").add(middleware: project)
        IdpConfigController.addRoutes(to: tenant, from: scopes.byPath(\.idpConfigs, limit: limit))
        ProjectConfigController.addRoutes(to: tenant, from: scopes.byPath(\.projectConfig, limit: limit))
    }
    for prefix in ["/v1/projects", "/identitytoolkit.googleapis.com/v1/projects"] {
        let group = router.group(RouterPath(prefix)).add(middleware: admin)
        SessionCookieController.addAdminRoutes(to: group, from: scopes.byBody(\.sessionCookies, limit: limit))
        group.group(":project/tenants").add(middleware: project)
            .post("{tenant}:createSessionCookie", use: scopes.byPath(\.sessionCookies, limit: limit).callAsFunction { $0.createSessionCookie })
    }
    // The token_uri of service-account files: an assertion buys an admin access token (no API key).
    router.post(
        RouterPath(ServiceAccountKeys.tokenPath),
        use: ServiceAccountTokenController<HearthRequestContext>(logger: services.logger, accessTokens: accessTokens).token)
    for path in ["/v1/token", "/securetoken.googleapis.com/v1/token"] {
        router.group(RouterPath(path)).add(middleware: apiKeys).post(
            use: scopes.refresh(limit: limit))
    }
    return router
}
