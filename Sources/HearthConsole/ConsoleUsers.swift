import Foundation
import HearthCore
import Hummingbird

/// `/console/users`: the listing and search, a user's page, and the changes an editor makes there. Every change goes
/// through ``AdministeredAccounts`` and so records its audit event, naming the operator.
///
/// The tenant switcher's `tenant` (a query parameter, a form's hidden field) says whose users these are: the project's
/// when there is none, else that tenant's, read and changed through the tenant's own store and use cases (a user of
/// another tenant or of the project is not found there). Links, redirects and forms keep it.
struct ConsoleUsers<Context: RequestContext & RemoteAddressRequestContext>: Sendable {
    let console: ConsoleRoutes<Context>
    var services: ConsoleServices { console.services }

    /// Users on one page of the listing.
    static var pageSize: Int { 50 }

    // MARK: The listing

    @Sendable func list(_ request: Request, context: Context, identity: ConsoleIdentity) async throws -> Response {
        try await console.inSettingsScope(request.uri.queryParameters.get("tenant"), identity) { scope in
            try await list(request, identity: identity, scope: scope)
        }
    }

    func list(_ request: Request, identity: ConsoleIdentity, scope: ConsoleSettingsScope) async throws -> Response {
        let parameters = request.uri.queryParameters
        let store = scope.useCases.store
        let query = String(parameters.get("q") ?? "").trimmingCharacters(in: .whitespaces)
        let sort: UserQuery.SortKey = parameters.get("sort") == "lastSignIn" ? .lastLoginAt : .createdAt
        var users: [UserRecord]
        var next: String?
        var notice: ConsoleLayout.Notice?
        if !query.isEmpty {
            users = try await search(String(query.prefix(256)), in: scope.useCases)
        } else {
            var cursor: UserListCursor?
            if let token = parameters.get("after") {
                cursor = UserListCursor(token: String(token))
                if cursor == nil { notice = .error("That page link is not one this console made; here is the first page.") }
            }
            users = try await store.users(newestBy: sort, after: cursor, limit: Self.pageSize + 1)
            if users.count > Self.pageSize {
                users.removeLast()
                next = users.last.map { UserListCursor(after: $0, by: sort).token }
            }
        }
        if parameters.get("deleted") != nil { notice = .done("The user was deleted.") }
        let sortName = sort == .lastLoginAt ? "lastSignIn" : "created"
        var body = """
            <h1>Users of \(ConsoleHTML.value(scope.name))</h1>
            <form class="search" method="get" action="/console/users" role="search">\(scope.field)
            <div class="field"><label for="q">Search <span class="hint">e-mail or its beginning, phone (+…), uid, or provider:uid \
            (google.com:1234)</span></label>
            <input type="search" id="q" name="q" value="\(ConsoleHTML.escape(query))"></div>
            <div class="field"><label for="sort">Newest by</label>
            <select id="sort" name="sort">
            <option value="created"\(sortName == "created" ? " selected" : "")>creation</option>
            <option value="lastSignIn"\(sortName == "lastSignIn" ? " selected" : "")>last sign-in</option>
            </select></div>
            <button type="submit">Show</button>
            </form>

            """
        var links: [String] = []
        if identity.role.permits(.editor) {
            links.append("<a href=\"/console/users/new\(scope.query)\">Create a user</a>")
            links.append("<a href=\"/console/users/import\(scope.query)\">Import users</a>")
        }
        if identity.role.permits(.owner) { links.append("<a href=\"/console/users/export\(scope.query)\">Export users</a>") }
        if !links.isEmpty { body += "<p class=\"actions\">\(links.joined(separator: " "))</p>\n" }
        if users.isEmpty {
            body += query.isEmpty ? "<p class=\"muted\" id=\"empty\">No users yet.</p>" : "<p class=\"muted\" id=\"empty\">No user matches.</p>"
        } else {
            body += """
                <div class="scroll"><table class="users" id="users">
                <caption class="muted">\(users.count) user\(users.count == 1 ? "" : "s")\(query.isEmpty ? " on this page" : " found")</caption>
                <thead><tr><th scope="col">User</th><th scope="col">Providers</th><th scope="col">Created</th>\
                <th scope="col">Last sign-in</th><th scope="col">Uid</th><th scope="col">State</th></tr></thead>
                <tbody>

                """
            for user in users {
                body += """
                    <tr><td><a href="/console/users/\(ConsoleHTML.pathSegment(user.uid))\(scope.query)">\(ConsoleUserSummary.identifier(user))</a>\
                    \(user.displayName.map { "<br><span class=\"muted\">\(ConsoleHTML.value($0, limit: 60))</span>" } ?? "")</td>\
                    <td>\(ConsoleUserSummary.providers(user))</td><td data-label="Created">\(ConsoleHTML.time(user.createdAt))</td>\
                    <td data-label="Last sign-in">\(ConsoleHTML.time(user.lastLoginAt))</td>\
                    <td data-label="Uid"><code>\(ConsoleHTML.value(user.uid, limit: 40))</code></td><td>\(ConsoleUserSummary.badges(user))</td></tr>

                    """
            }
            body += "</tbody></table></div>\n"
        }
        if let next {
            body += """
                <nav class="pager" aria-label="Pages"><a href="/console/users\(scope.query)">First page</a>\
                <a id="next" rel="next" href="/console/users?sort=\(sortName)&amp;after=\(ConsoleHTML.queryValue(next))\(scope.andQuery)">Next page</a></nav>
                """
        }
        return ConsoleLayout.response(
            ConsoleLayout.page(
                title: "Users", projectID: services.projectID, identity: identity, current: "/console/users",
                switcher: scope.switcher(path: "/console/users"), notice: notice, body: body))
    }

