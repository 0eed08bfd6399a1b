import Foundation
import HearthCore
import Hummingbird

/// `/console/keys`: the token-signing keys (which signs now, when each began, stops signing and expires), and for an
/// owner a new key now, as `hearth keys rotate` makes one.
struct ConsoleKeysPage<Context: RequestContext & RemoteAddressRequestContext>: Sendable {
    let console: ConsoleRoutes<Context>
    var services: ConsoleServices { console.services }

    @Sendable func list(_ request: Request, context: Context, identity: ConsoleIdentity) async throws -> Response {
        var notice: ConsoleLayout.Notice?
        if let made = request.uri.queryParameters.get("made") {
            notice = .done("Key \(made) was made: it is published now and signs after the publish lead.")
        }
        return await page(identity: identity, notice: notice)
    }

    func page(identity: ConsoleIdentity, notice: ConsoleLayout.Notice?) async -> Response {
        let keys = await services.statusReport().keys
        var body = "<h1>Signing keys</h1>\n"
        if keys.isEmpty {
            body += "<p class=\"muted\" id=\"empty\">No keys published.</p>"
        } else {
            body += """
                <div class="scroll"><table id="keys"><thead><tr><th scope="col">Key id</th><th scope="col">State</th><th scope="col">Made</th>\
                <th scope="col">Signs from</th><th scope="col">Stops signing</th><th scope="col">Expires</th></tr></thead><tbody>

                """
            for key in keys {
                let state = key.signs ? "<span class=\"badge good\">signs now</span>" : "<span class=\"badge\">published</span>"
                body += """
                    <tr><td><code>\(ConsoleHTML.value(key.kid))</code></td><td>\(state)</td><td>\(ConsoleHTML.time(key.createdAt))</td>\
                    <td>\(ConsoleHTML.time(key.activatesAt))</td><td>\(ConsoleHTML.time(Self.bounded(key.retiresAt), empty: "at the next rotation"))</td>\
                    <td>\(ConsoleHTML.time(Self.bounded(key.expiresAt), empty: "after it stops signing"))</td></tr>

                    """
            }
            body += "</tbody></table></div>\n"
        }
        if identity.role.permits(.owner) {
            body += """
                <section class="panel" aria-labelledby="rotate-title"><h2 id="rotate-title">A new key now</h2>
                <p>The new key is published at once and signs after the publish lead, so verifiers that cache the key set learn it \
                first; the current key stays published until what it signed has expired.</p>
                <form method="post" action="/console/keys/rotate">\(ConsoleLayout.csrfField(identity))<button type="submit">Make a new key</button></form>
                </section>
                """
        }
        return ConsoleLayout.response(
            ConsoleLayout.page(title: "Keys", projectID: services.projectID, identity: identity, current: "/console/keys", notice: notice, body: body)
        )
    }

    /// `nil` for the far future an open-ended key carries (the year 3000).
    static func bounded(_ date: Date) -> Date? {
        date.timeIntervalSince1970 > 30_000_000_000 ? nil : date
    }

    @Sendable func rotate(_ request: Request, context: Context, identity: ConsoleIdentity, form: [String: String]) async throws -> Response {
        guard let kid = try await services.rotateKeys(identity.actorID) else {
            return await page(identity: identity, notice: .error("A new key is already waiting for its turn; nothing was made."))
        }
        return ConsoleLayout.redirect("/console/keys?made=\(ConsoleHTML.queryValue(kid))")
    }
}
