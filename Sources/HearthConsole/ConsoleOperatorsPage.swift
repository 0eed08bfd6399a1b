import Foundation
import HearthCore
import Hummingbird

/// `/console/operators`, an owner's: who may sign in to the console, with their roles; adding one (their authenticator
/// secret and recovery codes shown once, as `hearth console add-operator` prints them), changing a role, removing one.
struct ConsoleOperatorsPage<Context: RequestContext & RemoteAddressRequestContext>: Sendable {
    let console: ConsoleRoutes<Context>
    var services: ConsoleServices { console.services }

    @Sendable func list(_ request: Request, context: Context, identity: ConsoleIdentity) async throws -> Response {
        let notice: ConsoleLayout.Notice? =
            if request.uri.queryParameters.get("removed") != nil {
                .done("The operator was removed; their sessions ended.")
            } else if request.uri.queryParameters.get("role") != nil {
                .done("The role was changed; it holds from their next request.")
            } else {
                nil
            }
        return try await page(identity: identity, notice: notice)
    }

    /// The page; `email` and `role` fill the form to add an operator again after a refusal.
    func page(
        identity: ConsoleIdentity, notice: ConsoleLayout.Notice?, status: HTTPResponse.Status = .ok, email: String = "",
        role: OperatorRecord.Role = .viewer
    ) async throws -> Response {
        let operators = try await services.operators.list()
        var body = """
            <h1>Operators</h1>

            """
        if operators.isEmpty {
            body += "<p class=\"muted\" id=\"empty\">No operators yet.</p>"
        } else {
            body += """
                <div class="scroll"><table id="operators"><thead><tr><th scope="col">E-mail</th><th scope="col">Role</th>\
                <th scope="col">Added</th><th scope="col">Last sign-in</th><th scope="col">Recovery codes left</th>\
                <th scope="col"><span class="muted">Change</span></th></tr></thead><tbody>

                """
            for record in operators {
                let remove =
                    record.actorID == identity.actorID
                    ? "<span class=\"muted\">you</span>"
                    : """
                    <form class="inline" method="post" action="/console/operators/remove">\(ConsoleLayout.csrfField(identity))\
                    <input type="hidden" name="email" value="\(ConsoleHTML.escape(record.email))">\
                    <button type="submit" class="secondary" aria-label="Remove \(ConsoleHTML.escape(record.email))">Remove</button></form>
                    """
                let role = record.actorID == identity.actorID ? record.role.rawValue : OperatorForms.roleForm(record, identity: identity)
                body += """
                    <tr><td>\(ConsoleHTML.value(record.email))</td><td>\(role)</td><td>\(ConsoleHTML.time(record.createdAt))</td>\
                    <td>\(ConsoleHTML.time(record.lastSignInAt))</td><td>\(record.recoveryCodeHashes.count)</td><td>\(remove)</td></tr>

                    """
            }
            body += "</tbody></table></div>"
        }
        body += OperatorForms.addForm(identity: identity, email: email, role: role)
        return ConsoleLayout.response(
            ConsoleLayout.page(
                title: "Operators", projectID: services.projectID, identity: identity, current: "/console/operators", notice: notice, body: body),
            status: status)
    }

    @Sendable func remove(_ request: Request, context: Context, identity: ConsoleIdentity, form: [String: String]) async throws -> Response {
        let email = form["email"] ?? ""
        guard EmailAddress.normalize(email).map({ "operator:\($0)" }) != identity.actorID else {
            return try await page(identity: identity, notice: .error("You cannot remove yourself."), status: .badRequest)
        }
        guard try await services.operators.remove(email: email, actorID: identity.actorID) else {
            return try await page(identity: identity, notice: .error("There is no such operator (any more)."), status: .notFound)
        }
        return ConsoleLayout.redirect("/console/operators?removed=1")
    }
}
