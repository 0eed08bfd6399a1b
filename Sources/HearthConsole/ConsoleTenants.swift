import Foundation
import HearthCore
import Hummingbird

/// The project's tenants on the settings pages: the project's page lists them with a form to create one, a tenant's
/// page has forms to rename it and to delete it (typing its id to confirm). Only an owner changes them, each through
/// HearthCore's ``TenantChanges`` (the admin API's `…/tenants` use case, so the same rules and audit events).
struct ConsoleTenants<Context: RequestContext & RemoteAddressRequestContext>: Sendable {
    let console: ConsoleRoutes<Context>
    var settings: ConsoleSignInSettings { console.services.signInSettings }
    var page: ConsoleSettingsPage<Context> { ConsoleSettingsPage(console: console) }

    static var path: String { ConsoleSettingsPage<Context>.path + "/tenants" }

    /// `POST /console/settings/tenants`: a new tenant, shown with its settings page.
    @Sendable func create(_ request: Request, context: Context, identity: ConsoleIdentity, form: [String: String]) async throws -> Response {
        let typed = form["display-name"] ?? ""
        do {
            let name = try ConsoleFormInput.line(form, "display-name", label: "The display name", limit: 200) ?? ""
            let tenant = try await settings.tenants.create(displayName: name, from: console.origin(request, context, identity)) { _ in }
            return ConsoleLayout.redirect(ConsoleSettingsPage<Context>.path + "?tenant=\(ConsoleHTML.queryValue(tenant.id))&created=tenant")
        } catch let error as ConsoleInputError {
            return try await refused(nil, identity, error.message, typedName: typed)
        } catch let error as HearthError where error.code == .invalidArgument {
            return try await refused(nil, identity, Self.badName, typedName: typed)
        }
    }

    /// `POST /console/settings/tenants/{tenant}/{rename|delete}`.
    @Sendable func change(_ request: Request, context: Context, identity: ConsoleIdentity, form: [String: String]) async throws -> Response {
        let action = context.parameters.get("action") ?? ""
        return try await console.inSettingsScope(context.parameters.get("tenant") ?? "", identity) { scope in
            guard let tenantID = scope.tenantID else { return console.notFound(identity, ConsoleMessages.settingsText(HearthError(.tenantNotFound))) }
            let origin = console.origin(request, context, identity)
            do {
                switch action {
                case "rename":
                    let name = try ConsoleFormInput.line(form, "display-name", label: "The display name", limit: 200) ?? ""
                    try await settings.tenants.rename(id: tenantID, to: name, from: origin)
                    return ConsoleLayout.redirect(ConsoleSettingsPage<Context>.path + scope.query + "&saved=tenant#tenant")
                case "delete":
                    guard (form["confirm"] ?? "").trimmingCharacters(in: .whitespaces) == tenantID else {
                        return try await refused(scope, identity, Self.confirmDeletion)
                    }
                    try await settings.tenants.delete(id: tenantID, from: origin)
                    return ConsoleLayout.redirect(ConsoleSettingsPage<Context>.path + "?deleted=tenant#tenants")
                default:
                    return console.notFound(identity, ConsoleSettingsPage<Context>.noSection)
                }
            } catch let error as ConsoleInputError {
                return try await refused(scope, identity, error.message)
            } catch let error as HearthError where error.code == .invalidArgument {
                return try await refused(scope, identity, Self.badName)
            } catch let error as HearthError where error.code == .tenantNotFound {
                return console.notFound(identity, ConsoleMessages.settingsText(error))
            }
        }
    }

    /// The settings page of `scope` (`nil`: the project's) with `message` as its error.
    func refused(_ scope: ConsoleSettingsScope?, _ identity: ConsoleIdentity, _ message: String, typedName: String = "") async throws -> Response {
        let shown: ConsoleSettingsScope
        if let scope { shown = scope } else { shown = try await ConsoleSettingsScope.named(nil, in: settings) }
        return try await page.page(shown, identity: identity, notice: .error(message), status: .badRequest, typedName: typedName)
    }

    static var badName: String { "A tenant's display name is 4 to 20 characters: a letter first, then letters, digits and hyphens." }
    static var confirmDeletion: String { "To delete this tenant and all its users, type its id exactly." }

    // MARK: The sections

