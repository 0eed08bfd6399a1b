import Foundation
import HearthCore
import HearthStorage

/// The console's pages on the user-count phase's database (`--console-pages`): the users listing by creation at
/// keyset cursors spread from the newest user to the oldest, an e-mail-prefix search, and users' pages, one request at
/// a time; with `--audit-events`, the activity page too (its charts and the events newest first, at cursors spread over
/// the trail, filtered by kind, by user and by operator). The servers run in development mode, so the benchmark's loopback connections are the local owner's (no
/// sign-in); each answer is checked (200, and the page's table or profile).
struct ConsoleBenchmark {
    /// One kind of page.
    struct Row: Sendable {
        let users: Int
        let title: String
        let pages: Int
        let report: LoadReport
    }

    /// What the pages ask for, read from the database before the servers start: the cursor at each depth, e-mail
    /// prefixes and uids there.
    struct Fixtures: Sendable {
        let users: Int
        let cursors: [String]
        /// The cursors of the listing by last sign-in.
        let signInCursors: [String]
        let prefixes: [String]
        let uids: [String]
        /// The project's audit events (`--audit-events`), and the activity page's cursors spread over them.
        var events = 0
        var activityCursors: [String] = []
    }

    /// Adds the activity page's cursors: `pages` positions spread over the project's `events` audit events.
    static func activityFixtures(_ fixtures: inout Fixtures, loader: BulkAuditLoader, events: Int, pages: Int) async throws {
        let last = max(0, events - 51)
        fixtures.events = events
        for index in 0..<pages {
            let depth = pages > 1 ? last * index / (pages - 1) : 0
            guard let position = try await loader.position(offset: depth) else { throw BenchmarkError("console: no event at depth \(depth)") }
            fixtures.activityCursors.append(AuditCursor(milliseconds: position.milliseconds, id: position.id).token)
        }
    }

    /// Reads the fixtures of `pages` depths spread over `users` (the listing's order, newest first).
    static func fixtures(store: SQLStore, users: Int, pages: Int) async throws -> Fixtures {
        let last = max(0, users - 51)
        var cursors: [String] = []
        var signInCursors: [String] = []
        var prefixes: [String] = []
        var uids: [String] = []
        for index in 0..<pages {
            let depth = pages > 1 ? last * index / (pages - 1) : 0
            let query = try UserQuery(sortKey: .createdAt, descending: true, offset: Int64(depth), limit: 1)
            guard let user = try await store.users(matching: query).first else { throw BenchmarkError("console: no user at depth \(depth)") }
            cursors.append(UserListCursor(after: user, by: .createdAt).token)
            uids.append(user.uid)
            // The address without its last three characters: a prefix a few users share.
            if let email = user.email { prefixes.append(String(email.dropLast(3))) }
            let bySignIn = try UserQuery(sortKey: .lastLoginAt, descending: true, offset: Int64(depth), limit: 1)
            if let user = try await store.users(matching: bySignIn).first {
                signInCursors.append(UserListCursor(after: user, by: .lastLoginAt).token)
            }
        }
        return Fixtures(users: users, cursors: cursors, signInCursors: signInCursors, prefixes: prefixes, uids: uids)
    }

    let driver: LoadDriver

    func run(_ fixtures: Fixtures) async throws -> [Row] {
        let host = driver.hostHeader
        var plans: [(title: String, paths: [String], marker: String)] = [
            (
                "users, newest first, after a cursor", fixtures.cursors.map { "/console/users?sort=created&after=\(Self.query($0))" },
                #"<table class="users""#
            ),
            (
                "users, by last sign-in, after a cursor", fixtures.signInCursors.map { "/console/users?sort=lastSignIn&after=\(Self.query($0))" },
                #"<table class="users""#
            ),
            ("search by e-mail prefix", fixtures.prefixes.map { "/console/users?q=\(Self.query($0))" }, #"<table class="users""#),
            ("a user's page", fixtures.uids.map { "/console/users/\(Self.query($0))" }, #"id="profile""#),
        ]
        let events = "\(ResultTable.grouped(Double(fixtures.events))) events"
        let cursors = fixtures.activityCursors.map { "after=\(Self.query($0))" }
        let activity: [(title: String, paths: [String], marker: String)] = [
            ("activity with its charts (\(events))", Array(repeating: "/console/activity", count: cursors.count), #"id="event-table""#),
            ("activity, after a cursor (\(events))", cursors.map { "/console/activity?\($0)" }, #"id="event-table""#),
            ("activity, one kind, after a cursor (\(events))", cursors.map { "/console/activity?kind=user.signed_up&\($0)" }, #"id="event-table""#),
            (
                "activity, one user (\(events))", (0..<cursors.count).map { "/console/activity?uid=audit-user-\($0 * 997 % BulkAuditLoader.users)" },
                #"id="event-table""#
            ),
            (
                "activity, one operator, after a cursor (\(events))",
                cursors.map { "/console/activity?actor=\(Self.query(BulkAuditLoader.operatorActor))&\($0)" }, #"id="event-table""#
            ),
        ]
        plans += activity
        var rows: [Row] = []
        for plan in plans where !plan.paths.isEmpty {
            let requests = plan.paths.map { PreparedRequest(get: $0, hostHeader: host) }
            let report = try await driver.runOnce(
                RequestPlan(name: "console \(plan.title)", requests: requests, capturesBodies: true), connections: 1)
            guard report.captured.count == requests.count else {
                throw BenchmarkError("console: \(report.captured.count) of \(requests.count) answers")
            }
            for response in report.captured where response.status != 200 || !response.body.contains(plan.marker) {
                throw BenchmarkError("console \(plan.title): HTTP \(response.status): \(response.body.prefix(300))")
            }
            rows.append(Row(users: fixtures.users, title: plan.title, pages: requests.count, report: report))
        }
        return rows
    }

    static func query(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}

/// The console rows as a Markdown table.
struct ConsoleTable {
    let rows: [ConsoleBenchmark.Row]

    func render() -> String {
        let header = ["Users", "Page", "Requests", "p50 ms", "p99 ms", "max ms"]
        let cells = rows.map { row -> [String] in
            [
                ResultTable.grouped(Double(row.users)), row.title, String(row.pages),
                row.report.latencyMilliseconds(percentile: 0.5).map(ResultTable.decimal) ?? "-",
                row.report.latencyMilliseconds(percentile: 0.99).map(ResultTable.decimal) ?? "-",
                row.report.latencyMilliseconds(percentile: 1).map(ResultTable.decimal) ?? "-",
            ]
        }
        return ResultTable.markdown(header: header, rows: cells, numeric: Set(header.indices).subtracting([1]))
    }
}
