import Foundation
import HearthCore
import Hummingbird

/// `/console/operators`, an owner's: who may sign in to the console, with their roles, and removing one (adding one
/// shows a secret and recovery codes once, so it stays `hearth console add-operator`'s).
struct ConsoleOperatorsPage<Context: RequestContext & RemoteAddressRequestContext>: Sendable {
    let console: ConsoleRoutes<Context>
    var services: ConsoleServices { console.services }

    @Sendable func list(_ request: Request, context: Context, identity: ConsoleIdentity) async throws -> Response {
        let removed = request.uri.queryParameters.get("removed") != nil
        return try await page(identity: identity, notice: removed ? .done("The operator was removed; their sessions ended.") : nil)
    }

    func page(identity: ConsoleIdentity, notice: ConsoleLayout.Notice?, status: HTTPResponse.Status = .ok) async throws -> Response {
        let operators = try await services.operators.list()
        var body = """
            <h1>Operators</h1>
            <p class="muted">Add one with <code>hearth console add-operator EMAIL --role viewer|editor|owner</code>: it prints their \
            authenticator secret and recovery codes once.</p>

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
                body += """
                    <tr><td>\(ConsoleHTML.value(record.email))</td><td>\(record.role.rawValue)</td><td>\(ConsoleHTML.time(record.createdAt))</td>\
                    <td>\(ConsoleHTML.time(record.lastSignInAt))</td><td>\(record.recoveryCodeHashes.count)</td><td>\(remove)</td></tr>

                    """
            }
            body += "</tbody></table></div>"
        }
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
