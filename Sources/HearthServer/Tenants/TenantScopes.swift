import Foundation
import HearthConfiguration
import HearthCore
import HearthProviders
import HearthWire
import HearthWireMapping
import Hummingbird
import NIOCore

/// The controllers of one tenant, or of the project's own users: built on services scoped to it
/// (``HearthServices/scoped(to:)``), so that every store call they make carries the tenant.
///
/// A class: every request picks its controller out of one, and a copy of so many parts (each a retain) would cost
/// more than the controller's own work on the cheapest routes.
final class TenantControllers: Sendable {
    typealias Context = HearthRequestContext

    let services: HearthServices
    let accounts: AccountsController<Context>
    let adminAccounts: AdminAccountsController<Context>
    let multiFactor: MultiFactorController<Context>
    let passkeys: PasskeyController<Context>
    let idpConfigs: IdpConfigController<Context>
    let projectConfig: ProjectConfigController<Context>
    let auditEvents: AuditEventsController<Context>
    let sessionCookies: SessionCookieController<Context>
    let secureToken: SecureTokenController<Context>
    let actionPage: ActionPageController<Context>
    let browserSignIn: BrowserSignInController<Context>

    init(services: HearthServices) {
        let configuration = services.configuration
        let audit = AuditTrail(services: services)
        let idTokens = ServerIDTokens(services: services)
        let signIn = SignInUseCases(services: services)
        let accountUseCases = AccountUseCases(services: services)
        let emailActions = EmailActions(services: services)
        let browserSignIn = BrowserSignIn(services: services)
        self.services = services
        adminAccounts = AdminAccountsController(
            accounts: AdministeredAccounts(
                store: services.store, passwords: ServerPasswords(services: services), audit: audit, clock: services.clock),
            store: services.store, hashing: services.hashing, audit: audit, configuration: configuration, clock: services.clock)
        accounts = AccountsController(
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
        multiFactor = MultiFactorController(
            enrollments: signIn.secondFactorEnrollments, signIn: signIn.secondFactorSignIn, audit: audit, maxBodyBytes: configuration.maxBodyBytes)
        passkeys = PasskeyController(
            enrollment: signIn.passkeyEnrollment, signIn: signIn.passkeySignIn, audit: audit, maxBodyBytes: configuration.maxBodyBytes)
        idpConfigs = IdpConfigController(
            changes: ProviderSettingsChanges(
                store: services.store, verifier: services.identityVerifier, checking: CatalogueChecking(), audit: audit, clock: services.clock),
            audit: audit, configuration: configuration, tenantID: services.tenantID)
        projectConfig = ProjectConfigController(
            settings: services.projectSettings,
            changes: ProjectSettingsChanges(settings: services.projectSettings, audit: audit, clock: services.clock),
            passwords: services.passwords, audit: audit, configuration: configuration)
        auditEvents = AuditEventsController(store: services.store)
        sessionCookies = SessionCookieController(
            keyRing: services.keyRing, tokens: services.tokens, idTokens: idTokens, clock: services.clock, configuration: configuration)
        secureToken = SecureTokenController(store: services.store, idTokens: idTokens, configuration: configuration, clock: services.clock)
        actionPage = ActionPageController(actions: emailActions, store: services.store, configuration: configuration)
        self.browserSignIn = BrowserSignInController(browserSignIn: browserSignIn)
    }
}

/// Finds the tenant a request is for and hands it to that tenant's controllers.
///
/// Where the tenant is named: a client call's body (`tenantId`, Firebase's field) or, for calls that carry an ID
/// token, the token's `firebase.tenant` (both, when both are there, must agree: `TENANT_ID_MISMATCH`); an
/// administrator's path (`…/tenants/{tenant}/…`). A tenant id that cannot be one answers `INVALID_TENANT_ID`, one
/// that names no tenant `TENANT_NOT_FOUND`, a tenant with `disableAuth` `PROJECT_DISABLED` for everyone but an
/// administrator. No tenant: the project's own users.
final class TenantScopes: Sendable {
    let base: HearthServices
    let project: TenantControllers
    /// Each tenant's last-read record and its controllers, which are kept when it is read again (new ones start cold).
    private let cache = LockedBox<[String: (controllers: TenantControllers, tenant: TenantRecord, readAt: ContinuousClock.Instant)]>([:])
    /// How long a tenant read is trusted: a tenant deleted or disabled on another replica is seen within this.
    let recordLifetime: Duration

