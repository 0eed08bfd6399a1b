import Foundation
import HearthConsole
import HearthCore
import HearthTesting
import Testing

@testable import HearthServer

/// The console's activity page against a live server (SQLite, and PostgreSQL under `HEARTH_TEST_DATABASE=postgres`):
/// each filter alone and together, bookmarkable and paged; the charts' numbers against events of known days; filters
/// that cannot be read answered with a notice.
@Suite("Console activity", .serialized)
struct ConsoleActivityTests {
    /// The live server's clock starts at 2027-01-15 08:00 UTC.
    static let today = "2027-01-15"

    /// The events of one table: its rows less the header.
    static func rows(_ body: String) -> Int {
        guard let table = body.firstMatch(of: #/<table id="event-table">(.*?)</table>/#.dotMatchesNewlines()) else { return 0 }
        return table.output.1.components(separatedBy: "<tr>").count - 2
    }

    @Test("filters by kind, user, operator and dates, alone and together; the next page keeps them; bad filters get a notice")
    func filters() async throws {
        try await ConsoleTests.withConsole { live in
            let client = try await ConsoleTests.signIn(live, try await ConsoleTests.addOperator(live, "vi@example.com", role: .viewer))
            let store = live.services.store
            let now = live.clock.now
            for index in 0..<55 {
                try await store.insertAuditEvent(
                    AuditEvent(
                        time: now.addingTimeInterval(-Double(index) * 3_600), kind: .adminUserUpdated, uid: "u\(index % 2)",
                        actor: .administrator, actorID: index.isMultiple(of: 5) ? "operator:ed@example.com" : "owner"))
            }
            try await store.insertAuditEvent(
                AuditEvent(time: now.addingTimeInterval(-10 * 86_400), kind: .signedUp, uid: "u9", actor: .user, method: "password"))

            #expect(Self.rows(try await client.get("/console/activity?kind=user.signed_up").body) == 1)
            #expect(Self.rows(try await client.get("/console/activity?uid=u9").body) == 1)
            // An operator by e-mail (any case) or by the audit trail's own id.
            #expect(Self.rows(try await client.get("/console/activity?actor=ED%40example.com").body) == 11)
            #expect(Self.rows(try await client.get("/console/activity?actor=operator%3Aed%40example.com").body) == 11)
            // 55 hourly events reach back into 2027-01-13; from and to are whole UTC days, both included.
            #expect(Self.rows(try await client.get("/console/activity?kind=admin.user_updated&from=2027-01-15&to=2027-01-15").body) == 9)
            #expect(Self.rows(try await client.get("/console/activity?kind=admin.user_updated&from=2027-01-14&to=2027-01-14").body) == 24)
            #expect(Self.rows(try await client.get("/console/activity?to=2027-01-05").body) == 1)
            #expect(Self.rows(try await client.get("/console/activity?actor=ed%40example.com&uid=u0&from=2027-01-14").body) == 4)

            // The filtered view pages with its filters kept in the link.
            let first = try await client.get("/console/activity?kind=admin.user_updated&actor=owner")
            #expect(Self.rows(first.body) == 44)
            #expect(first.body.contains("value=\"owner\"") && first.body.contains("<option value=\"admin.user_updated\" selected>"))
            let all = try await client.get("/console/activity?kind=admin.user_updated")
            let next = try #require(all.body.firstMatch(of: #/id="next" rel="next" href="([^"]+)"/#).map { String($0.output.1) })
            #expect(next.contains("&amp;kind=admin.user_updated"))
            let older = try await client.get(next.replacingOccurrences(of: "&amp;", with: "&"))
            #expect(Self.rows(older.body) == 5 && !older.body.contains("id=\"next\""))

            // What cannot be read is left out, with a notice saying so.
            let notices = [
                ("from=2027-02-30", "“2027-02-30” is not a date (YYYY-MM-DD); the “from” filter was left out."),
                ("to=yesterday", "“yesterday” is not a date (YYYY-MM-DD); the “to” filter was left out."),
                ("from=2027-01-15&to=2027-01-01", "The range ends before it begins; showing every time."),
                ("kind=no.such", "There is no event kind “no.such”; showing every kind."),
                ("uid=%00", "That uid cannot exist; showing every user."),
                ("actor=%00", "That operator cannot exist; showing everyone's events."),
                ("after=1.2", "That page link is not one this console made; here is the first page."),
                ("from=2026-01-01", "The charts show the last 92 days of the range; the list has all of it."),
            ]
            for (query, text) in notices {
                let page = try await client.get("/console/activity?\(query)")
                #expect(page.status == 200, "\(query)")
                #expect(page.body.contains(text.replacingOccurrences(of: "'", with: "&#39;")), "\(query)")
            }
            #expect(try await client.get("/console/activity?uid=nobody").body.contains("No events match these filters."))
            // Hostile filter text is shown back inert.
            let hostile = try await client.get("/console/activity?actor=%3Cscript%3Ealert(1)%3C%2Fscript%3E")
            #expect(!hostile.body.contains("<script>") && hostile.body.contains("&lt;script&gt;"))
        }
    }

    /// Waits for the server's audit chore to have finished its first pass, which counts the charts' past month when the
    /// server starts (the next pass is an hour away): the project's days are kept, and the chore's lock is free.
    static func awaitChoreCounts(_ live: LiveHearth) async throws {
        let yesterday = AuditDayCount.day(of: live.clock.now) - 1
        let store = live.services.store
        _ = try await MailDeliveryTests.eventually {
            try await store.keptAuditDayCounts(kinds: [.signedUp], days: yesterday...yesterday).counted.isEmpty ? nil : true
        }
        _ = try await MailDeliveryTests.eventually { try await store.withLeaderLock("audit-pruning") { true } }
    }

    /// Drops every kept count, so that the page counts the days again: for a test that wrote events into days the chore had
    /// already counted (a real event is never written into a completed day).
    static func forgetKeptCounts(_ live: LiveHearth) async throws {
        try await live.services.database.transactor.write { database in
            try await database.raw("DELETE FROM audit_day_counts").run()
            try await database.raw("DELETE FROM audit_counted_days").run()
        }
    }

    @Test("the charts count sign-ups and sign-ins per day by provider and failures per day, for 30 days or the range")
    func charts() async throws {
        try await ConsoleTests.withConsole { live in
            let client = try await ConsoleTests.signIn(live, try await ConsoleTests.addOperator(live, "vi@example.com", role: .viewer))
            let store = live.services.store
            let midnight = Date(timeIntervalSince1970: 1_800_000_000 - 8 * 3_600)  // 2027-01-15 00:00 UTC
            try await Self.awaitChoreCounts(live)
            func add(_ daysAgo: Double, _ kind: AuditEvent.Kind, _ method: String?, times: Int = 1) async throws {
                for _ in 0..<times {
                    try await store.insertAuditEvent(
                        AuditEvent(time: midnight.addingTimeInterval(-daysAgo * 86_400 + 60), kind: kind, actor: .user, method: method))
                }
            }
            try await add(0, .signedUp, "password", times: 3)
            try await add(0, .signedUp, "google.com")
            try await add(2, .signedUp, "password", times: 2)
            try await add(1, .signedIn, "google.com", times: 4)
            try await add(1, .signInFailed, "password", times: 2)
            try await add(1, .secondFactorFailed, nil)
            try await add(40, .signedUp, "apple.com", times: 7)  // before the last 30 days
            try await Self.forgetKeptCounts(live)
            let page = try await client.get("/console/activity")
            func table(_ id: String, in body: String) throws -> String {
                try #require(
                    body.firstMatch(of: Regex("id=\"\(id)\".*?</section>").dotMatchesNewlines()).map { String($0.output[0].substring ?? "") })
            }
            let signUps = try table("sign-ups", in: page.body)
            #expect(
                signUps.contains("<th scope=\"col\"><bdi>password</bdi></th>") && signUps.contains("<th scope=\"col\"><bdi>google.com</bdi></th>"))
            // Columns: day, password (5 in all), google.com (1), all.
            #expect(signUps.contains("<tr><th scope=\"row\">2027-01-15</th><td>3</td><td>1</td><td>4</td></tr>"))
            #expect(signUps.contains("<tr><th scope=\"row\">2027-01-13</th><td>2</td><td>0</td><td>2</td></tr>"))
            #expect(!signUps.contains("apple.com") && signUps.contains("highest day: 4"))
            #expect(signUps.contains("<title>2027-01-15: password 3</title>"))
            let signIns = try table("sign-ins", in: page.body)
            #expect(signIns.contains("<tr><th scope=\"row\">2027-01-14</th><td>4</td><td>4</td></tr>"))
            let failures = try table("failures", in: page.body)
            #expect(
                failures.contains("<th scope=\"col\"><bdi>user.sign_in_failed</bdi></th><th scope=\"col\"><bdi>user.second_factor_failed</bdi></th>"))
            #expect(failures.contains("<tr><th scope=\"row\">2027-01-14</th><td>2</td><td>1</td><td>3</td></tr>"))
            // The console's own sign-in just now has no failure; a range back in time shows the older sign-ups only.
            let old = try await client.get("/console/activity?from=2026-12-01&to=2026-12-10")
            let oldSignUps = try table("sign-ups", in: old.body)
            #expect(oldSignUps.contains("<tr><th scope=\"row\">2026-12-06</th><td>7</td><td>7</td></tr>"))
            #expect(try table("sign-ins", in: old.body).contains("None from 2026-12-01 to 2026-12-10."))
            // No style attribute anywhere: the strict CSP would refuse it.
            #expect(!page.body.contains("style="))
        }
    }

    @Test("Chromium: screenshots of the activity with its charts, the templates, a template and the status page, light, dark and narrow")
    func screenshots() async throws {
        try await ConsoleTests.withConsole { live in
            let added = try await ConsoleTests.addOperator(live, "ada@example.com", role: .owner)
            let store = live.services.store
            let midnight = Date(timeIntervalSince1970: 1_800_000_000 - 8 * 3_600)
            let methods = ["password", "google.com", "apple.com", "phone", "github.com"]
            var seed: UInt64 = 7
            func next(_ bound: Int) -> Int {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Int((seed >> 33) % UInt64(bound))
            }
            for day in 0..<30 {
                let time = midnight.addingTimeInterval(-Double(day) * 86_400 + 3_600)
                for (index, method) in methods.enumerated() {
                    for _ in 0..<next(8 - index) {
                        try await store.insertAuditEvent(AuditEvent(time: time, kind: .signedUp, uid: "u\(day)", actor: .user, method: method))
                    }
                    for _ in 0..<next(20 - 3 * index) {
                        try await store.insertAuditEvent(AuditEvent(time: time, kind: .signedIn, uid: "u\(day)", actor: .user, method: method))
                    }
                }
                for _ in 0..<next(5) {
                    try await store.insertAuditEvent(AuditEvent(time: time, kind: .signInFailed, actor: .user, method: "password"))
                }
            }
            try await HeadlessBrowser.with { browser in
                let page = try await ConsoleKeyboardTests.signedIn(browser, live, added)
                for (mode, dark, width) in [("light", false, 1_100), ("dark", true, 1_100), ("narrow", false, 390)] {
                    try await page.emulateColorScheme(dark: dark)
                    try await page.resize(width: width, height: 900, mobile: width < 500)
                    for (path, name) in [
                        ("/console/activity", "activity"), ("/console/templates", "templates"), ("/console/templates/resetPassword/en", "template"),
                        ("/console/status", "status"), ("/console/operators", "operators"),
                    ] {
                        _ = try await page.navigate(to: try #require(URL(string: live.baseURL + path)))
                        #expect(page.status == 200, "\(path)")
                        #expect(page.consoleErrors.isEmpty, "\(path): \(page.consoleErrors)")
                        try await ConsoleTests.screenshot(page, "console-\(name)-\(mode)")
                    }
                }
            }
        }
    }

    @Test("Chromium: the tenant switcher shows a tenant's events and charts alone; the filters, the pager and the users' links keep it")
    func tenantActivity() async throws {
        try await ConsoleTests.withConsole { live in
            let added = try await ConsoleTests.addOperator(live, "vi@example.com", role: .viewer)
            // A tenant made after the chore's first pass: its days are not counted until the page counts them.
            try await Self.awaitChoreCounts(live)
            let tenantID = try await ConsoleSettingsTests.createTenant(live, "Acme")
            let tenant = live.services.scoped(to: tenantID).store
            let project = live.services.store
            let now = live.clock.now
            for index in 0..<55 {
                try await tenant.insertAuditEvent(
                    AuditEvent(
                        time: now.addingTimeInterval(-Double(index) * 3_600), kind: .adminUserUpdated, uid: "t-u\(index % 2)", actor: .administrator))
            }
            try await tenant.insertAuditEvent(
                AuditEvent(time: now.addingTimeInterval(-86_400), kind: .signedUp, uid: "t-u9", actor: .user, method: "password"))
            try await project.insertAuditEvent(
                AuditEvent(time: now.addingTimeInterval(-60), kind: .adminUserUpdated, uid: "p-only", actor: .administrator))
            try await project.insertAuditEvent(
                AuditEvent(time: now.addingTimeInterval(-86_400), kind: .signedUp, uid: "p-only", actor: .user, method: "apple.com"))
            try await HeadlessBrowser.with { browser in
                let page = try await ConsoleKeyboardTests.signedIn(browser, live, added)
                _ = try await page.navigate(to: try #require(URL(string: live.baseURL + "/console/activity")))
                #expect(try await page.text(of: "#event-table").contains("p-only"))
                _ = try await page.evaluate("document.querySelector('#tenant').value = '\(tenantID)'")
                _ = try await page.clickAndWaitForNavigation("#tenant-switcher button")
                #expect(page.url?.query == "tenant=\(tenantID)")
                #expect(try await page.text(of: "h1") == "Activity of tenant Acme")
                var table = try await page.text(of: "#event-table")
                #expect(table.contains("t-u0") && table.contains("t-u9") && !table.contains("p-only"))
                let signUps = "document.querySelector('#sign-ups').textContent"
                #expect(try await page.evaluate("\(signUps).includes('password') && !\(signUps).includes('apple.com')") == .bool(true))
                #expect(
                    try await page.evaluate("document.querySelector('#event-table a[href=\"/console/users/t-u0?tenant=\(tenantID)\"]') !== null")
                        == .bool(true))

                // A filter keeps the tenant (the form's hidden field), and so does the next page.
                try await page.fill("#kind", with: "admin.user_updated")
                _ = try await page.clickAndWaitForNavigation("form.search button[type=submit]")
                let filtered = try #require(page.url)
                #expect(filtered.query?.contains("tenant=\(tenantID)") == true && filtered.query?.contains("kind=admin.user_updated") == true)
                #expect(try await page.evaluate("document.querySelectorAll('#event-table tbody tr').length") == .number(50))
                _ = try await page.clickAndWaitForNavigation("#next")
                let older = try #require(page.url)
                #expect(older.query?.contains("tenant=\(tenantID)") == true && older.query?.contains("after=") == true, "\(older)")
                #expect(try await page.evaluate("document.querySelectorAll('#event-table tbody tr').length") == .number(5))
                table = try await page.text(of: "#event-table")
                #expect(!table.contains("p-only") && !table.contains("t-u9"))
                #expect(try await page.evaluate("document.querySelector('#tenant').value") == .string(tenantID))
                #expect(page.consoleErrors.isEmpty, "\(page.consoleErrors)")
            }
            // The project's page and a tenant that does not exist.
            let client = try await ConsoleTests.signIn(live, try await ConsoleTests.addOperator(live, "ed@example.com", role: .editor))
            let own = try await client.get("/console/activity?kind=admin.user_updated")
            #expect(Self.rows(own.body) >= 1 && !own.body.contains("t-u0"))
            #expect(try await client.get("/console/activity?tenant=no-such-tenant").status == 404)
            #expect(try await client.get("/console/settings?tenant=\(tenantID)").body.contains("href=\"/console/activity?tenant=\(tenantID)\""))
        }
    }
}
