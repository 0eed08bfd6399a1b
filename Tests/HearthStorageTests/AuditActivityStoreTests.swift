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
                let plan = try await Self.plan(statement, in: store)
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

    @Test("a deep page's cursor bounds the time index's range: the page seeks rather than scanning from the newest", arguments: StoreBackend.all)
    func cursorPlans(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            let cursor = "occurred_at <= 5 AND (occurred_at < 5 OR (occurred_at = 5 AND id < 'f'))"
            let statements: [(SQLQueryString, String)] = [
                (
                    "SELECT id FROM audit_events WHERE tenant_id = '' AND \(unsafeRaw: cursor) ORDER BY occurred_at DESC, id DESC LIMIT 51",
                    "audit_events_occurred_at"
                ),
                (
                    "SELECT id FROM audit_events WHERE tenant_id = '' AND uid = 'u' AND \(unsafeRaw: cursor) ORDER BY occurred_at DESC, id DESC LIMIT 51",
                    "audit_events_uid"
                ),
                (
                    "SELECT id FROM audit_events WHERE tenant_id = '' AND kind = 'k' AND \(unsafeRaw: cursor) ORDER BY occurred_at DESC, id DESC LIMIT 51",
                    "audit_events_kind"
                ),
            ]
            for (statement, index) in statements {
                let plan = try await Self.plan(statement, in: store)
                if backend == .sqlite {
                    // `SEARCH … (tenant_id=? AND occurred_at<?)`: a range, where the bare OR gave `(tenant_id=?)` alone.
                    #expect(plan.contains(index) && plan.contains("occurred_at<?") && !plan.contains("TEMP B-TREE"), "\(plan)")
                } else {
                    #expect(plan.contains("Index Cond") && plan.contains("occurred_at <= ") && !plan.contains("Seq Scan"), "\(plan)")
                }
            }
        }
    }

    /// The plan of `statement`: SQLite's `EXPLAIN QUERY PLAN` details, PostgreSQL's `EXPLAIN` with sequential scans off
    /// (an empty table has no statistics to choose by).
    static func plan(_ statement: SQLQueryString, in store: SQLStore) async throws -> String {
        try await store.transactor.write { database in
            let postgres = SQLDialectQuirks.isPostgreSQL(database)
            if postgres { try await database.raw("SET LOCAL enable_seqscan = off").run() }
            let explained: SQLQueryString = "\(unsafeRaw: postgres ? "EXPLAIN" : "EXPLAIN QUERY PLAN") \(statement)"
            let column = postgres ? "QUERY PLAN" : "detail"
            return try await database.raw(explained).all().map { try $0.decode(column: column, as: String.self) }.joined(separator: "\n")
        }
    }

    @Test(
        "the charts' completed days are counted once and kept, per tenant; open days on every call; pruning drops them", arguments: StoreBackend.all)
    func keptDayCounts(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store, fixture in
            let today = AuditDayCount.day(of: Self.midnight)
            let noon = Self.midnight.addingTimeInterval(43_200)
            let tenant = store.scoped(toTenant: "t1")
            func signIn(_ time: Date, in store: SQLStore, method: String = "password") async throws {
                try await store.insertAuditEvent(AuditEvent(time: time, kind: .signedIn, uid: "ada", actor: .user, method: method))
            }
            func counts(at now: Date, in store: SQLStore, days: ClosedRange<Int> = (today - 2)...today) async throws -> [Int: Int] {
                try await Self.chartTotals(at: now, in: store, days: days, today: today)
            }
            try await signIn(Self.midnight.addingTimeInterval(-86_400), in: store)
            try await signIn(Self.midnight.addingTimeInterval(-86_400 + 5), in: store, method: "google.com")
            try await signIn(Self.midnight.addingTimeInterval(60), in: store)
            try await signIn(Self.midnight.addingTimeInterval(-3_600), in: tenant)
            // Five minutes after midnight yesterday is still open: counted, not kept.
            #expect(try await counts(at: Self.midnight.addingTimeInterval(240), in: store) == [-1: 2, 0: 1])
            #expect(try await store.keptAuditDayCounts(kinds: [.signedIn], days: (today - 2)...today).counted == [today - 2: [.signedIn]])
            #expect(try await counts(at: noon, in: store) == [-1: 2, 0: 1])
            let kept = try await store.keptAuditDayCounts(kinds: [.signedIn, .signedUp], days: (today - 5)...today)
            #expect(kept.counted == [today - 2: [.signedIn, .signedUp], today - 1: [.signedIn, .signedUp]])
            #expect(
                kept.counts.sorted { ($0.method ?? "") < ($1.method ?? "") } == [
                    AuditDayCount(day: today - 1, kind: .signedIn, method: "google.com", count: 1),
                    AuditDayCount(day: today - 1, kind: .signedIn, method: "password", count: 1),
                ])
            // A kept day is not counted again (an event written into it now is not seen); today is, at once. Another
            // replica on the same database reads the same kept counts.
            try await signIn(Self.midnight.addingTimeInterval(-7_200), in: store)
            try await signIn(Self.midnight.addingTimeInterval(120), in: store)
            #expect(try await counts(at: noon, in: store) == [-1: 2, 0: 2])
            let replica = try await fixture.open()
            #expect(try await counts(at: noon, in: replica) == [-1: 2, 0: 2])
            try await replica.close()
            // The tenant's days are its own: counted and kept apart.
            #expect(try await counts(at: noon, in: tenant) == [-1: 1])
            #expect(try await tenant.keptAuditDayCounts(kinds: [.signedIn], days: (today - 1)...(today - 1)).counts.map(\.count) == [1])
            // Days kept for some kinds only are counted for the others.
            #expect(try await AuditDayCounts.counts(kinds: [.signInFailed], days: (today - 1)...today, store: store, now: noon).isEmpty)
            #expect(try await store.keptAuditDayCounts(kinds: [.signInFailed], days: (today - 1)...today).counted == [today - 1: [.signInFailed]])

            // Keeping a day and kind kept already leaves the first count: replicas racing keep one.
            try await store.keepAuditDayCounts(
                [AuditDayCount(day: today - 1, kind: .signedIn, method: "x", count: 99)], days: [today - 1], kinds: [.signedIn])
            #expect(try await counts(at: noon, in: store) == [-1: 2, 0: 2])
            let racers = try await withThrowingTaskGroup(of: [Int: Int].self) { group in
                for _ in 0..<4 { group.addTask { try await Self.chartTotals(at: noon, in: store, days: (today - 9)...today, today: today) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(racers.allSatisfy { $0 == [-1: 2, 0: 2] })
            #expect(try await count("audit_day_counts", in: store) == 3)  // yesterday's two methods, the tenant's one

            // Pruning up to yesterday 01:00 deletes yesterday's kept counts with its first events: counted again.
            #expect(try await store.deleteAuditEvents(before: Self.midnight.addingTimeInterval(-82_800)) == 2)
            #expect(try await store.keptAuditDayCounts(kinds: [.signedIn], days: (today - 9)...today).counted.isEmpty)
            #expect(try await counts(at: noon, in: store) == [-1: 1, 0: 2])  // the event written into it at 22:00
        }
    }

    /// The charts' totals per day (relative to `today`) of sign-ins and sign-ups.
    static func chartTotals(at now: Date, in store: SQLStore, days: ClosedRange<Int>, today: Int) async throws -> [Int: Int] {
        try await AuditDayCounts.counts(kinds: [.signedIn, .signedUp], days: days, store: store, now: now)
            .reduce(into: [:]) { $0[$1.day - today, default: 0] += $1.count }
    }
}
