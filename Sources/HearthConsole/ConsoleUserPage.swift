import Foundation
import HearthCore

/// The HTML of one user's page: profile, providers, second factors, passkeys, custom claims, sessions, events, and the
/// forms of the changes an editor may make (a viewer sees the same without the forms).
struct ConsoleUserPage {
    let user: UserRecord
    /// The user's passkeys, oldest first.
    var passkeys: [PasskeyCredential]
    let events: [AuditEvent]
    let identity: ConsoleIdentity
    /// An e-mail action link just made for the operator to copy.
    var link: String?
    /// Whose user this is: every form carries the tenant.
    var scope: ConsoleSettingsScope

    var edits: Bool { identity.role.permits(.editor) }
    var base: String { "/console/users/\(ConsoleHTML.pathSegment(user.uid))" }
    /// What every form carries: the session's form token and the tenant.
    var hidden: String { ConsoleLayout.csrfField(identity) + scope.field }

    func render() -> String {
        var html = "<h1 id=\"title\">\(ConsoleUserSummary.identifier(user))</h1>\n"
        html += "<p>\(ConsoleUserSummary.badges(user))</p>\n"
        if let link {
            html += """
                <section class="panel" id="link" aria-labelledby="link-title"><h2 id="link-title">The link</h2>
                <div class="field"><label for="action-link">Copy it to the user; it works once and expires like a mailed one</label>
                <input type="text" id="action-link" readonly value="\(ConsoleHTML.escape(link))"></div></section>

                """
        }
        html += profile() + providers() + secondFactors() + passkeyTable() + claims() + sessions()
        if edits { html += changes() }
        html += activity()
        return html
    }

    func form(_ action: String, _ fields: String, button: String, style: String = "", label: String? = nil) -> String {
        """
        <form class="inline" method="post" action="\(base)/\(action)">\(hidden)\(fields)\
        <button type="submit"\(style.isEmpty ? "" : " class=\"\(style)\"")\(label.map { " aria-label=\"\(ConsoleHTML.escape($0))\"" } ?? "")>\(button)</button></form>
        """
    }

    func profile() -> String {
        let rows: [(String, String)] = [
            ("Uid", "<code id=\"uid\">\(ConsoleHTML.value(user.uid))</code>"),
            ("E-mail", ConsoleHTML.value(user.email) + (user.email == nil ? "" : user.emailVerified ? " (verified)" : " (not verified)")),
            ("Phone", ConsoleHTML.value(user.phoneNumber)),
            ("Display name", "<span id=\"display-name\">\(ConsoleHTML.value(user.displayName))</span>"),
            ("Photo URL", ConsoleHTML.value(user.photoURL)),
            (
                "Password",
                user.passwordHash == nil
                    ? "<span class=\"muted\">none</span>" : "set, \(ConsoleHTML.time(user.passwordUpdatedAt, empty: "at import"))"
            ),
            ("Created", ConsoleHTML.time(user.createdAt)),
            ("Last sign-in", ConsoleHTML.time(user.lastLoginAt)),
            ("Last token refresh", ConsoleHTML.time(user.lastRefreshAt)),
            ("Disabled", user.disabled ? "<strong>yes</strong>" : "no"),
        ]
        return section("profile", "Profile", dl(rows))
    }

