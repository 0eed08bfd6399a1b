import Foundation
import HearthCore
import Hummingbird

/// `/console/activity`: the audit trail newest first, filtered by kind, user, operator and time range (all in the
/// query string, so a filtered view can be bookmarked), 50 events a page from the store's keyset cursor; above it the
/// charts of sign-ups and sign-ins per day by provider and of failures per day, counted in SQL. The tenant switcher's
/// `tenant` shows that tenant's trail instead of the project's.
struct ConsoleActivityPage<Context: RequestContext & RemoteAddressRequestContext>: Sendable {
    let console: ConsoleRoutes<Context>
    var services: ConsoleServices { console.services }

    static var pageSize: Int { 50 }
    /// The kinds counted as failures in their chart.
    static var failures: [AuditEvent.Kind] { AuditDayCounts.chartedFailures }

    @Sendable func list(_ request: Request, context: Context, identity: ConsoleIdentity) async throws -> Response {
        try await console.inSettingsScope(request.uri.queryParameters.get("tenant"), identity) { scope in
            try await list(request, identity: identity, scope: scope)
        }
    }

    /// The page of `scope`'s events (the tenant switcher's: the project's or one tenant's), its store reading that
    /// scope's trail alone; links, the filters' form and the pager keep the tenant.
    func list(_ request: Request, identity: ConsoleIdentity, scope: ConsoleSettingsScope) async throws -> Response {
        var parameters: [String: String] = [:]
        for (name, value) in request.uri.queryParameters where parameters[String(name)] == nil { parameters[String(name)] = String(value) }
        let query = ActivityQuery(parameters, today: AuditDayCount.day(of: services.clock.now))
        let store = scope.useCases.store
        var events = try await store.auditEvents(matching: query.filter, after: query.cursor, limit: Self.pageSize + 1)
        var next: String?
        if events.count > Self.pageSize {
            events.removeLast()
            next = events.last.map { AuditCursor(after: $0).token }
        }
        let counts = try await AuditDayCounts.counts(
            kinds: AuditDayCounts.chartedKinds, days: query.chartDays, store: store, now: services.clock.now)
        let method = { (count: AuditDayCount) in count.method ?? "unknown" }
        let charts = [
            ActivityChart(
                id: "sign-ups", title: "Sign-ups per day", days: query.chartDays, counts: counts.filter { $0.kind == .signedUp }, name: method),
            ActivityChart(
                id: "sign-ins", title: "Sign-ins per day", days: query.chartDays, counts: counts.filter { $0.kind == .signedIn }, name: method),
            ActivityChart(
                id: "failures", title: "Failures per day", days: query.chartDays, counts: counts.filter { Self.failures.contains($0.kind) },
                name: { $0.kind.rawValue }),
        ]
        var body = "<h1>Activity\(scope.tenantID == nil ? "" : " of " + ConsoleHTML.value(scope.name))</h1>\n" + form(query, scope: scope)
        body += "<div class=\"charts\">\(charts.map(\.html).joined())</div>\n<h2 id=\"events\">Events</h2>\n"
        if events.isEmpty {
            body += "<p class=\"muted\" id=\"empty\">No events\(query.filterQuery.isEmpty ? "" : " match these filters").</p>"
        } else {
            body += ConsoleUserPage.eventTable(events, usersQuery: scope.query)
        }
        if let next {
            let filters = query.filterQuery + (scope.tenantID.map { ["tenant=\(ConsoleHTML.queryValue($0))"] } ?? [])
            let newest = "/console/activity" + (filters.isEmpty ? "" : "?" + filters.joined(separator: "&amp;"))
            body += """
                <nav class="pager" aria-label="Pages"><a href="\(newest)">Newest</a>\
                <a id="next" rel="next" href="/console/activity?\((["after=\(ConsoleHTML.queryValue(next))"] + filters).joined(separator: "&amp;"))">Older events</a></nav>
                """
        }
        let notice = query.problems.isEmpty ? nil : ConsoleLayout.Notice.error(query.problems.joined(separator: " "))
        return ConsoleLayout.response(
            ConsoleLayout.page(
                title: "Activity", projectID: services.projectID, identity: identity, current: "/console/activity",
                switcher: scope.switcher(path: "/console/activity"), notice: notice, body: body))
    }

    /// The filters' form: a `GET`, so that the result's address is the bookmark.
    func form(_ query: ActivityQuery, scope: ConsoleSettingsScope) -> String {
        let options =
            ["<option value=\"\">every kind</option>"]
            + AuditEvent.Kind.known.map { known in
                let selected = known == query.filter.kind ? " selected" : ""
                return "<option value=\"\(ConsoleHTML.escape(known.rawValue))\"\(selected)>\(ConsoleHTML.escape(known.rawValue))</option>"
            }
        return """
            <form class="search" method="get" action="/console/activity" role="search" aria-label="Filter the events">\(scope.field)
            <div class="field"><label for="kind">Kind</label><select id="kind" name="kind">\(options.joined())</select></div>
            <div class="field"><label for="uid">User <span class="hint">uid</span></label>
            <input type="search" id="uid" name="uid" value="\(ConsoleHTML.escape(query.uid))"></div>
            <div class="field"><label for="actor">Operator <span class="hint">e-mail, or an administrator's id</span></label>
            <input type="search" id="actor" name="actor" value="\(ConsoleHTML.escape(query.actor))"></div>
            <div class="field narrow"><label for="from">From <span class="hint">UTC</span></label>
            <input type="date" id="from" name="from" value="\(ConsoleHTML.escape(query.fromText))"></div>
            <div class="field narrow"><label for="to">To <span class="hint">included</span></label>
            <input type="date" id="to" name="to" value="\(ConsoleHTML.escape(query.toText))"></div>
            <button type="submit">Show</button>
            </form>

            """
    }
}