    /// The users of `scope` that `query` finds: an e-mail's beginning, a phone number, a uid, or `provider:uid`.
    func search(_ query: String, in scope: ConsoleSignInSettings.Scope) async throws -> [UserRecord] {
        var uids: [String] = []
        var phones: [String] = []
        var identities: [AdministeredAccounts.Identity] = []
        if query.hasPrefix("+") {
            phones.append(query.filter { $0 != " " && $0 != "-" })
        } else {
            uids.append(query)
        }
        if let colon = query.firstIndex(of: ":"), colon != query.startIndex {
            identities.append(.init(providerID: String(query[..<colon]), rawID: String(query[query.index(after: colon)...])))
        }
        var found = try await scope.accounts.lookup(uids: uids, emails: [], phoneNumbers: phones, identities: identities)
        if !query.hasPrefix("+") {
            let seen = Set(found.map(\.uid))
            found += try await scope.store.users(emailPrefix: query.lowercased(), limit: Self.pageSize).filter { !seen.contains($0.uid) }
        }
        return found
    }

    // MARK: A user's page

    @Sendable func user(_ request: Request, context: Context, identity: ConsoleIdentity) async throws -> Response {
        let uid = Self.uid(context)
        let done = request.uri.queryParameters.get("done").flatMap { Self.doneMessages[String($0)] }
        return try await console.inSettingsScope(request.uri.queryParameters.get("tenant"), identity) { scope in
            try await userPage(uid: uid, scope: scope, identity: identity, notice: done.map { .done($0) })
        }
    }

    func userPage(
        uid: String, scope: ConsoleSettingsScope, identity: ConsoleIdentity, notice: ConsoleLayout.Notice?, status: HTTPResponse.Status = .ok,
        link: String? = nil
    ) async throws -> Response {
        let store = scope.useCases.store
        guard UserText.isStorable(uid), let user = try await store.user(uid: uid) else {
            return ConsoleLayout.response(
                ConsoleLayout.page(
                    title: "No such user", projectID: services.projectID, identity: identity, current: "/console/users", notice: notice,
                    body: """
                        <h1>No such user</h1><p>There is no user with this uid among the users of \(ConsoleHTML.value(scope.name)). \
                        <a href="/console/users\(scope.query)">Back to the users</a></p>
                        """),
                status: .notFound)
        }
        let events = try await store.auditEvents(uid: uid, kind: nil, after: nil, limit: 50)
        let passkeys = try await scope.useCases.accounts.store.passkeys(uid: uid)
        let html = ConsoleUserPage(user: user, passkeys: passkeys, events: events, identity: identity, link: link, scope: scope).render()
        return ConsoleLayout.response(
            ConsoleLayout.page(
                title: user.email ?? user.phoneNumber ?? user.uid, projectID: services.projectID, identity: identity, current: "/console/users",
                notice: notice, body: html),
            status: status)
    }