    init(services: HearthServices, recordLifetime: Duration = .seconds(5)) {
        base = services
        project = TenantControllers(services: services)
        self.recordLifetime = recordLifetime
    }

    /// The controllers of `tenantID` (`nil` or empty: the project's) for the caller of `context`: an administrator's
    /// credential of one tenant reaches that tenant alone (`PERMISSION_DENIED`).
    func controllers(for tenantID: String?, context: some CallerRequestContext) async throws -> TenantControllers {
        let tenantID = tenantID.flatMap { $0.isEmpty ? nil : $0 }
        if context.caller == .administrator, let allowed = context.administratorTenant, tenantID != allowed {
            throw RequestError.permissionDenied
        }
        let entry = try await entry(tenantID)
        if entry.tenant?.disabled == true, context.caller != .administrator { throw HearthError(.projectDisabled) }
        return entry.controllers
    }

    /// The controllers of `tenantID` (`nil`: the project's) as an administrator reaches them, a disabled tenant's too.
    func administered(_ tenantID: String?) async throws -> TenantControllers {
        try await entry(tenantID).controllers
    }

    private func entry(_ tenantID: String?) async throws -> (controllers: TenantControllers, tenant: TenantRecord?) {
        guard let tenantID else { return (project, nil) }
        guard TenantRecord.isValidID(tenantID) else { throw HearthError(.invalidTenantID) }
        let now = ContinuousClock.now
        let known = cache.withLock { $0[tenantID] }
        if let known, known.readAt.duration(to: now) < recordLifetime { return (known.controllers, known.tenant) }
        guard let tenant = try await base.store.tenant(id: tenantID) else {
            cache.withLock { $0[tenantID] = nil }
            throw HearthError(.tenantNotFound)
        }
        let controllers = cache.withLock { entries in
            // Requests that read the record together keep one set of controllers.
            let kept = entries[tenantID]?.controllers ?? known?.controllers ?? TenantControllers(services: base.scoped(to: tenantID))
            entries[tenantID] = (kept, tenant, now)
            return kept
        }
        return (controllers, tenant)
    }

    /// The tenants' changes, each making this replica forget what it knew of the tenant.
    var tenantChanges: TenantChanges {
        TenantChanges(store: base.store, audit: AuditTrail(services: base), clock: base.clock) { [weak self] in self?.forget($0) }
    }

    /// Forgets what this replica knows of `tenantID` (it was changed or deleted here).
    func forget(_ tenantID: String) {
        cache.withLock { $0[tenantID] = nil }
    }

    /// The controllers of the tenant `request`'s body names (the body is read once and kept for the controller).
    func controllers(forBodyOf request: inout Request, context: some CallerRequestContext, limit: Int) async throws -> TenantControllers {
        guard request.method == .post else { return project }
        let buffer = try await WireCoding.body(of: request, limit: limit)
        request.body = RequestBody(buffer: buffer)
        let named = TenantNaming(json: Data(buffer.readableBytesView))
        return try await controllers(for: try named.tenantID(), context: context)
    }

    /// Each request's controller from the tenant its body names.
    func byBody<Controller>(_ controller: @escaping @Sendable (TenantControllers) -> Controller, limit: Int)
        -> ControllerSource<Controller, HearthRequestContext>
    {
        ControllerSource { request, context in
            var request = request
            let controllers = try await self.controllers(forBodyOf: &request, context: context, limit: limit)
            return (controller(controllers), request)
        }
    }

    /// Each request's controller from the tenant of its path (`:tenant`); a body that names another tenant is refused
    /// (`TENANT_ID_MISMATCH`).
    func byPath<Controller>(_ controller: @escaping @Sendable (TenantControllers) -> Controller, limit: Int)
        -> ControllerSource<Controller, HearthRequestContext>
    {
        ControllerSource { request, context in
            let tenantID = context.parameters.get("tenant") ?? ""
            var request = request
            if request.method == .post || request.method == .patch {
                let buffer = try await WireCoding.body(of: request, limit: limit)
                request.body = RequestBody(buffer: buffer)
                if let named = try TenantNaming(json: Data(buffer.readableBytesView)).tenantID(), named != tenantID {
                    throw HearthError(.tenantIDMismatch, reason: "the body names another tenant than the path")
                }
            }
            let controllers = try await self.controllers(for: tenantID, context: context)
            return (controller(controllers), request)
        }
    }

