import Foundation
import HTTPTypes
import HearthCore
import HearthFormEncoding
import Hummingbird
import NIOCore

/// The console's routes under `/console`: signing in and out, the users and their pages, the status page, the style
/// sheet. Every page is rendered on the server; there is no script.
///
/// Who gets in: an operator's session (``ConsoleSignIn``), or in development mode a browser on this machine as owner.
/// `/console/status` also lets in an administrator's bearer credential (the `administrators` middleware), as before the
/// console had operators. Every `POST` must come from the console's own pages (``ConsoleAccess/isCrossSite(_:)``) and
/// carry the session's form token; a role that may not do what it asks gets a 403 page.
public struct ConsoleRoutes<Context: RequestContext & RemoteAddressRequestContext>: Sendable {
    let services: ConsoleServices
    /// The client's address as the server's abuse limits key it (its trusted-proxy rules); `nil` when unknown.
    let clientAddress: @Sendable (Request, Context) -> String?
    /// The form token of development mode's local browser: random for each server.
    let developmentCSRF = ConsoleSignIn.makeToken()

    static var sessionCookie: String { "hearth_console" }
    static var pendingCookie: String { "hearth_console_pending" }
    /// The most a form's body may hold.
    static var maximumFormBytes: Int { 64 * 1024 }

    /// Adds the console's routes to `router`.
    /// - Parameters:
    ///   - administrators: the admin API's check of a bearer credential, which also opens `/console/status`.
    ///   - clientAddress: the client's address as the server's limits key it.
    public static func add<Administrators: RouterMiddleware>(
        to router: Router<Context>, services: ConsoleServices, administrators: Administrators,
        clientAddress: @escaping @Sendable (Request, Context) -> String?
    ) where Administrators.Context == Context {
        let console = ConsoleRoutes(services: services, clientAddress: clientAddress)
        router.get("/console", use: console.home)
        router.get(RouterPath(ConsoleStyleSheet.path), use: console.styleSheet)
        router.get("/console/sign-in", use: console.signInPage)
        router.post("/console/sign-in", use: console.signInWithPassword)
        router.post("/console/sign-in/code", use: console.signInWithCode)
        router.post("/console/sign-out", use: console.signOut)
        router.group("/console/status").add(middleware: StatusAccess(console: console, administrators: administrators)).get(use: console.status)
        let users = ConsoleUsers(console: console)
        router.get("/console/users", use: console.page(.viewer, users.list))
        router.get("/console/users/new", use: console.page(.editor, users.newUser))
        let imports = ConsoleImportPage(console: console, jobs: ConsoleImportJobs(services: services))
        router.get("/console/users/import", use: console.page(.editor, imports.form))
        router.post("/console/users/import", use: console.upload(.editor, imports.upload))
        router.get("/console/users/import/:job", use: console.page(.editor, imports.job))
        let export = ConsoleExportPage(console: console)
        router.get("/console/users/export", use: console.page(.owner, export.page))
        router.post("/console/users/export", use: console.action(.owner, export.download))
        router.post("/console/users", use: console.action(.editor, users.create))
        router.get("/console/users/:uid", use: console.page(.viewer, users.user))
        router.post("/console/users/:uid/:action", use: console.action(.editor, users.change))
        router.get("/console/activity", use: console.page(.viewer, ConsoleActivityPage(console: console).list))
        let keys = ConsoleKeysPage(console: console)
        router.get("/console/keys", use: console.page(.viewer, keys.list))
        router.post("/console/keys/rotate", use: console.action(.owner, keys.rotate))
        // Sign-in settings: anyone may look, only an owner changes them (they hold the providers' secrets and decide how
        // every user signs in: more than an editor's day-to-day care of users).
        let settings = ConsoleSettingsPage(console: console)
        router.get(RouterPath(ConsoleSettingsPage<Context>.path), use: console.page(.viewer, settings.show))
        router.post(RouterPath(ConsoleSettingsPage<Context>.path + "/:section"), use: console.action(.owner, settings.change))
        let tenants = ConsoleTenants(console: console)
        router.post(RouterPath(ConsoleTenants<Context>.path), use: console.action(.owner, tenants.create))
        router.post(RouterPath(ConsoleTenants<Context>.path + "/:tenant/:action"), use: console.action(.owner, tenants.change))
        let providers = ConsoleProvidersPage(console: console)
        router.get(RouterPath(ConsoleProvidersPage<Context>.path), use: console.page(.viewer, providers.show))
        router.post(RouterPath(ConsoleProvidersPage<Context>.path), use: console.action(.owner, providers.add))
        router.post(RouterPath(ConsoleProvidersPage<Context>.path + "/:provider/:action"), use: console.action(.owner, providers.change))
        let templates = ConsoleTemplatesPage(console: console)
        router.get("/console/templates", use: console.page(.viewer, templates.list))
        router.get("/console/templates/:mode/:lang", use: console.page(.viewer, templates.mail))
        router.get("/console/templates/:mode/:lang/html", use: console.page(.viewer, templates.html))
        router.post("/console/templates/:mode/:lang", use: console.action(.owner, templates.save))
        let operators = ConsoleOperatorsPage(console: console)
        router.get("/console/operators", use: console.page(.owner, operators.list))
        router.post("/console/operators/remove", use: console.action(.owner, operators.remove))
        router.post("/console/operators", use: console.action(.owner, operators.add))
        router.post("/console/operators/role", use: console.action(.owner, operators.changeRole))
    }