    // MARK: Creating a user

    @Sendable func newUser(_ request: Request, context: Context, identity: ConsoleIdentity) async throws -> Response {
        try await console.inSettingsScope(request.uri.queryParameters.get("tenant"), identity) { scope in
            ConsoleLayout.response(newUserPage(identity: identity, scope: scope, form: [:], notice: nil))
        }
    }

    func newUserPage(identity: ConsoleIdentity, scope: ConsoleSettingsScope, form: [String: String], notice: ConsoleLayout.Notice?) -> String {
        func field(_ name: String, _ label: String, _ type: String, hint: String = "") -> String {
            let value = type == "password" ? "" : " value=\"\(ConsoleHTML.escape(form[name] ?? ""))\""
            return """
                <div class="field"><label for="\(name)">\(label)\(hint.isEmpty ? "" : " <span class=\"hint\">\(hint)</span>")</label>
                <input type="\(type)" id="\(name)" name="\(name)"\(value)></div>
                """
        }
        return ConsoleLayout.page(
            title: "Create a user", projectID: services.projectID, identity: identity, current: "/console/users", notice: notice,
            body: """
                <h1>Create a user of \(ConsoleHTML.value(scope.name))</h1>
                <form class="stack panel" method="post" action="/console/users">\(ConsoleLayout.csrfField(identity))\(scope.field)
                \(field("email", "E-mail", "email"))
                \(field("password", "Password", "password", hint: "at least 6 characters; leave empty for none"))
                \(field("displayName", "Display name", "text"))
                \(field("phoneNumber", "Phone number", "text", hint: "E.164, e.g. +15551234567"))
                <div><input type="checkbox" id="emailVerified" name="emailVerified" value="true"\(form["emailVerified"] == "true" ? " checked" : "")> \
                <label for="emailVerified">E-mail verified</label></div>
                <button type="submit">Create</button>
                </form>
                """)
    }

    @Sendable func create(_ request: Request, context: Context, identity: ConsoleIdentity, form: [String: String]) async throws -> Response {
        try await console.inSettingsScope(form["tenant"], identity) { scope in
            try await create(request, context, identity, form, scope: scope)
        }
    }

    func create(_ request: Request, _ context: Context, _ identity: ConsoleIdentity, _ form: [String: String], scope: ConsoleSettingsScope)
        async throws -> Response
    {
        func nonEmpty(_ name: String) -> String? { form[name].flatMap { $0.isEmpty ? nil : $0 } }
        do {
            let now = services.clock.now
            var email: String?
            if let raw = nonEmpty("email") {
                guard let normalized = EmailAddress.normalize(raw) else { throw HearthError(.invalidEmail) }
                email = normalized
            }
            var phone: String?
            if let raw = nonEmpty("phoneNumber") {
                guard let number = PhoneNumber.validated(raw) else { throw HearthError(.invalidPhoneNumber) }
                phone = number
            }
            let password = nonEmpty("password")
            if password != nil, email == nil { throw HearthError(.missingEmail) }
            let user = UserRecord(
                uid: UserRecord.makeUID(), email: email, emailVerified: form["emailVerified"] == "true",
                displayName: try nonEmpty("displayName").map(UserText.displayName), phoneNumber: phone, createdAt: now, validSince: now)
            let created = try await scope.useCases.accounts.create(user, password: password, from: console.origin(request, context, identity))
            return ConsoleLayout.redirect("/console/users/\(ConsoleHTML.pathSegment(created.uid))?done=created\(scope.andQuery)")
        } catch let error as HearthError {
            return ConsoleLayout.response(
                newUserPage(identity: identity, scope: scope, form: form, notice: .error(ConsoleMessages.text(error))), status: .badRequest)
        }
    }