    /// Each request's controller from the tenant of its query's `tenantId` (the action page's links carry it).
    func byQuery<Controller>(_ controller: @escaping @Sendable (TenantControllers) -> Controller) -> ControllerSource<
        Controller, HearthRequestContext
    > {
        ControllerSource { request, context in
            let tenantID = request.uri.queryParameters.get("tenantId")
            return (controller(try await self.controllers(for: tenantID, context: context)), request)
        }
    }

    /// The Secure Token endpoint: the body decoded once, and the refresh answered by the controllers of the tenant its
    /// refresh token names (``RefreshSessionRecord/tenantID(ofToken:)``; the request names no tenant of its own). A
    /// token naming no tenant that exists is `INVALID_REFRESH_TOKEN`.
    func refresh(limit: Int) -> @Sendable (Request, HearthRequestContext) async throws -> Response {
        { request, context in
            let input = try await WireCoding.decode(TokenRequest.self, from: request, limit: limit)
            let tenantID = input.refreshToken.flatMap(RefreshSessionRecord.tenantID(ofToken:))
            let controllers: TenantControllers
            do {
                controllers = try await self.controllers(for: tenantID, context: context)
            } catch let error as HearthError where [.invalidTenantID, .tenantNotFound].contains(error.code) {
                throw HearthError(.invalidRefreshToken, reason: "refresh token of no tenant")
            }
            return try await controllers.secureToken.token(input)
        }
    }

    /// Each request's controller from the tenant its browser sign-in `state` names (``BrowserCallback/tenantID(ofState:)``):
    /// the provider's answer carries nothing else. A state naming no tenant that exists shows the handler's page of
    /// an unknown sign-in, from the project's controller.
    func byBrowserState<Controller>(_ controller: @escaping @Sendable (TenantControllers) -> Controller)
        -> ControllerSource<Controller, HearthRequestContext>
    {
        ControllerSource { request, context in
            var request = request
            if request.method == .post, BrowserSignInController<HearthRequestContext>.isForm(request) {
                let buffer = try await WireCoding.body(of: request, limit: BrowserSignInController<HearthRequestContext>.maximumBodySize)
                request.body = RequestBody(buffer: buffer)
            }
            let state = try await BrowserSignInController<HearthRequestContext>.parameters(of: request)["state"]
            let tenantID = state.flatMap(BrowserCallback.tenantID(ofState:))
            let controllers = (try? await self.controllers(for: tenantID, context: context)) ?? self.project
            return (controller(controllers), request)
        }
    }

    /// The project's own controller for every request.
    func project<Controller: Sendable>(_ controller: @escaping @Sendable (TenantControllers) -> Controller)
        -> ControllerSource<Controller, HearthRequestContext>
    {
        let fixed = controller(project)
        return ControllerSource { request, context in
            if context.caller == .administrator, context.administratorTenant != nil { throw RequestError.permissionDenied }
            return (fixed, request)
        }
    }
}

/// Where a route finds the controller that answers a request: one fixed controller, or the controller of the tenant the
/// request is for (``TenantScopes``). A controller registers its routes through one: `group.post("x", use: source { $0.x })`.
struct ControllerSource<Controller, Context: RequestContext>: Sendable {
    /// The controller for `request`, and the request to hand it (its body may have been read into memory).
    let resolve: @Sendable (Request, Context) async throws -> (Controller, Request)

    init(_ resolve: @escaping @Sendable (Request, Context) async throws -> (Controller, Request)) {
        self.resolve = resolve
    }

    /// One controller for every request.
    init(fixed controller: Controller) where Controller: Sendable {
        self.resolve = { request, _ in (controller, request) }
    }

    /// The handler that runs `pick`'s handler of the request's controller.
    func callAsFunction(
        _ pick: @escaping @Sendable (Controller) -> @Sendable (Request, Context) async throws -> Response
    ) -> @Sendable (Request, Context) async throws -> Response {
        { request, context in
            let (controller, request) = try await resolve(request, context)
            return try await pick(controller)(request, context)
        }
    }
}
