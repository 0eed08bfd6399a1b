import HearthCore
import SQLKit

// MARK: - User queries (accounts:query)

extension SQLStore {
    public func users(matching query: UserQuery) async throws -> [UserRecord] {
        if let filter = query.filter {
            // An equality on a unique column: at most one user, whatever the order.
            guard query.offset == 0, let predicate = Self.predicate(filter) else { return [] }
            return try await work.readSingleStatement { database in
                try await Self.selectUsers(where: predicate, tenant: tenantID, on: database)
            }
        }
        // One statement: the page's uids from the sort key's index (LIMIT and OFFSET count users, not
        // joined link rows, and skipped rows are stepped over in the index, never read whole), then their
        // users and links, in the same order again (≤ 500 users).
        return try await work.readSingleStatement { database in
            let inner = Self.ordering(query, table: "page", on: database)
            let outer = Self.ordering(query, table: "users", on: database)
            let rows = try await Self.rows(
                database,
                """
                SELECT \(Self.userWithLinkColumns)
                FROM (SELECT page.uid FROM users AS page WHERE page.tenant_id = \(bind: tenantID) ORDER BY \(inner)
                      LIMIT \(bind: Int64(query.limit)) OFFSET \(bind: Int64(query.offset))) AS chosen
                JOIN users ON users.tenant_id = \(bind: tenantID) AND users.uid = chosen.uid
                LEFT JOIN provider_links ON provider_links.tenant_id = users.tenant_id AND provider_links.uid = users.uid
                ORDER BY \(outer)
                """)
            return try Self.groupUsers(rows)
        }
    }

    public func countUsers(matching filter: UserQuery.Filter?) async throws -> Int {
        guard let filter else { return try await countUsers() }
        guard let predicate = Self.predicate(filter) else { return 0 }
        return try await work.readSingleStatement { database in
            let rows = try await Self.rows(database, "SELECT COUNT(*) AS user_count FROM users WHERE tenant_id = \(bind: tenantID) AND \(predicate)")
            return Int(try rows.first?.int64("user_count") ?? 0)
        }
    }

    /// The `WHERE` of `filter` over the unaliased `users` table; `nil` when it can match nobody (a NUL,
    /// which no stored text holds and PostgreSQL refuses to bind).
    static func predicate(_ filter: UserQuery.Filter) -> SQLQueryString? {
        switch filter {
        case .uid(let uid): UserText.isStorable(uid) ? "users.uid = \(bind: uid)" : nil
        case .email(let email): UserText.isStorable(email) ? "users.email = \(bind: email)" : nil
        case .phoneNumber(let phone): UserText.isStorable(phone) ? "users.phone_number = \(bind: phone)" : nil
        }
    }

    /// `ORDER BY` of `query` over `table`: the key, then the uid, both in byte order, a missing value
    /// smallest. It is written exactly as the indexes of `2026-11-26-index-user-queries` are, so that
    /// both databases read a page from the index: SQLite already sorts NULL first and text by bytes;
    /// PostgreSQL is told (`COLLATE "C"`, `NULLS FIRST`, or `NULLS LAST` when descending).
    static func ordering(_ query: UserQuery, table: String, on database: any SQLDatabase) -> SQLQueryString {
        let direction = query.descending ? "DESC" : "ASC"
        let postgres = SQLDialectQuirks.isPostgreSQL(database)
        let bytes = postgres ? #" COLLATE "C""# : ""
        let nulls = postgres ? (query.descending ? " NULLS LAST" : " NULLS FIRST") : ""
        let uid = "\(table).uid\(bytes) \(direction)"
        let key: String? =
            switch query.sortKey {
            case .uid: nil
            case .displayName: "\(table).display_name\(bytes) \(direction)\(nulls)"
            case .createdAt: "\(table).created_at \(direction)"
            case .lastLoginAt: "\(table).last_login_at \(direction)\(nulls)"
            case .email: "\(table).email\(bytes) \(direction)\(nulls)"
            }
        return SQLQueryString([key, uid].compactMap { $0 }.joined(separator: ", "))
    }
}

// MARK: - The console's listing and search