    /// The project's page: the tenants (those the switcher lists) and, for an owner, the form that makes one;
    /// `typedName` is a refused name shown again.
    static func list(_ scope: ConsoleSettingsScope, identity: ConsoleIdentity, typedName: String) -> String {
        var body = ""
        if scope.tenants.isEmpty {
            body += "<p class=\"muted\" id=\"no-tenants\">No tenants: every user is the project's.</p>"
        } else {
            body += """
                <div class="scroll"><table id="tenant-table"><thead><tr><th scope="col">Display name</th><th scope="col">Id</th>\
                <th scope="col">Created</th><th scope="col">Sign-ins</th></tr></thead><tbody>

                """
            for tenant in scope.tenants {
                let query = "?tenant=\(ConsoleHTML.queryValue(tenant.id))"
                body += """
                    <tr><td><a href="\(ConsoleSettingsPage<Context>.path)\(query)">\(ConsoleHTML.value(tenant.displayName, limit: 60))</a></td>\
                    <td><code>\(ConsoleHTML.value(tenant.id, limit: 70))</code></td><td>\(ConsoleHTML.time(tenant.createdAt))</td>\
                    <td>\(tenant.disabled ? "<span class=\"badge bad\">off</span>" : "on") · <a href="/console/users\(query)">users</a></td></tr>

                    """
            }
            body += "</tbody></table></div>"
            if scope.tenants.count >= ConsoleSettingsScope.listed { body += "<p class=\"muted\">The first \(ConsoleSettingsScope.listed) by id.</p>" }
        }
        if identity.role.permits(.owner) {
            body += """
                <form class="stack" method="post" action="\(path)">\(ConsoleLayout.csrfField(identity))
                <div class="field"><label for="tenant-name">New tenant's display name <span class="hint">4 to 20 characters: a letter \
                first, then letters, digits and hyphens; its id is made from it</span></label>
                <input type="text" id="tenant-name" name="display-name" required value="\(ConsoleHTML.escape(typedName))"></div>
                <button type="submit">Create the tenant</button>
                </form>
                """
        }
        return section("tenants", "Tenants", body)
    }

    /// A tenant's page: its name and id, and for an owner the forms that rename and delete it.
    static func tenant(_ tenant: TenantRecord, identity: ConsoleIdentity) -> String {
        let base = "\(path)/\(ConsoleHTML.pathSegment(tenant.id))"
        var body = """
            <dl><dt>Display name</dt><dd id="tenant-display-name">\(ConsoleHTML.value(tenant.displayName))</dd>\
            <dt>Id</dt><dd><code id="tenant-id">\(ConsoleHTML.value(tenant.id))</code></dd>\
            <dt>Created</dt><dd>\(ConsoleHTML.time(tenant.createdAt))</dd></dl>
            <p><a href="/console/users?tenant=\(ConsoleHTML.queryValue(tenant.id))">This tenant's users</a> · \
            <a href="/console/activity?tenant=\(ConsoleHTML.queryValue(tenant.id))">its activity</a></p>
            """
        if identity.role.permits(.owner) {
            body += """
                <div class="actions">
                <form class="stack" method="post" action="\(base)/rename">\(ConsoleLayout.csrfField(identity))
                <div class="field"><label for="tenant-rename">Display name <span class="hint">4 to 20 characters: a letter first, \
                then letters, digits and hyphens; the id stays</span></label>
                <input type="text" id="tenant-rename" name="display-name" required value="\(ConsoleHTML.escape(tenant.displayName))"></div>
                <button type="submit">Rename</button>
                </form>
                <form class="stack" method="post" action="\(base)/delete">\(ConsoleLayout.csrfField(identity))
                <div class="field"><label for="tenant-confirm">Delete the tenant with all its users: type its id to confirm</label>
                <input type="text" id="tenant-confirm" name="confirm" autocomplete="off" required></div>
                <button type="submit" class="danger">Delete this tenant</button>
                </form>
                </div>
                """
        }
        return section("tenant", "This tenant", body)
    }

    static func section(_ id: String, _ title: String, _ body: String) -> String {
        "<section class=\"panel\" id=\"\(id)\" aria-labelledby=\"\(id)-title\"><h2 id=\"\(id)-title\">\(title)</h2>\n\(body)\n</section>\n"
    }
}