    // MARK: Pages

    @Sendable func home(_ request: Request, context: Context) async throws -> Response {
        ConsoleLayout.redirect("/console/users")
    }

    @Sendable func styleSheet(_ request: Request, context: Context) async throws -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: "text/css; charset=utf-8", .cacheControl: "no-cache", .xContentTypeOptions: "nosniff",
                .contentSecurityPolicy: ConsoleLayout.contentSecurityPolicy,
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(string: ConsoleStyleSheet.text)))
    }

    @Sendable func status(_ request: Request, context: Context) async throws -> Response {
        ConsoleLayout.response(StatusPage.render(await services.statusReport()))
    }

    // MARK: Signing in

    @Sendable func signInPage(_ request: Request, context: Context) async throws -> Response {
        if try await identity(request, context: context) != nil { return ConsoleLayout.redirect("/console/users") }
        if let pending = cookie(Self.pendingCookie, of: request), try await services.signIn.isAwaitingCode(pending) {
            return ConsoleLayout.response(codePage(csrf: ConsoleSignIn.csrfToken(for: pending), notice: nil))
        }
        let notice: ConsoleLayout.Notice? =
            switch request.uri.queryParameters.get("reason") {
            case "expired": .error("Your session ended. Sign in again.")
            case "signed-out": .done("You have signed out.")
            default: nil
            }
        return ConsoleLayout.response(passwordPage(email: "", notice: notice))
    }

    @Sendable func signInWithPassword(_ request: Request, context: Context) async throws -> Response {
        if ConsoleAccess.isCrossSite(request) { return crossSite() }
        guard let form = try await form(request) else {
            return ConsoleLayout.response(passwordPage(email: "", notice: .error(Self.malformed)), status: .badRequest)
        }
        let email = form["email"] ?? ""
        do {
            let token = try await services.signIn.checkPassword(
                email: email, password: form["password"] ?? "", address: clientAddress(request, context))
            return ConsoleLayout.redirect(
                "/console/sign-in", cookies: [Self.cookie(Self.pendingCookie, token, path: "/console/sign-in", maxAge: 300)])
        } catch ConsoleSignIn.Refusal.wrongCredentials {
            return ConsoleLayout.response(
                passwordPage(email: email, notice: .error("That e-mail address and password do not match an operator.")), status: .unauthorized)
        } catch let error as HearthError where error.retryAfter != nil {
            return ConsoleLayout.response(passwordPage(email: email, notice: .error(Self.lockedOut(error))), status: .tooManyRequests)
        }
    }

    @Sendable func signInWithCode(_ request: Request, context: Context) async throws -> Response {
        if ConsoleAccess.isCrossSite(request) { return crossSite() }
        guard let pending = cookie(Self.pendingCookie, of: request), ConsoleSignIn.isToken(pending) else {
            return ConsoleLayout.redirect("/console/sign-in?reason=expired")
        }
        let csrf = ConsoleSignIn.csrfToken(for: pending)
        guard let form = try await form(request) else {
            return ConsoleLayout.response(codePage(csrf: csrf, notice: .error(Self.malformed)), status: .badRequest)
        }
        guard ConsoleSignIn.csrfMatches(form["csrf"] ?? "", csrf) else { return forbidden(nil, "The form has expired. Sign in again.") }
        do {
            let token = try await services.signIn.checkCode(pendingToken: pending, code: form["code"] ?? "", address: clientAddress(request, context))
            return ConsoleLayout.redirect(
                "/console/users",
                cookies: [
                    Self.cookie(Self.sessionCookie, token, path: "/console", maxAge: nil),
                    Self.cookie(Self.pendingCookie, "", path: "/console/sign-in", maxAge: 0),
                ])
        } catch ConsoleSignIn.Refusal.wrongCode {
            return ConsoleLayout.response(
                codePage(csrf: csrf, notice: .error("That code is not right, or was used already. Try the next code of your app.")),
                status: .unauthorized)
        } catch ConsoleSignIn.Refusal.expired {
            return ConsoleLayout.redirect(
                "/console/sign-in?reason=expired", cookies: [Self.cookie(Self.pendingCookie, "", path: "/console/sign-in", maxAge: 0)])
        } catch let error as HearthError where error.retryAfter != nil {
            return ConsoleLayout.response(codePage(csrf: csrf, notice: .error(Self.lockedOut(error))), status: .tooManyRequests)
        }
    }

    @Sendable func signOut(_ request: Request, context: Context) async throws -> Response {
        if ConsoleAccess.isCrossSite(request) { return crossSite() }
        guard let token = cookie(Self.sessionCookie, of: request), let session = try await services.signIn.session(token: token) else {
            return ConsoleLayout.redirect("/console/sign-in", cookies: [Self.cookie(Self.sessionCookie, "", path: "/console", maxAge: 0)])
        }
        guard let form = try await form(request), ConsoleSignIn.csrfMatches(form["csrf"] ?? "", session.csrfToken) else {
            return forbidden(nil, Self.wrongFormToken)
        }
        try await services.signIn.signOut(token: token)
        return ConsoleLayout.redirect(
            "/console/sign-in?reason=signed-out", cookies: [Self.cookie(Self.sessionCookie, "", path: "/console", maxAge: 0)])
    }

    func passwordPage(email: String, notice: ConsoleLayout.Notice?) -> String {
        ConsoleLayout.page(
            title: "Sign in", projectID: services.projectID, identity: nil, notice: notice,
            body: """
                <section class="panel sign-in">
                <h1>Sign in to the console</h1>
                <form class="stack" method="post" action="/console/sign-in">
                <div class="field"><label for="email">E-mail</label>
                <input type="email" id="email" name="email" autocomplete="username" required value="\(ConsoleHTML.escape(email))"></div>
                <div class="field"><label for="password">Password</label>
                <input type="password" id="password" name="password" autocomplete="current-password" required></div>
                <button type="submit">Continue</button>
                </form>
                </section>
                """)
    }

    func codePage(csrf: String, notice: ConsoleLayout.Notice?) -> String {
        ConsoleLayout.page(
            title: "Sign in: code", projectID: services.projectID, identity: nil, notice: notice,
            body: """
                <section class="panel sign-in">
                <h1>Your authenticator's code</h1>
                <form class="stack" method="post" action="/console/sign-in/code">
                <input type="hidden" name="csrf" value="\(ConsoleHTML.escape(csrf))">
                <div class="field"><label for="code">Code <span class="hint">the 6 digits your app shows now, or one of your recovery codes</span></label>
                <input type="text" id="code" name="code" autocomplete="one-time-code" inputmode="text" required autofocus></div>
                <button type="submit">Sign in</button>
                </form>
                </section>
                """)
    }

    // MARK: Who is asking

    /// The signed-in operator, or development mode's local browser; `nil`: nobody.
    func identity(_ request: Request, context: Context) async throws -> ConsoleIdentity? {
        if let token = cookie(Self.sessionCookie, of: request), let session = try await services.signIn.session(token: token) {
            return ConsoleIdentity(
                name: session.operator.email, role: session.operator.role, actorID: session.operator.actorID, csrfToken: session.csrfToken,
                hasSession: true)
        }
        if services.localBrowserIsOwner, ConsoleAccess.isLocalVisit(request, peer: context.remoteAddress) {
            return ConsoleIdentity(name: "development", role: .owner, actorID: "development", csrfToken: developmentCSRF, hasSession: false)
        }
        return nil
    }

    /// A page for `needed` and the roles above it.
    func page(
        _ needed: OperatorRecord.Role, _ body: @escaping @Sendable (Request, Context, ConsoleIdentity) async throws -> Response
    ) -> @Sendable (Request, Context) async throws -> Response {
        { request, context in
            guard let identity = try await identity(request, context: context) else { return signInFirst(request) }
            guard identity.role.permits(needed) else { return forbidden(identity, Self.roleTooLow(needed)) }
            return try await body(request, context, identity)
        }
    }

    /// A change for `needed` and the roles above it: from the console's own pages, with the session's form token.
    func action(
        _ needed: OperatorRecord.Role, _ body: @escaping @Sendable (Request, Context, ConsoleIdentity, [String: String]) async throws -> Response
    ) -> @Sendable (Request, Context) async throws -> Response {
        { request, context in
            if ConsoleAccess.isCrossSite(request) { return crossSite() }
            guard let identity = try await identity(request, context: context) else { return signInFirst(request) }
            guard let form = try await form(request) else {
                return ConsoleLayout.response(
                    ConsoleLayout.page(title: "Refused", projectID: services.projectID, identity: identity, notice: .error(Self.malformed), body: ""),
                    status: .badRequest)
            }
            guard ConsoleSignIn.csrfMatches(form["csrf"] ?? "", identity.csrfToken) else { return forbidden(identity, Self.wrongFormToken) }
            guard identity.role.permits(needed) else { return forbidden(identity, Self.roleTooLow(needed)) }
            return try await body(request, context, identity, form)
        }
    }

    /// An upload (`multipart/form-data`, at most ``ConsoleImportPage/maximumUploadBytes``) for `needed` and the roles
    /// above it, checked as ``action(_:_:)`` checks a form.
    func upload(
        _ needed: OperatorRecord.Role, _ body: @escaping @Sendable (Request, Context, ConsoleIdentity, ConsoleMultipart) async throws -> Response
    ) -> @Sendable (Request, Context) async throws -> Response {
        { request, context in
            if ConsoleAccess.isCrossSite(request) { return crossSite() }
            guard let identity = try await identity(request, context: context) else { return signInFirst(request) }
            func refuse(_ message: String, _ status: HTTPResponse.Status) -> Response {
                ConsoleLayout.response(
                    ConsoleLayout.page(
                        title: "Refused", projectID: services.projectID, identity: identity, notice: .error(message),
                        body: "<h1>Refused</h1><p><a href=\"/console/users/import\">Import users</a></p>"),
                    status: status)
            }
            let limit = ConsoleImportPage<Context>.maximumUploadBytes
            let tooLarge = "The file is larger than \(limit / 1024 / 1024) MiB, the most an import takes. Split it and import the parts."
            if let length = request.headers[.contentLength].flatMap(Int.init), length > limit { return refuse(tooLarge, .contentTooLarge) }
            let unreadable = "The upload could not be read: send the file with the console's import form."
            guard let boundary = request.headers[.contentType].flatMap(ConsoleMultipart.boundary(contentType:)) else {
                return refuse(unreadable, .badRequest)
            }
            do {
                // Written to a temporary file as it arrives, not gathered in memory; the parts are read from it mapped.
                return try await ConsoleUploadFile.receive(request.body, limit: limit) { bytes in
                    guard let upload = ConsoleMultipart(bytes, boundary: boundary) else { return refuse(unreadable, .badRequest) }
                    guard ConsoleSignIn.csrfMatches(upload.field("csrf") ?? "", identity.csrfToken) else {
                        return forbidden(identity, Self.wrongFormToken)
                    }
                    guard identity.role.permits(needed) else { return forbidden(identity, Self.roleTooLow(needed)) }
                    return try await body(request, context, identity, upload)
                }
            } catch is ConsoleUploadFile.TooLarge {
                return refuse(tooLarge, .contentTooLarge)
            }
        }
    }

    /// The address a change came from, and the operator, as audit events keep them.
    func origin(_ request: Request, _ context: Context, _ identity: ConsoleIdentity) -> AuditOrigin {
        AuditOrigin(address: clientAddress(request, context), actorID: identity.actorID)
    }

    func signInFirst(_ request: Request) -> Response {
        let expired = cookie(Self.sessionCookie, of: request) != nil
        return ConsoleLayout.redirect(
            expired ? "/console/sign-in?reason=expired" : "/console/sign-in",
            cookies: expired ? [Self.cookie(Self.sessionCookie, "", path: "/console", maxAge: 0)] : [])
    }

    func forbidden(_ identity: ConsoleIdentity?, _ message: String) -> Response {
        ConsoleLayout.response(
            ConsoleLayout.page(
                title: "Not allowed", projectID: services.projectID, identity: identity, notice: .error(message),
                body: "<h1>Not allowed</h1><p><a href=\"/console/users\">Back to the users</a></p>"),
            status: .forbidden)
    }

    func notFound(_ identity: ConsoleIdentity?, _ message: String) -> Response {
        ConsoleLayout.response(
            ConsoleLayout.page(
                title: "Not found", projectID: services.projectID, identity: identity, notice: .error(message),
                body: "<h1>Not found</h1><p><a href=\"/console/settings\">Back to the project's settings</a></p>"),
            status: .notFound)
    }

    func crossSite() -> Response {
        ConsoleLayout.response(
            ConsoleLayout.page(
                title: "Refused", projectID: services.projectID, identity: nil,
                notice: .error("This request came from another site, so it was refused. Use the console's own pages."),
                body: "<h1>Refused</h1>"),
            status: .forbidden)
    }

    // MARK: Requests

    /// The form of a `POST` (`application/x-www-form-urlencoded`), the first value of each name; `nil` when it is
    /// too large or not a form.
    func form(_ request: Request) async throws -> [String: String]? {
        var request = request
        guard let body = try? await request.collectBody(upTo: Self.maximumFormBytes) else { return nil }
        guard let pairs = FormEncoding.pairs(String(decoding: body.readableBytesView, as: UTF8.self)) else { return nil }
        return FormEncoding.firstValues(pairs)
    }

    /// The value of cookie `name`.
    func cookie(_ name: String, of request: Request) -> String? {
        for header in request.headers[values: .cookie] {
            for part in header.split(separator: ";") {
                let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                if pair.count == 2, pair[0] == name { return String(pair[1]) }
            }
        }
        return nil
    }

    /// A `Set-Cookie` value: never readable by script, sent only over HTTPS (and to this machine), never with a request
    /// another site started.
    static func cookie(_ name: String, _ value: String, path: String, maxAge: Int?) -> String {
        "\(name)=\(value); Path=\(path)\(maxAge.map { "; Max-Age=\($0)" } ?? ""); HttpOnly; Secure; SameSite=Strict"
    }

    // MARK: Messages

    static var malformed: String { "The form could not be read. Reload the page and try again." }
    static var wrongFormToken: String { "The form has expired or did not come from this console. Reload the page and try again." }

    static func roleTooLow(_ needed: OperatorRecord.Role) -> String {
        "Your role may not do this: it needs an \(needed == .owner ? "owner" : "editor")."
    }

    static func lockedOut(_ error: HearthError) -> String {
        let minutes = max(1, ((error.retryAfter ?? 60) + 59) / 60)
        return "Too many wrong attempts. Try again in \(minutes) minute\(minutes == 1 ? "" : "s")."
    }
}

/// Lets a signed-in operator and development mode's local browser see `/console/status`, and otherwise answers as the
/// admin API does (an administrator's bearer credential opens it).
struct StatusAccess<Context: RequestContext & RemoteAddressRequestContext, Administrators: RouterMiddleware>: RouterMiddleware
where Administrators.Context == Context {
    let console: ConsoleRoutes<Context>
    let administrators: Administrators

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.headers[.authorization] == nil, try await console.identity(request, context: context) != nil {
            return try await next(request, context)
        }
        return try await administrators.handle(request, context: context, next: next)
    }
}