extension SQLStore {
    public func users(newestBy key: UserQuery.SortKey, after cursor: UserListCursor?, limit: Int) async throws -> [UserRecord] {
        guard limit > 0 else { return [] }
        guard key == .createdAt || key == .lastLoginAt else {
            throw HearthError(.invalidArgument, reason: "the console lists users by creation or last sign-in only")
        }
        if let cursor, !UserText.isStorable(cursor.uid) { return [] }
        // By last sign-in after a user who signed in: those who signed in earlier, then (when the page has room) those
        // who never did. Two reads, each a range of the index: one `OR … IS NULL` would make both databases scan it all.
        if key == .lastLoginAt, let milliseconds = cursor?.milliseconds, let cursor {
            let signedIn = try await listingPage(key, after: .time(milliseconds, cursor.uid), limit: limit)
            guard signedIn.count < limit else { return signedIn }
            return signedIn + (try await listingPage(key, after: .neverSignedIn(before: nil), limit: limit - signedIn.count))
        }
        let after: ListingBound? = cursor.map { cursor in cursor.milliseconds.map { .time($0, cursor.uid) } ?? .neverSignedIn(before: cursor.uid) }
        return try await listingPage(key, after: after, limit: limit)
    }

    /// Where a page of the console's listing starts.
    enum ListingBound {
        /// After this time and uid (the time's column is never NULL in the range).
        case time(Int64, String)
        /// Among the users who never signed in, those with a uid before this one (all of them: `nil`).
        case neverSignedIn(before: String?)
    }

    /// One page of the listing by `key` newest first, read from the key's index.
    private func listingPage(_ key: UserQuery.SortKey, after bound: ListingBound?, limit: Int) async throws -> [UserRecord] {
        let order = try UserQuery(sortKey: key, descending: true)
        let tenant = tenantID
        return try await work.readSingleStatement { database in
            let bytes = SQLDialectQuirks.byteCollation(on: database)
            let column = SQLQueryString(key == .createdAt ? "page.created_at" : "page.last_login_at")
            // A row-value comparison: both databases start the index scan right at the cursor, ties on the time included
            // (a NULL time compares to nothing, so the users who never signed in are left to the second read).
            let after: SQLQueryString =
                switch bound {
                case nil: ""
                case .time(let milliseconds, let uid): "AND (\(column), page.uid \(bytes)) < (\(bind: milliseconds), \(bind: uid))"
                case .neverSignedIn(let uid?): "AND \(column) IS NULL AND page.uid \(bytes) < \(bind: uid)"
                case .neverSignedIn(nil): "AND \(column) IS NULL"
                }
            let inner = Self.ordering(order, table: "page", on: database)
            let outer = Self.ordering(order, table: "users", on: database)
            let rows = try await Self.rows(
                database,
                """
                SELECT \(Self.userWithLinkColumns)
                FROM (SELECT page.uid FROM users AS page WHERE page.tenant_id = \(bind: tenant) \(after)
                      ORDER BY \(inner) LIMIT \(bind: Int64(limit))) AS chosen
                JOIN users ON users.tenant_id = \(bind: tenant) AND users.uid = chosen.uid
                LEFT JOIN provider_links ON provider_links.tenant_id = users.tenant_id AND provider_links.uid = users.uid
                ORDER BY \(outer)
                """)
            return try Self.groupUsers(rows)
        }
    }

    public func users(emailPrefix prefix: String, limit: Int) async throws -> [UserRecord] {
        guard limit > 0, !prefix.isEmpty, UserText.isStorable(prefix) else { return [] }
        let tenant = tenantID
        return try await work.readSingleStatement { database in
            let bytes = SQLDialectQuirks.byteCollation(on: database)
            // In byte order every e-mail that starts with the prefix lies between it and it followed by U+10FFFF: a
            // range of the e-mail index.
            let rows = try await Self.rows(
                database,
                """
                SELECT \(Self.userWithLinkColumns)
                FROM (SELECT page.uid FROM users AS page WHERE page.tenant_id = \(bind: tenant)
                      AND page.email \(bytes) >= \(bind: prefix) AND page.email \(bytes) < \(bind: prefix + "\u{10FFFF}")
                      ORDER BY page.email \(bytes) LIMIT \(bind: Int64(limit))) AS chosen
                JOIN users ON users.tenant_id = \(bind: tenant) AND users.uid = chosen.uid
                LEFT JOIN provider_links ON provider_links.tenant_id = users.tenant_id AND provider_links.uid = users.uid
                ORDER BY users.email \(bytes), users.uid
                """)
            return try Self.groupUsers(rows).filter { $0.email?.hasPrefix(prefix) ?? false }
        }
    }
}
