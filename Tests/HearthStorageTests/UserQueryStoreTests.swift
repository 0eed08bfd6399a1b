import Foundation
import HearthCore
import SQLKit
import Testing

@testable import HearthStorage

/// `accounts:query`'s store method on both backends: every sort key in both directions, pages by offset
/// and limit, the one-value filters, the count, and the index each order is read from.
@Suite("Store conformance: user queries")
struct UserQueryStoreTests {
    /// Users whose keys tie, are missing, and differ only in byte order (upper case before lower case,
    /// "é" after "z"), with links, so that a page counts users and not joined rows.
    static func population() -> [UserRecord] {
        let names: [String?] = ["Zoë", nil, "ada", "Ada", nil, "ada", "é", "z", "Bob", ""]
        let emails: [String?] = [
            "b@example.com", nil, "a@example.com", "C@example.com", "é@example.com", nil, "z@example.com", "a1@example.com", nil, "0@example.com",
        ]
        let uids = ["u5", "U1", "u0", "a", "u9", "b-2", "b_1", "é", "Z", "0"]
        return uids.indices.map { index in
            var user = makeUser(
                uids[index], email: emails[index], createdAt: epoch.addingTimeInterval(Double([3, 1, 3, 2, 0, 5, 4, 3, 9, 7][index])))
            user.displayName = names[index]
            user.lastLoginAt = index % 3 == 0 ? nil : epoch.addingTimeInterval(Double(100 - index * 7 % 5))
            if index % 4 == 1 {
                user.providers = [
                    ProviderLink(providerID: "apple.com", rawID: "ap-\(index)"), ProviderLink(providerID: "github.com", rawID: "gh-\(index)"),
                ]
            }
            if index == 6 { user.phoneNumber = "+15555550106" }
            return user
        }
    }

    /// The order the store must give, computed here: the key (missing smallest), then the uid, in byte order.
    static func expected(_ users: [UserRecord], _ key: UserQuery.SortKey, descending: Bool) -> [String] {
        func bytes(_ text: String?) -> [UInt8]? { text.map { Array($0.utf8) } }
        func less(_ a: [UInt8]?, _ b: [UInt8]?) -> Bool? {
            switch (a, b) {
            case (nil, nil): nil
            case (nil, _): true
            case (_, nil): false
            case (let a?, let b?): a == b ? nil : a.lexicographicallyPrecedes(b)
            }
        }
        func keyBytes(_ user: UserRecord) -> [UInt8]? {
            switch key {
            case .uid: bytes(user.uid)
            case .displayName: bytes(user.displayName)
            case .email: bytes(user.email)
            // Non-negative milliseconds, big-endian: byte order is numeric order.
            case .createdAt: withUnsafeBytes(of: Int64(user.createdAt.timeIntervalSince1970 * 1000).bigEndian, Array.init)
            case .lastLoginAt: user.lastLoginAt.map { withUnsafeBytes(of: Int64($0.timeIntervalSince1970 * 1000).bigEndian, Array.init) }
            }
        }
        let ascending = users.sorted { a, b in less(keyBytes(a), keyBytes(b)) ?? Array(a.uid.utf8).lexicographicallyPrecedes(Array(b.uid.utf8)) }
        return (descending ? ascending.reversed() : ascending).map(\.uid)
    }