    // MARK: Changes

    @Sendable func change(_ request: Request, context: Context, identity: ConsoleIdentity, form: [String: String]) async throws -> Response {
        try await console.inSettingsScope(form["tenant"], identity) { scope in
            try await change(request, context, identity, form, scope: scope)
        }
    }

    func change(_ request: Request, _ context: Context, _ identity: ConsoleIdentity, _ form: [String: String], scope: ConsoleSettingsScope)
        async throws -> Response
    {
        let uid = Self.uid(context)
        let action = context.parameters.get("action") ?? ""
        let origin = console.origin(request, context, identity)
        let accounts = scope.useCases.accounts
        func userPage(notice: ConsoleLayout.Notice, status: HTTPResponse.Status = .ok, link: String? = nil) async throws -> Response {
            try await self.userPage(uid: uid, scope: scope, identity: identity, notice: notice, status: status, link: link)
        }
        do {
            guard UserText.isStorable(uid), let user = try await scope.useCases.store.user(uid: uid) else { throw HearthError(.userNotFound) }
            var change = AdministratorChange()
            var password: String?
            var fields: [String]
            switch action {
            case "disable", "enable":
                change.disabled = action == "disable"
                fields = ["disableUser"]
            case "revoke-sessions":
                change.validSince = Date(timeIntervalSince1970: services.clock.now.timeIntervalSince1970.rounded(.up))
                fields = ["validSince"]
            case "password":
                let typed = form["password"] ?? ""
                try PasswordPolicy.check(typed)
                guard UserText.isStorable(typed) else { throw HearthError(.weakPassword) }
                password = typed
                change.profile = ProfileUpdate(setsPassword: true)
                fields = ["password"]
            case "claims":
                let text = (form["claims"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
                change.customClaims = .some(text.isEmpty ? nil : try CustomClaims.validated(text))
                fields = ["customAttributes"]
            case "remove-factor":
                let id = form["enrollment"] ?? ""
                guard user.secondFactors.contains(where: { $0.id == id }) else { throw HearthError(.mfaEnrollmentNotFound) }
                change.secondFactors = user.secondFactors.filter { $0.id != id }.map(ConsoleUserSummary.entry)
                fields = ["mfa"]
            case "remove-passkey":
                // The admin API's deletePasskey: PASSKEY_CREDENTIAL_NOT_FOUND unless it is the user's, user.passkey_removed.
                change.removedPasskeys = [form["credential"] ?? ""]
                fields = ["deletePasskey"]
            case "unlink":
                let provider = form["provider"] ?? ""
                guard ConsoleUserSummary.linkedProviders(user).contains(provider) else { throw HearthError(.invalidProviderID, detail: provider) }
                change.profile = ProfileUpdate(deletedProviders: [provider])
                fields = ["deleteProvider"]
            case "email-link":
                let kind: ActionCodeKind = form["kind"] == "verifyEmail" ? .verifyEmail : .passwordReset
                let send = form["delivery"] == "mail"
                let link = try await scope.useCases.emailLink(kind, user, send, origin)
                await accounts.audit.record(
                    AuditEvent(
                        time: services.clock.now, kind: .adminActionLinkIssued, uid: uid, actor: .administrator, actorID: origin.actorID,
                        clientAddress: origin.address, details: ["action": kind.rawValue, "delivery": send ? "mail" : "shown"]))
                let what = kind == .verifyEmail ? "verification" : "password-reset"
                guard !send else { return try await userPage(notice: .done("The \(what) mail was sent.")) }
                return try await userPage(notice: .done("The \(what) link is below."), link: link)
            case "delete":
                let typed = (form["confirm"] ?? "").trimmingCharacters(in: .whitespaces)
                guard typed == user.uid || (user.email != nil && typed.lowercased() == user.email) else {
                    return try await userPage(
                        notice: .error("To delete this user, type its uid\(user.email == nil ? "" : " or e-mail address") exactly."),
                        status: .badRequest)
                }
                try await accounts.delete(uid: uid, from: origin)
                return ConsoleLayout.redirect("/console/users?deleted=1\(scope.andQuery)")
            default:
                return try await userPage(notice: .error("The console has no such action."), status: .notFound)
            }
            _ = try await accounts.update(uid: uid, change, password: password, fields: fields, from: origin)
            return ConsoleLayout.redirect("/console/users/\(ConsoleHTML.pathSegment(uid))?done=\(action)\(scope.andQuery)")
        } catch let error as HearthError {
            return try await userPage(notice: .error(ConsoleMessages.text(error)), status: .badRequest)
        }
    }

    /// What the confirmation says after each change.
    static var doneMessages: [String: String] {
        [
            "created": "The user was created.", "disable": "The user was disabled: they cannot sign in.",
            "enable": "The user was enabled.", "revoke-sessions": "The user's sessions were revoked: they must sign in again.",
            "password": "The password was set.", "claims": "The custom claims were saved.", "remove-factor": "The second factor was removed.",
            "remove-passkey": "The passkey was removed.", "unlink": "The provider was unlinked.",
        ]
    }

    /// The path's uid.
    static func uid(_ context: Context) -> String {
        let raw = context.parameters.get("uid") ?? ""
        return raw.removingPercentEncoding ?? raw
    }
}

/// How a user is summed up in the listing and on their page.
enum ConsoleUserSummary {
    /// E-mail, else phone, else the first provider's e-mail, else "anonymous".
    static func identifier(_ user: UserRecord) -> String {
        if let email = user.email { return ConsoleHTML.value(email, limit: 80) }
        if let phone = user.phoneNumber { return ConsoleHTML.value(phone) }
        if let other = user.providers.lazy.compactMap(\.email).first { return ConsoleHTML.value(other, limit: 80) }
        return user.isAnonymous ? "<em>anonymous</em>" : "<em>no identifier</em>"
    }

    static func providers(_ user: UserRecord) -> String {
        var ids: [String] = []
        if user.passwordHash != nil, user.email != nil { ids.append("password") }
        if user.emailLinkSignIn { ids.append("emailLink") }
        if user.phoneNumber != nil { ids.append("phone") }
        ids += user.providers.map(\.providerID)
        if ids.isEmpty { return "<span class=\"muted\">none</span>" }
        return ids.map { "<span class=\"badge\">\(ProviderIcon.labelled($0))</span>" }.joined(separator: " ")
    }

    static func badges(_ user: UserRecord) -> String {
        var badges: [String] = []
        if user.disabled { badges.append("<span class=\"badge bad\">disabled</span>") }
        if user.email != nil {
            badges.append(user.emailVerified ? "<span class=\"badge good\">verified</span>" : "<span class=\"badge warn\">unverified</span>")
        }
        if !user.secondFactors.isEmpty { badges.append("<span class=\"badge good\">MFA</span>") }
        if user.isAnonymous { badges.append("<span class=\"badge\">anonymous</span>") }
        return badges.joined(separator: " ")
    }

    /// The providers an operator may unlink: the linked identities, `password` and `phone`.
    static func linkedProviders(_ user: UserRecord) -> Set<String> {
        var ids = Set(user.providers.map(\.providerID))
        if user.passwordHash != nil, user.email != nil { ids.insert("password") }
        if user.phoneNumber != nil { ids.insert("phone") }
        return ids
    }

    /// An existing factor as the administrator's update keeps it.
    static func entry(_ factor: SecondFactorEnrollment) -> AdministeredSecondFactors.Entry {
        let enrolledAt = factor.enrolledAt.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        return switch factor.factor {
        case .phone(let number): .init(enrollmentID: factor.id, displayName: factor.displayName, enrolledAt: enrolledAt, phoneNumber: number)
        case .totp: .init(enrollmentID: factor.id, displayName: factor.displayName, enrolledAt: enrolledAt, isTOTP: true)
        }
    }

}
