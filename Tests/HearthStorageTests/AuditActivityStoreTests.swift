import Foundation
import HearthCore
import SQLKit
import Testing

@testable import HearthStorage

/// The console's activity page on every backend: the audit trail filtered by kind, account, operator and time range,
/// paged newest first; events counted per day, kind and method in SQL; each filter read from an index.
@Suite("Store conformance: audit activity")
struct AuditActivityStoreTests {
    /// Midnight (UTC) of a day: 2027-01-15.
    static let midnight = Date(timeIntervalSince1970: 1_800_000_000 - 1_800_000_000.truncatingRemainder(dividingBy: 86_400))

    @Test("filters by kind, uid, operator and time range, alone and together, paged with the cursor", arguments: StoreBackend.all)
    func filters(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            let day = Self.midnight
            let events = [
                AuditEvent(time: day.addingTimeInterval(-1), kind: .signedIn, uid: "ada", actor: .user, method: "password"),
                AuditEvent(time: day, kind: .signedIn, uid: "ada", actor: .user, method: "google.com"),
                AuditEvent(time: day.addingTimeInterval(10), kind: .adminUserUpdated, uid: "ada", actor: .administrator, actorID: "operator:o@x.io"),
                AuditEvent(time: day.addingTimeInterval(20), kind: .adminUserUpdated, uid: "bob", actor: .administrator, actorID: "operator:o@x.io"),
                AuditEvent(time: day.addingTimeInterval(30), kind: .adminUserUpdated, uid: "bob", actor: .administrator, actorID: "owner"),
                AuditEvent(time: day.addingTimeInterval(86_400), kind: .signInFailed, uid: "bob", actor: .user, method: "password"),
            ]
            for event in events { try await store.insertAuditEvent(event) }
            try await store.scoped(toTenant: "t1").insertAuditEvent(
                AuditEvent(time: day, kind: .adminUserUpdated, uid: "ada", actor: .administrator, actorID: "operator:o@x.io"))
            func ids(_ filter: AuditFilter) async throws -> [String] {
                try await store.auditEvents(matching: filter, after: nil, limit: 50).map(\.id)
            }
            let id = events.map(\.id)
            #expect(try await ids(AuditFilter()) == id.reversed())
            #expect(try await ids(AuditFilter(kind: .signedIn)) == [id[1], id[0]])
            #expect(try await ids(AuditFilter(uid: "bob")) == [id[5], id[4], id[3]])
            #expect(try await ids(AuditFilter(actorID: "operator:o@x.io")) == [id[3], id[2]])
            #expect(try await ids(AuditFilter(actorID: "operator:nobody@x.io")).isEmpty)
            // From is included, to is not.
            #expect(try await ids(AuditFilter(from: day, to: day.addingTimeInterval(86_400))) == [id[4], id[3], id[2], id[1]])
            #expect(try await ids(AuditFilter(to: day)) == [id[0]])
            #expect(try await ids(AuditFilter(from: day.addingTimeInterval(86_400))) == [id[5]])
            #expect(
                try await ids(AuditFilter(uid: "bob", kind: .adminUserUpdated, actorID: "operator:o@x.io", from: day, to: day.addingTimeInterval(60)))
                    == [id[3]])
            // Pages of two with the cursor, under a filter.
            var pages: [[String]] = []
            var cursor: AuditCursor?
            repeat {
                let page = try await store.auditEvents(matching: AuditFilter(kind: .adminUserUpdated), after: cursor, limit: 2)
                pages.append(page.map(\.id))
                cursor = page.count == 2 ? page.last.map(AuditCursor.init(after:)) : nil
            } while cursor != nil
            #expect(pages == [[id[4], id[3]], [id[2]]])
            #expect(try await store.auditEvents(matching: AuditFilter(), after: nil, limit: 0).isEmpty)
            // The other tenant's event is its own.
            #expect(
                try await store.scoped(toTenant: "t1").auditEvents(matching: AuditFilter(actorID: "operator:o@x.io"), after: nil, limit: 9).count == 1
            )
        }
    }

    @Test("counts per day, kind and method, counted in SQL, within the range only", arguments: StoreBackend.all)
    func dayCounts(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            let day = Self.midnight
            let first = AuditDayCount.day(of: day)
            #expect(AuditDayCount.start(ofDay: first) == day)
            func add(_ offset: TimeInterval, _ kind: AuditEvent.Kind, _ method: String?) async throws {
                try await store.insertAuditEvent(AuditEvent(time: day.addingTimeInterval(offset), kind: kind, actor: .user, method: method))
            }
            try await add(-1, .signedUp, "password")  // the day before: outside
            for _ in 0..<3 { try await add(0, .signedUp, "password") }
            try await add(86_399.999, .signedUp, "google.com")
            try await add(3_600, .signedIn, "google.com")
            try await add(86_400, .signedIn, "google.com")
            try await add(86_400 + 5, .signInFailed, "password")
            try await add(86_400 + 6, .signInFailed, nil)
            try await add(86_400 + 7, .keysRotated, nil)  // a kind not asked for
            try await add(2 * 86_400, .signedIn, "password")  // the end: outside
            try await store.scoped(toTenant: "t1").insertAuditEvent(AuditEvent(time: day, kind: .signedUp, actor: .user, method: "password"))
            let counts = try await store.auditDayCounts(
                kinds: [.signedUp, .signedIn, .signInFailed], from: day, to: day.addingTimeInterval(2 * 86_400))
            let expected = [
                AuditDayCount(day: first, kind: .signedIn, method: "google.com", count: 1),
                AuditDayCount(day: first, kind: .signedUp, method: "google.com", count: 1),
                AuditDayCount(day: first, kind: .signedUp, method: "password", count: 3),
                AuditDayCount(day: first + 1, kind: .signInFailed, method: nil, count: 1),
                AuditDayCount(day: first + 1, kind: .signInFailed, method: "password", count: 1),
                AuditDayCount(day: first + 1, kind: .signedIn, method: "google.com", count: 1),
            ]
            let key = { (count: AuditDayCount) in "\(count.day) \(count.kind.rawValue) \(count.method ?? "")" }
            #expect(counts.sorted { key($0) < key($1) } == expected.sorted { key($0) < key($1) })
            #expect(try await store.auditDayCounts(kinds: [], from: day, to: day.addingTimeInterval(86_400)).isEmpty)
            #expect(try await store.auditDayCounts(kinds: [.signedUp], from: day, to: day).isEmpty)
        }
    }

    @Test("the kind and operator filters and the day counts read an index, never scanning the table", arguments: StoreBackend.all)
    func plans(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            let statements: [(SQLQueryString, String)] = [
                (
                    "SELECT id FROM audit_events WHERE tenant_id = '' AND kind = 'user.signed_in' ORDER BY occurred_at DESC, id DESC LIMIT 51",
                    "audit_events_kind"
                ),
                (
                    "SELECT id FROM audit_events WHERE tenant_id = '' AND actor_id = 'owner' AND occurred_at < 5 ORDER BY occurred_at DESC, id DESC LIMIT 51",
                    "audit_events_actor"
                ),
                (
                    """
                    SELECT occurred_at / 86400000 AS day, kind, method, COUNT(*) AS events FROM audit_events
                    WHERE tenant_id = '' AND kind IN ('user.signed_up', 'user.signed_in') AND occurred_at >= 0 AND occurred_at < 5
                    GROUP BY occurred_at / 86400000, kind, method
                    """,
                    "audit_events_kind"
                ),
            ]
            for (statement, index) in statements {
                let plan = try await store.transactor.write { database in
                    let postgres = SQLDialectQuirks.isPostgreSQL(database)
                    if postgres { try await database.raw("SET LOCAL enable_seqscan = off").run() }
                    let explained: SQLQueryString = "\(unsafeRaw: postgres ? "EXPLAIN" : "EXPLAIN QUERY PLAN") \(statement)"
                    let column = postgres ? "QUERY PLAN" : "detail"
                    return try await database.raw(explained).all().map { try $0.decode(column: column, as: String.self) }.joined(separator: "\n")
                }
                // SQLite's planner picks by the schema; PostgreSQL's by statistics, which an empty table does not have:
                // there, an index rather than a scan of the table.
                if backend == .sqlite {
                    #expect(plan.contains(index) && !plan.contains("TEMP B-TREE FOR ORDER BY"), "\(plan)")
                } else {
                    #expect(plan.contains("Index") && !plan.contains("Seq Scan"), "\(plan)")
                }
            }
        }
    }

    @Test("the charts' past days are counted once a minute, today's on every call", arguments: StoreBackend.all)
    func cachedDayCounts(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            let today = AuditDayCount.day(of: Self.midnight)
            let cache = AuditDayCountCache()
            func signIn(_ time: Date) async throws {
                try await store.insertAuditEvent(AuditEvent(time: time, kind: .signedIn, uid: "ada", actor: .user, method: "password"))
            }
            func total(at now: Date) async throws -> Int {
                try await cache.counts(kinds: [.signedIn], days: (today - 2)...today, store: store, now: now).reduce(0) { $0 + $1.count }
            }
            try await signIn(Self.midnight.addingTimeInterval(-86_400))
            try await signIn(Self.midnight.addingTimeInterval(60))
            let noon = Self.midnight.addingTimeInterval(43_200)
            #expect(try await total(at: noon) == 2)
            // An event written into yesterday is seen once the minute is over; today's at once.
            try await signIn(Self.midnight.addingTimeInterval(-3_600))
            try await signIn(Self.midnight.addingTimeInterval(120))
            #expect(try await total(at: noon.addingTimeInterval(30)) == 3)
            #expect(try await total(at: noon.addingTimeInterval(61)) == 4)
            // A clock set back reads again.
            #expect(try await total(at: noon.addingTimeInterval(-10)) == 4)
        }
    }
}