    @Test(
        "sorts by every key in both directions, in byte order with a missing value smallest, and pages by offset and limit",
        arguments: StoreBackend.all)
    func sortsAndPages(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            let users = Self.population()
            for user in users.shuffled() { try await store.createUser(user, session: nil) }
            for key in UserQuery.SortKey.allCases {
                for descending in [false, true] {
                    let expected = Self.expected(users, key, descending: descending)
                    let all = try await store.users(matching: UserQuery(sortKey: key, descending: descending))
                    #expect(all.map(\.uid) == expected, "\(key) \(descending ? "DESC" : "ASC")")
                    // Paged three at a time, links and all: the same users in the same order.
                    var paged: [UserRecord] = []
                    for offset in stride(from: 0, to: users.count + 3, by: 3) {
                        let page = try await store.users(matching: UserQuery(sortKey: key, descending: descending, offset: Int64(offset), limit: 3))
                        #expect(page.count == min(3, max(0, users.count - offset)))
                        paged += page
                    }
                    #expect(paged == all, "\(key) \(descending ? "DESC" : "ASC") paged")
                }
            }
            let linked = try await store.users(matching: UserQuery(sortKey: .uid, offset: 1, limit: 1))
            #expect(linked.map(\.uid) == ["U1"] && linked.first?.providers.map(\.providerID) == ["apple.com", "github.com"])
            #expect(try await store.users(matching: UserQuery(offset: 1_000)) == [])
            #expect(try await store.countUsers(matching: nil) == users.count)
        }
    }

    @Test("filters by one uid, e-mail or phone number; counts what a filter matches", arguments: StoreBackend.all)
    func filters(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            let users = Self.population()
            for user in users { try await store.createUser(user, session: nil) }
            let byUID = users.first { $0.uid == "b_1" }
            for filter: UserQuery.Filter in [.uid("b_1"), .email("z@example.com"), .phoneNumber("+15555550106")] {
                #expect(try await store.users(matching: UserQuery(filter: filter, sortKey: .email, descending: true)) == [byUID].compactMap { $0 })
                #expect(try await store.countUsers(matching: filter) == 1)
                // Past the one match: nothing.
                #expect(try await store.users(matching: UserQuery(filter: filter, offset: 1)) == [])
            }
            for filter: UserQuery.Filter in [.uid("B_1"), .email("Z@example.com"), .phoneNumber("+15555550199"), .uid("b_1\u{0000}"), .email("")] {
                #expect(try await store.users(matching: UserQuery(filter: filter)) == [])
                #expect(try await store.countUsers(matching: filter) == 0)
            }
        }
    }

    @Test("reads every order's page from its index, in both directions, never sorting the table", arguments: StoreBackend.all)
    func ordersUseIndexes(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            for user in Self.population() { try await store.createUser(user, session: nil) }
            // By uid SQLite reads its primary key; PostgreSQL the byte-order index (or its primary key, should the
            // planner take a C-locale database's default collation for "C").
            let indexes: [UserQuery.SortKey: [String]] = [
                .uid: backend == .postgres ? ["users_uid_bytes", "users_pkey"] : ["sqlite_autoindex_users_1"],
                .displayName: ["users_display_name_uid"], .createdAt: ["users_created_at_uid"], .lastLoginAt: ["users_last_login_at_uid"],
                .email: ["users_email_uid"],
            ]
            for key in UserQuery.SortKey.allCases {
                for descending in [false, true] {
                    let query = try UserQuery(sortKey: key, descending: descending, offset: 2, limit: 3)
                    let plan = try await store.transactor.write { database in
                        let postgres = SQLDialectQuirks.isPostgreSQL(database)
                        // A table of ten rows: tell PostgreSQL's planner that scanning and sorting cost the most.
                        if postgres {
                            try await database.raw("SET LOCAL enable_seqscan = off").run()
                            try await database.raw("SET LOCAL enable_sort = off").run()
                        }
                        let statement: SQLQueryString = """
                            \(unsafeRaw: postgres ? "EXPLAIN" : "EXPLAIN QUERY PLAN") SELECT page.uid FROM users AS page
                            WHERE page.tenant_id = ''
                            ORDER BY \(SQLStore.ordering(query, table: "page", on: database)) LIMIT 3 OFFSET 2
                            """
                        let column = postgres ? "QUERY PLAN" : "detail"
                        return try await database.raw(statement).all().map { try $0.decode(column: column, as: String.self) }.joined(separator: "\n")
                    }
                    let names = try #require(indexes[key])
                    #expect(names.contains { plan.contains($0) }, "\(key) \(descending ? "DESC" : "ASC"): \(plan)")
                    #expect(!plan.contains("TEMP B-TREE") && !plan.contains("Sort"), "\(key) \(descending ? "DESC" : "ASC"): \(plan)")
                }
            }
        }
    }
}