    func providers() -> String {
        var body = ""
        let links = user.providers
        let native = ConsoleUserSummary.linkedProviders(user).subtracting(links.map(\.providerID)).sorted()
        if links.isEmpty && native.isEmpty { return section("providers", "Linked providers", "<p class=\"muted\">None.</p>") }
        body += "<div class=\"scroll\"><table><thead><tr><th scope=\"col\">Provider</th><th scope=\"col\">Provider's uid</th>"
        body +=
            "<th scope=\"col\">E-mail</th><th scope=\"col\">Name</th>\(edits ? "<th scope=\"col\"><span class=\"muted\">Change</span></th>" : "")</tr></thead><tbody>\n"
        for provider in native {
            body +=
                "<tr><td>\(ProviderIcon.labelled(provider))</td><td>–</td><td>\(provider == "password" ? ConsoleHTML.value(user.email) : "–")</td><td>–</td>"
            if edits { body += "<td>\(unlink(provider))</td>" }
            body += "</tr>\n"
        }
        for link in links {
            body += """
                <tr><td>\(ProviderIcon.labelled(link.providerID, limit: 60))</td><td><code>\(ConsoleHTML.value(link.rawID, limit: 60))</code></td>\
                <td>\(ConsoleHTML.value(link.email))</td><td>\(ConsoleHTML.value(link.displayName, limit: 80))</td>
                """
            if edits { body += "<td>\(unlink(link.providerID))</td>" }
            body += "</tr>\n"
        }
        body += "</tbody></table></div>"
        return section("providers", "Linked providers", body)
    }

    func unlink(_ provider: String) -> String {
        form(
            "unlink", "<input type=\"hidden\" name=\"provider\" value=\"\(ConsoleHTML.escape(provider))\">", button: "Unlink", style: "secondary",
            label: "Unlink \(provider)")
    }

    func secondFactors() -> String {
        guard !user.secondFactors.isEmpty else { return section("factors", "Second factors", "<p class=\"muted\">None enrolled.</p>") }
        var body = "<div class=\"scroll\"><table><thead><tr><th scope=\"col\">Kind</th><th scope=\"col\">Name</th><th scope=\"col\">Phone</th>"
        body +=
            "<th scope=\"col\">Enrolled</th><th scope=\"col\">Id</th>\(edits ? "<th scope=\"col\"><span class=\"muted\">Change</span></th>" : "")</tr></thead><tbody>\n"
        for factor in user.secondFactors {
            body += """
                <tr><td>\(factor.kind.rawValue)</td><td>\(ConsoleHTML.value(factor.displayName, limit: 80))</td>\
                <td>\(ConsoleHTML.value(factor.phoneNumber))</td><td>\(ConsoleHTML.time(factor.enrolledAt))</td><td><code>\(ConsoleHTML.value(factor.id))</code></td>
                """
            if edits {
                body += "<td>"
                body += form(
                    "remove-factor", "<input type=\"hidden\" name=\"enrollment\" value=\"\(ConsoleHTML.escape(factor.id))\">", button: "Remove",
                    style: "secondary", label: "Remove the \(factor.kind.rawValue) factor \(factor.displayName ?? factor.id)")
                body += "</td>"
            }
            body += "</tr>\n"
        }
        body += "</tbody></table></div>"
        body += "<p class=\"muted\">\(user.recoveryCodeHashes.count) recovery code(s) left.</p>"
        return section("factors", "Second factors", body)
    }

    /// The passkeys: each one's name, credential id (its start shown, the whole in the title), creation and last use; an
    /// editor's form removes one, as the admin API's `deletePasskey` does.
    func passkeyTable() -> String {
        guard !passkeys.isEmpty else { return section("passkeys", "Passkeys", "<p class=\"muted\" id=\"no-passkeys\">None enrolled.</p>") }
        var body = "<div class=\"scroll\"><table id=\"passkey-table\"><thead><tr><th scope=\"col\">Name</th><th scope=\"col\">Credential id</th>"
        body +=
            "<th scope=\"col\">Created</th><th scope=\"col\">Last used</th>\(edits ? "<th scope=\"col\"><span class=\"muted\">Change</span></th>" : "")</tr></thead><tbody>\n"
        for passkey in passkeys {
            let id = ConsoleHTML.escape(passkey.credentialID)
            let short = passkey.credentialID.count > 16 ? ConsoleHTML.escape(String(passkey.credentialID.prefix(16))) + "…" : id
            body += """
                <tr><td>\(ConsoleHTML.value(passkey.name, limit: 80))</td>\
                <td><code title="\(id)" aria-label="Credential id \(id)">\(short)</code></td>\
                <td>\(ConsoleHTML.time(passkey.createdAt))</td><td>\(ConsoleHTML.time(passkey.lastUsedAt))</td>
                """
            if edits {
                body += "<td>"
                body += form(
                    "remove-passkey", "<input type=\"hidden\" name=\"credential\" value=\"\(id)\">", button: "Remove", style: "secondary",
                    label: "Remove the passkey \(passkey.name)")
                body += "</td>"
            }
            body += "</tr>\n"
        }
        body += "</tbody></table></div>"
        return section("passkeys", "Passkeys", body)
    }

    func claims() -> String {
        var body =
            user.customAttributes.map { "<pre id=\"claims-now\">\(ConsoleHTML.escape(String($0.prefix(2_000))))</pre>" }
            ?? "<p class=\"muted\">None.</p>"
        if edits {
            body += """
                <form class="stack" method="post" action="\(base)/claims">\(hidden)
                <div class="field"><label for="claims">New claims <span class="hint">a JSON object of at most 1,000 bytes, copied into the \
                user's ID tokens; empty removes them</span></label>
                <textarea id="claims" name="claims" spellcheck="false">\(ConsoleHTML.escape(user.customAttributes ?? ""))</textarea></div>
                <button type="submit">Save claims</button>
                </form>
                """
        }
        return section("claims", "Custom claims", body)
    }

    func sessions() -> String {
        var body = dl([("Tokens valid since", ConsoleHTML.time(user.validSince))])
        body += "<p class=\"muted\">ID and refresh tokens issued before this time are refused.</p>"
        if edits { body += form("revoke-sessions", "", button: "Revoke all sessions", style: "secondary") }
        return section("sessions", "Sessions", body)
    }

    func changes() -> String {
        let disable =
            user.disabled
            ? form("enable", "", button: "Enable") : form("disable", "", button: "Disable", style: "danger")
        return section(
            "changes", "Changes",
            """
            <div class="actions">
            <div><p>\(user.disabled ? "The user cannot sign in." : "Disabling stops every sign-in and refresh.")</p>\(disable)</div>
            <form class="stack" method="post" action="\(base)/password">\(hidden)
            <div class="field"><label for="new-password">New password <span class="hint">at least 6 characters</span></label>
            <input type="password" id="new-password" name="password" autocomplete="new-password" required></div>
            <button type="submit">Set password</button>
            </form>
            <form class="stack" method="post" action="\(base)/email-link">\(hidden)
            <div class="field"><label for="link-kind">E-mail action</label>
            <select id="link-kind" name="kind"><option value="passwordReset">password reset</option>\
            <option value="verifyEmail">e-mail verification</option></select></div>
            <div class="actions"><button type="submit" name="delivery" value="mail"\(user.email == nil ? " disabled" : "")>Send the mail</button>\
            <button type="submit" name="delivery" value="link" class="secondary"\(user.email == nil ? " disabled" : "")>Show the link</button></div>
            </form>
            <form class="stack" method="post" action="\(base)/delete">\(hidden)
            <div class="field"><label for="confirm">Delete: type the uid\(user.email == nil ? "" : " or e-mail") to confirm</label>
            <input type="text" id="confirm" name="confirm" autocomplete="off" required></div>
            <button type="submit" class="danger">Delete this user</button>
            </form>
            </div>
            """)
    }

    func activity() -> String {
        guard !events.isEmpty else { return section("events", "Events", "<p class=\"muted\">No events.</p>") }
        return section("events", "Events", Self.eventTable(events, usersQuery: nil))
    }

    /// A table of audit events; with `linksUsers`, each event's uid links to the user's page.
    /// The events as a table; with `usersQuery` (the scope's `?tenant=…`, or empty), a column linking each event's user.
    static func eventTable(_ events: [AuditEvent], usersQuery: String?) -> String {
        let linksUsers = usersQuery != nil
        var body = "<div class=\"scroll\"><table id=\"event-table\"><thead><tr><th scope=\"col\">Time</th><th scope=\"col\">Event</th>"
        if linksUsers { body += "<th scope=\"col\">User</th>" }
        body +=
            "<th scope=\"col\">By</th><th scope=\"col\">How</th><th scope=\"col\">Address</th><th scope=\"col\">Details</th></tr></thead><tbody>\n"
        for event in events {
            let by = event.actorID.map { "\(event.actor.rawValue) <bdi>\(ConsoleHTML.escape($0))</bdi>" } ?? event.actor.rawValue
            let details = event.details.sorted { $0.key < $1.key }.map { "\(ConsoleHTML.escape($0.key))=\(ConsoleHTML.value($0.value, limit: 80))" }
            body += "<tr><td>\(ConsoleHTML.time(event.time))</td><td><code>\(ConsoleHTML.escape(event.kind.rawValue))</code></td>"
            if linksUsers {
                let user = event.uid.map {
                    "<a href=\"/console/users/\(ConsoleHTML.pathSegment($0))\(usersQuery ?? "")\"><code>\(ConsoleHTML.value($0, limit: 40))</code></a>"
                }
                body += "<td>\(user ?? "")</td>"
            }
            body += """
                <td>\(by)</td><td>\(ConsoleHTML.value(event.method, empty: ""))</td><td>\(ConsoleHTML.value(event.clientAddress, empty: ""))</td>\
                <td>\(details.joined(separator: "<br>"))</td></tr>

                """
        }
        body += "</tbody></table></div>"
        return body
    }

    func section(_ id: String, _ title: String, _ body: String) -> String {
        "<section class=\"panel\" id=\"\(id)\" aria-labelledby=\"\(id)-title\"><h2 id=\"\(id)-title\">\(title)</h2>\n\(body)\n</section>\n"
    }

    func dl(_ rows: [(String, String)]) -> String {
        "<dl>" + rows.map { "<dt>\($0.0)</dt><dd>\($0.1)</dd>" }.joined() + "</dl>"
    }
}
