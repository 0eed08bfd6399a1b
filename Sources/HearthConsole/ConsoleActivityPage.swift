import Foundation
import HearthCore
import Hummingbird

/// `/console/activity`: the audit trail newest first, filtered by kind and by user, 50 events a page.
struct ConsoleActivityPage<Context: RequestContext & RemoteAddressRequestContext>: Sendable {
    let console: ConsoleRoutes<Context>
    var services: ConsoleServices { console.services }

    static var pageSize: Int { 50 }

    @Sendable func list(_ request: Request, context: Context, identity: ConsoleIdentity) async throws -> Response {
        let parameters = request.uri.queryParameters
        let kindName = String(parameters.get("kind") ?? "")
        let kind = AuditEvent.Kind.known.first { $0.rawValue == kindName }
        let uid = String(parameters.get("uid") ?? "").trimmingCharacters(in: .whitespaces)
        var notice: ConsoleLayout.Notice?
        if !kindName.isEmpty, kind == nil { notice = .error("There is no event kind “\(kindName)”; showing every kind.") }
        var cursor: AuditCursor?
        if let token = parameters.get("after") {
            cursor = AuditCursor(token: String(token))
            if cursor == nil { notice = .error("That page link is not one this console made; here is the first page.") }
        }
        var events: [AuditEvent] = []
        if uid.isEmpty || (UserText.isStorable(uid) && uid.utf8.count <= 1_024) {
            events = try await services.store.auditEvents(uid: uid.isEmpty ? nil : uid, kind: kind, after: cursor, limit: Self.pageSize + 1)
        }
        var next: String?
        if events.count > Self.pageSize {
            events.removeLast()
            next = events.last.map { AuditCursor(after: $0).token }
        }
        let options =
            ["<option value=\"\">every kind</option>"]
            + AuditEvent.Kind.known.map { known in
                "<option value=\"\(ConsoleHTML.escape(known.rawValue))\"\(known == kind ? " selected" : "")>\(ConsoleHTML.escape(known.rawValue))</option>"
            }
        var body = """
            <h1>Activity</h1>
            <form class="search" method="get" action="/console/activity" role="search">
            <div class="field"><label for="kind">Kind</label><select id="kind" name="kind">\(options.joined())</select></div>
            <div class="field"><label for="uid">User <span class="hint">uid</span></label>
            <input type="search" id="uid" name="uid" value="\(ConsoleHTML.escape(uid))"></div>
            <button type="submit">Show</button>
            </form>

            """
        if events.isEmpty {
            body += "<p class=\"muted\" id=\"empty\">No events.</p>"
        } else {
            body += ConsoleUserPage.eventTable(events, linksUsers: true)
        }
        if let next {
            var query = ["after=\(ConsoleHTML.queryValue(next))"]
            if let kind { query.append("kind=\(ConsoleHTML.queryValue(kind.rawValue))") }
            if !uid.isEmpty { query.append("uid=\(ConsoleHTML.queryValue(uid))") }
            body += """
                <nav class="pager" aria-label="Pages"><a href="/console/activity">Newest</a>\
                <a id="next" rel="next" href="/console/activity?\(query.joined(separator: "&amp;"))">Older events</a></nav>
                """
        }
        return ConsoleLayout.response(
            ConsoleLayout.page(
                title: "Activity", projectID: services.projectID, identity: identity, current: "/console/activity", notice: notice, body: body))
    }
}
