import Foundation
import HearthCore
import SQLKit

// MARK: - AccountStore

extension SQLStore {
    /// Inserts the user, its links and its session in one write transaction of as few statements as
    /// possible: the unique constraints do the checking, so nothing is read while the single writer is
    /// held. Conflicts are reported exactly as ``checkUniqueness(of:replacing:on:)`` orders them (uid,
    /// e-mail, phone number, two links to one provider, a provider identity taken).
    ///
    /// On PostgreSQL a sign-up's usual write (a user without links, with a session) is first tried as ONE statement in
    /// autocommit mode, one round trip instead of four (`BEGIN`, two inserts, `COMMIT`): the session is inserted only when
    /// the user was. When the user was not (a conflict), the transaction below runs and tells which rule it broke.
    public func createUser(_ user: UserRecord, session: RefreshSessionRecord?) async throws {
        let tenant = tenantID
        defer { accountCache?.forget(uid: user.uid) }
        if databaseIsShared, let session, user.providers.isEmpty {
            try Self.checkStorable(user)
            // Data-modifying WITH clauses run to completion whether or not the final SELECT reads them.
            let inserted = try await work.writeSingleStatement { database in
                try await Self.exists(
                    database,
                    """
                    WITH new_user AS (
                        INSERT INTO users (\(Self.userColumns)) VALUES (\(bind: tenant), \(bind: user.uid), \(binds: Self.userValues(user)))
                        ON CONFLICT DO NOTHING RETURNING uid
                    ), new_session AS (
                        INSERT INTO refresh_sessions (\(Self.sessionColumns))
                        SELECT \(binds: Self.sessionValues(session, tenant: tenant)) FROM new_user
                        RETURNING token_hash
                    )
                    SELECT uid FROM new_user
                    """)
            }
            if inserted { return }
        }
        try await work.write { database in
            try await Self.insertUserRow(user, tenant: tenant, on: database)
            try Self.checkOneLinkPerProvider(user.providers)
            try await Self.insertLinks(user.providers, uid: user.uid, tenant: tenant, on: database)
            if let session {
                try await Self.insertSessionRow(session, tenant: tenant, on: database)
            }
        }
    }

    @discardableResult
    public func updateUser(
        uid: String, session: RefreshSessionRecord?, startsSession: @escaping @Sendable (UserRecord) -> Bool,
        _ mutate: @escaping @Sendable (inout UserRecord) throws -> Void
    ) async throws -> UserRecord {
        defer { accountCache?.forget(uid: uid) }
        let tenant = tenantID
        return try await work.write { database in
            guard let current = try await Self.loadUsers(where: "uid = \(bind: uid)", tenant: tenant, on: database, lock: true).first
            else {
                throw HearthError(.userNotFound, reason: "updateUser: no such user")
            }
            var updated = current
            try mutate(&updated)
            guard updated.uid == current.uid else {
                throw HearthError(.internalError, reason: "updateUser: mutate must not change the uid")
            }
            updated.providers = Self.ordered(updated.providers)
            try Self.checkStorable(updated)
            try await Self.checkUniqueness(of: updated, replacing: current, tenant: tenant, on: database)
            try await Self.exec(
                database,
                """
                UPDATE users SET
                    email = \(bind: updated.email),
                    email_verified = \(bind: updated.emailVerified),
                    display_name = \(bind: updated.displayName),
                    photo_url = \(bind: updated.photoURL),
                    phone_number = \(bind: updated.phoneNumber),
                    password_hash = \(bind: updated.passwordHash),
                    password_updated_at = \(bind: StoredTime.milliseconds(updated.passwordUpdatedAt)),
                    disabled = \(bind: updated.disabled),
                    custom_attributes = \(bind: updated.customAttributes),
                    custom_auth = \(bind: updated.customAuth),
                    email_link_sign_in = \(bind: updated.emailLinkSignIn),
                    created_at = \(bind: StoredTime.milliseconds(updated.createdAt)),
                    last_login_at = \(bind: StoredTime.milliseconds(updated.lastLoginAt)),
                    valid_since = \(bind: StoredTime.milliseconds(updated.validSince)),
                    scheduled_deletion_at = \(bind: StoredTime.milliseconds(updated.scheduledDeletionAt)),
                    second_factors = \(bind: SecondFactorsRow.text(of: updated)),
                    last_refresh_at = \(bind: StoredTime.milliseconds(updated.lastRefreshAt)),
                    initial_email = \(bind: updated.initialEmail)
                WHERE tenant_id = \(bind: tenant) AND uid = \(bind: uid)
                """)
            if updated.providers != current.providers {
                try await Self.exec(database, "DELETE FROM provider_links WHERE tenant_id = \(bind: tenant) AND uid = \(bind: uid)")
                try await Self.insertLinks(updated.providers, uid: uid, tenant: tenant, on: database)
            }
            if let session, startsSession(updated) {
                try await Self.insertSessionRow(session, tenant: tenant, on: database)
            }
            try await self.announceAccountChange(uid, on: database)
            return updated
        }
    }

    @discardableResult
    public func deleteUser(uid: String) async throws -> Bool {
        defer { accountCache?.forget(uid: uid) }
        let tenant = tenantID
        // provider_links and refresh_sessions go with it (ON DELETE CASCADE).
        let delete: SQLQueryString = "DELETE FROM users WHERE tenant_id = \(bind: tenant) AND uid = \(bind: uid) RETURNING uid"
        guard announcesAccountChanges else {
            return try await work.writeSingleStatement { database in try await Self.exists(database, delete) }
        }
        return try await work.write { database in
            guard try await Self.exists(database, delete) else { return false }
            try await self.announceAccountChange(uid, on: database)
            return true
        }
    }

    // Reads of users are ONE statement each (users LEFT JOIN provider_links): a single statement
    // reads one consistent snapshot, so they need no transaction.

    public func user(uid: String) async throws -> UserRecord? {
        guard let accountCache else { return try await readUser(uid: uid) }
        if let (user, refresh) = accountCache.user(uid: uid) {
            if refresh { readAgain(.user(uid), in: accountCache) }
            return user
        }
        // Taken before the read: a write that forgets this user meanwhile moves it, and then the
        // answer, which may predate that write, is not remembered.
        let generation = accountCache.generation
        let user = try await readUser(uid: uid)
        if let user { accountCache.remember(user, readAt: generation) }
        return user
    }

    /// Reads a cached user or its passkeys again in the background, remembering the answer (see
    /// ``AccountCache/Refresh``): nobody waits for it, and a failed read leaves the entry to expire.
    func readAgain(_ refresh: AccountCache.Refresh, in cache: AccountCache) {
        Task {
            defer { cache.refreshEnded(refresh) }
            let generation = cache.generation
            switch refresh {
            case .user(let uid):
                if let user = try? await readUser(uid: uid) { cache.remember(user, readAt: generation) }
            case .passkeys(let uid):
                if let passkeys = try? await readPasskeys(uid: uid) { cache.remember(passkeys, of: uid, readAt: generation) }
            }
        }
    }

    private func readUser(uid: String) async throws -> UserRecord? {
        try await work.readSingleStatement { database in
            try await Self.selectUsers(where: "users.uid = \(bind: uid)", tenant: tenantID, on: database).first
        }
    }

    public func user(email: String) async throws -> UserRecord? {
        try await work.readSingleStatement { database in
            try await Self.selectUsers(where: "users.email = \(bind: email)", tenant: tenantID, on: database).first
        }
    }

    public func user(providerID: String, rawID: String) async throws -> UserRecord? {
        try await work.readSingleStatement { database in
            try await Self.selectUsers(
                where: """
                    users.uid IN (SELECT owner.uid FROM provider_links AS owner
                                  WHERE owner.tenant_id = \(bind: tenantID) AND owner.provider_id = \(bind: providerID)
                                    AND owner.raw_id = \(bind: rawID))
                    """,
                tenant: tenantID, on: database
            ).first
        }
    }

    public func users(anyEmail email: String) async throws -> [UserRecord] {
        try await work.readSingleStatement { database in
            try await Self.selectUsers(
                where: """
                    users.email = \(bind: email)
                    OR users.uid IN (SELECT owner.uid FROM provider_links AS owner
                                     WHERE owner.tenant_id = \(bind: tenantID) AND lower(owner.email) = \(bind: email))
                    """,
                tenant: tenantID, on: database)
        }
    }

    public func user(phoneNumber: String) async throws -> UserRecord? {
        try await work.readSingleStatement { database in
            try await Self.selectUsers(where: "users.phone_number = \(bind: phoneNumber)", tenant: tenantID, on: database).first
        }
    }

    public func users(after uid: String?, limit: Int) async throws -> [UserRecord] {
        guard limit > 0 else { return [] }
        // One statement: the page's uids in a subquery (LIMIT counts users, not joined link rows),
        // their users and links around it. Ordered by uid in byte order on both databases.
        let users = try await work.readSingleStatement { database in
            let bytes = SQLDialectQuirks.byteCollation(on: database)
            let after: SQLQueryString = uid.map { "AND page.uid \(bytes) > \(bind: $0)" } ?? ""
            return try await Self.selectUsers(
                where: """
                    users.uid IN (SELECT page.uid FROM users AS page WHERE page.tenant_id = \(bind: tenantID) \(after)
                                  ORDER BY page.uid \(bytes) LIMIT \(bind: limit))
                    """,
                tenant: tenantID, on: database)
        }
        return users.sorted { $0.uid.utf8.lexicographicallyPrecedes($1.uid.utf8) }
    }

    /// Stores a session of an existing user. Throws ``HearthError/Code/userNotFound`` when there is none.
    public func insertSession(_ session: RefreshSessionRecord) async throws {
        let tenant = tenantID
        try await work.write { database in
            guard
                try await Self.exists(
                    database, "SELECT uid FROM users WHERE tenant_id = \(bind: tenant) AND uid = \(bind: session.uid)")
            else {
                throw HearthError(.userNotFound, reason: "insertSession: no such user")
            }
            try await Self.insertSessionRow(session, tenant: tenant, on: database)
        }
    }

    /// The session and its user (with links) in ONE statement: `refresh_sessions` LEFT JOIN `users`
    /// LEFT JOIN `provider_links`, so a refresh costs one read instead of two.
    public func sessionWithUser(tokenHash: String) async throws -> (session: RefreshSessionRecord, user: UserRecord?)? {
        guard let accountCache else { return try await readSessionWithUser(tokenHash: tokenHash) }
        if let found = accountCache.sessionWithUser(tokenHash: tokenHash) {
            if found.refresh { readAgain(.user(found.user.uid), in: accountCache) }
            return (found.session, found.user)
        }
        let generation = accountCache.generation
        let found = try await readSessionWithUser(tokenHash: tokenHash)
        if let found, let user = found.user { accountCache.remember(found.session, of: user, readAt: generation) }
        return found
    }

    private func readSessionWithUser(tokenHash: String) async throws -> (session: RefreshSessionRecord, user: UserRecord?)? {
        try await work.readSingleStatement { database in
            let rows = try await Self.rows(
                database,
                """
                SELECT \(Self.sessionWithPrefixColumns), \(Self.userWithLinkColumns)
                FROM refresh_sessions
                LEFT JOIN users ON users.tenant_id = refresh_sessions.tenant_id AND users.uid = refresh_sessions.uid
                LEFT JOIN provider_links ON provider_links.tenant_id = users.tenant_id AND provider_links.uid = users.uid
                WHERE refresh_sessions.tenant_id = \(bind: tenantID) AND refresh_sessions.token_hash = \(bind: tokenHash)
                """)
            guard let first = rows.first else { return nil }
            var session = RefreshSessionRecord(
                tokenHash: try first.text("session_token_hash"),
                uid: try first.text("session_uid"),
                signInProvider: try first.text("session_sign_in_provider"),
                authTime: try first.date("session_auth_time"),
                createdAt: try first.date("session_created_at"),
                extraClaims: try first.optionalText("session_extra_claims"),
                secondFactor: try first.optionalText("session_second_factor").flatMap(SecondFactorUse.init(stored:)))
            session.tenantID = tenantID.isEmpty ? nil : tenantID
            // A session outlives its user only between a delete and its cascade: no user then.
            guard try first.optionalText("uid") != nil else { return (session, nil) }
            return (session, try Self.groupUsers(rows).first)
        }
    }

    public func session(tokenHash: String) async throws -> RefreshSessionRecord? {
        try await work.readSingleStatement { database in
            let rows = try await Self.rows(
                database,
                """
                SELECT \(Self.sessionColumns) FROM refresh_sessions
                WHERE tenant_id = \(bind: tenantID) AND token_hash = \(bind: tokenHash)
                """)
            return try rows.first.map(Self.session(from:))
        }
    }

    public func scheduleAnonymousDeletion(olderThan age: TimeInterval, notBefore: Date) async throws -> Int {
        let ageMilliseconds = StoredTime.milliseconds(interval: age)
        let notBeforeMilliseconds = StoredTime.milliseconds(notBefore)
        // Everyone is forgotten when someone was scheduled (or when the write failed): the clean-up runs every few
        // minutes, and most runs change nothing.
        var changed = true
        defer { if changed { accountCache?.forgetAll() } }
        let scheduled = try await work.write { database in
            // max(created_at + age, notBefore), spelled with CASE: SQLite's max() is PostgreSQL's GREATEST().
            let scheduled = try await Self.rows(
                database,
                """
                UPDATE users SET scheduled_deletion_at =
                    CASE WHEN created_at + \(bind: ageMilliseconds) > \(bind: notBeforeMilliseconds)
                         THEN created_at + \(bind: ageMilliseconds)
                         ELSE \(bind: notBeforeMilliseconds) END
                WHERE tenant_id = \(bind: self.tenantID) AND scheduled_deletion_at IS NULL AND \(Self.isAnonymous())
                RETURNING uid
                """
            ).count
            if scheduled > 0 { try await self.announceAccountChange(nil, on: database) }
            return scheduled
        }
        changed = scheduled > 0
        return scheduled
    }

    public func deleteScheduledAnonymousUsers(now: Date, limit: Int) async throws -> [String] {
        guard limit > 0 else { return [] }
        let nowMilliseconds = StoredTime.milliseconds(now)
        var changed = true
        defer { if changed { accountCache?.forgetAll() } }
        let removed: [String] = try await work.write { database in
            let candidates = try await Self.rows(
                database,
                """
                SELECT uid FROM users
                WHERE tenant_id = \(bind: self.tenantID) AND scheduled_deletion_at <= \(bind: nowMilliseconds) AND \(Self.isAnonymous())
                ORDER BY scheduled_deletion_at, uid
                LIMIT \(bind: Int64(limit))
                """
            ).map { try $0.text("uid") }
            guard !candidates.isEmpty else { return [] }
            // The anonymity rule is repeated so a user upgraded meanwhile is never deleted.
            let deleted = try await Self.rows(
                database,
                """
                DELETE FROM users
                WHERE tenant_id = \(bind: self.tenantID) AND uid IN (\(binds: candidates)) AND \(Self.isAnonymous())
                RETURNING uid
                """
            ).map { try $0.text("uid") }
            if !deleted.isEmpty { try await self.announceAccountChange(nil, on: database) }
            let deletedSet = Set(deleted)
            return candidates.filter { deletedSet.contains($0) }
        }
        changed = !removed.isEmpty
        return removed
    }

    /// One statement, no read first: the refresh endpoint calls it at most once a minute per user
    /// (``UserRecord/recordsRefresh(at:)``), and a later time already recorded (another replica's) stays.
    public func recordRefresh(uid: String, at time: Date) async throws {
        defer { accountCache?.forget(uid: uid) }
        let milliseconds = StoredTime.milliseconds(time)
        try await work.writeSingleStatement { database in
            try await Self.exec(
                database,
                """
                UPDATE users SET last_refresh_at = \(bind: milliseconds)
                WHERE tenant_id = \(bind: self.tenantID) AND uid = \(bind: uid)
                  AND (last_refresh_at IS NULL OR last_refresh_at < \(bind: milliseconds))
                """)
        }
    }

    public func countUsers() async throws -> Int {
        try await work.readSingleStatement { database in
            let rows = try await Self.rows(
                database, "SELECT COUNT(*) AS user_count FROM users WHERE tenant_id = \(bind: tenantID)")
            return Int(try rows.first?.int64("user_count") ?? 0)
        }
    }
}

// MARK: - Rows

extension SQLStore {
    /// Columns of `users` in the order ``userValues(_:)`` binds them (after `tenant_id` and `uid`).
    static let userColumns: SQLQueryString = """
        tenant_id, uid, email, email_verified, display_name, photo_url, phone_number, password_hash, \
        password_updated_at, disabled, custom_attributes, custom_auth, created_at, last_login_at, \
        valid_since, scheduled_deletion_at, email_link_sign_in, second_factors, last_refresh_at, initial_email
        """

    /// Columns of `provider_links`.
    static let linkColumns: SQLQueryString = """
        tenant_id, uid, provider_id, raw_id, email, display_name, photo_url, phone_number, screen_name
        """

    /// "Anonymous": no password, no e-mail link sign-in (to an address), no provider link, no phone number,
    /// never signed in with a custom token (``UserRecord/isAnonymous``). Applies to the `users` table, unaliased.
    static func isAnonymous() -> SQLQueryString {
        """
        (users.password_hash IS NULL AND users.phone_number IS NULL AND users.custom_auth = \(bind: false)
         AND (users.email_link_sign_in = \(bind: false) OR users.email IS NULL)
         AND NOT EXISTS (SELECT 1 FROM provider_links
                         WHERE provider_links.tenant_id = users.tenant_id AND provider_links.uid = users.uid))
        """
    }

    /// Throws `INVALID_ARGUMENT` when a text of `user` or of its links holds a NUL: PostgreSQL refuses it
    /// and SQLite's driver would read the value back cut at the NUL (a uid `victim\0x` as `victim`), so
    /// nothing is written that would not come back whole. The controllers refuse such input first; this
    /// is the floor under them.
    static func checkStorable(_ user: UserRecord) throws {
        let texts: [String?] =
            [user.uid, user.email, user.initialEmail, user.displayName, user.photoURL, user.phoneNumber, user.passwordHash, user.customAttributes]
            + user.secondFactors.map(\.displayName)
        let linkTexts: [String?] = user.providers.flatMap { link in
            [link.providerID, link.rawID, link.email, link.displayName, link.photoURL, link.phoneNumber, link.screenName]
        }
        for text in texts + linkTexts {
            if let text, !UserText.isStorable(text) {
                throw HearthError(.invalidArgument, detail: "Text values must not contain NUL characters.", reason: "NUL in a user's text")
            }
        }
    }

    /// The values of ``userColumns`` after `uid`.
    static func userValues(_ user: UserRecord) -> [any Encodable & Sendable] {
        [
            user.email, user.emailVerified, user.displayName, user.photoURL, user.phoneNumber,
            user.passwordHash, StoredTime.milliseconds(user.passwordUpdatedAt), user.disabled,
            user.customAttributes, user.customAuth, StoredTime.milliseconds(user.createdAt),
            StoredTime.milliseconds(user.lastLoginAt), StoredTime.milliseconds(user.validSince),
            StoredTime.milliseconds(user.scheduledDeletionAt), user.emailLinkSignIn, SecondFactorsRow.text(of: user),
            StoredTime.milliseconds(user.lastRefreshAt), user.initialEmail,
        ]
    }

    /// The stable order of a user's links: by provider id (a user has at most one link per provider).
    static func ordered(_ links: [ProviderLink]) -> [ProviderLink] {
        links.sorted { ($0.providerID, $0.rawID) < ($1.providerID, $1.rawID) }
    }

    /// The columns ``selectUsers(where:tenant:on:)`` reads: every column of `users` under its own name
    /// (`users.*`), and every column of the joined `provider_links` row prefixed with `link_` (NULL
    /// without a link). `users.*` rather than fifteen `users.x AS x`: SQLite prepares every statement
    /// afresh, and a shorter statement parses and resolves faster (the lookup's hottest cost).
    static let userWithLinkColumns: SQLQueryString = {
        let linkNames = ["provider_id", "raw_id", "email", "display_name", "photo_url", "phone_number", "screen_name"]
        return SQLQueryString((["users.*"] + linkNames.map { "provider_links.\($0) AS link_\($0)" }).joined(separator: ", "))
    }()

    /// Users matching `predicate` (over `users`, whose columns it must qualify: `provider_links` is
    /// joined), oldest first, each with its links, read by ONE statement: one row per link (one row
    /// with NULL link columns for a user without links), a user's rows adjacent.
    static func selectUsers(where predicate: SQLQueryString, tenant: String, on database: any SQLDatabase) async throws -> [UserRecord] {
        let rows = try await rows(
            database,
            """
            SELECT \(userWithLinkColumns)
            FROM users LEFT JOIN provider_links ON provider_links.tenant_id = users.tenant_id AND provider_links.uid = users.uid
            WHERE users.tenant_id = \(bind: tenant) AND (\(predicate))
            ORDER BY users.created_at, users.uid
            """)
        return try groupUsers(rows)
    }

    /// `refresh_sessions` columns prefixed with `session_`, for reads that join users to a session.
    static let sessionWithPrefixColumns: SQLQueryString = {
        let names = ["token_hash", "tenant_id", "uid", "sign_in_provider", "auth_time", "created_at", "extra_claims", "second_factor"]
        return SQLQueryString(names.map { "refresh_sessions.\($0) AS session_\($0)" }.joined(separator: ", "))
    }()

    /// Users from rows of ``userWithLinkColumns`` (one row per link, a user's rows adjacent).
    static func groupUsers(_ rows: [any SQLRow]) throws -> [UserRecord] {
        var users: [UserRecord] = []
        var current: (row: any SQLRow, uid: String, links: [ProviderLink])?
        for row in rows {
            let uid = try row.text("uid")
            if uid != current?.uid {
                if let current {
                    users.append(try userRecord(from: current.row, providers: ordered(current.links)))
                }
                current = (row, uid, [])
            }
            if let link = try joinedProviderLink(from: row) {
                current?.links.append(link)
            }
        }
        if let current {
            users.append(try userRecord(from: current.row, providers: ordered(current.links)))
        }
        return users
    }

    /// The `link_`-prefixed link of a ``selectUsers(where:tenant:on:)`` row, `nil` when the user has none.
    static func joinedProviderLink(from row: any SQLRow) throws -> ProviderLink? {
        guard let providerID = try row.optionalText("link_provider_id") else { return nil }
        return ProviderLink(
            providerID: providerID,
            rawID: try row.text("link_raw_id"),
            email: try row.optionalText("link_email"),
            displayName: try row.optionalText("link_display_name"),
            photoURL: try row.optionalText("link_photo_url"),
            phoneNumber: try row.optionalText("link_phone_number"),
            screenName: try row.optionalText("link_screen_name"))
    }

    /// Users matching `predicate` (over the unaliased `users` table), oldest first, with their links.
    /// `lock` takes row locks where the dialect has them (see ``SQLDialectQuirks/lockForUpdate(on:)``).
    static func loadUsers(
        where predicate: SQLQueryString, tenant: String, on database: any SQLDatabase, lock: Bool = false
    ) async throws -> [UserRecord] {
        let locking: any SQLExpression = lock ? SQLDialectQuirks.lockForUpdate(on: database) : SQLRaw("")
        let userRows = try await rows(
            database,
            "SELECT \(userColumns) FROM users WHERE tenant_id = \(bind: tenant) AND (\(predicate)) ORDER BY created_at, uid \(locking)")
        guard !userRows.isEmpty else { return [] }
        let uids = try userRows.map { try $0.text("uid") }
        let linkRows = try await rows(
            database,
            "SELECT \(linkColumns) FROM provider_links WHERE tenant_id = \(bind: tenant) AND uid IN (\(binds: uids)) \(locking)")
        var linksByUID: [String: [ProviderLink]] = [:]
        for row in linkRows {
            linksByUID[try row.text("uid"), default: []].append(try providerLink(from: row))
        }
        return try userRows.map { row in
            try userRecord(from: row, providers: ordered(linksByUID[try row.text("uid")] ?? []))
        }
    }

    static func userRecord(from row: any SQLRow, providers: [ProviderLink]) throws -> UserRecord {
        var user = UserRecord(
            uid: try row.text("uid"),
            email: try row.optionalText("email"),
            emailVerified: try row.bool("email_verified"),
            displayName: try row.optionalText("display_name"),
            photoURL: try row.optionalText("photo_url"),
            phoneNumber: try row.optionalText("phone_number"),
            passwordHash: try row.optionalText("password_hash"),
            passwordUpdatedAt: try row.optionalDate("password_updated_at"),
            disabled: try row.bool("disabled"),
            customAttributes: try row.optionalText("custom_attributes"),
            customAuth: try row.bool("custom_auth"),
            emailLinkSignIn: try row.bool("email_link_sign_in"),
            createdAt: try row.date("created_at"),
            lastLoginAt: try row.optionalDate("last_login_at"),
            validSince: try row.date("valid_since"),
            scheduledDeletionAt: try row.optionalDate("scheduled_deletion_at"),
            providers: providers, initialEmail: try row.optionalText("initial_email"),
            lastRefreshAt: try row.optionalDate("last_refresh_at"))
        let tenant = try row.text("tenant_id")
        user.tenantID = tenant.isEmpty ? nil : tenant
        if let text = try row.optionalText("second_factors") { try SecondFactorsRow.read(text, into: &user) }
        return user
    }

    static func providerLink(from row: any SQLRow) throws -> ProviderLink {
        ProviderLink(
            providerID: try row.text("provider_id"),
            rawID: try row.text("raw_id"),
            email: try row.optionalText("email"),
            displayName: try row.optionalText("display_name"),
            photoURL: try row.optionalText("photo_url"),
            phoneNumber: try row.optionalText("phone_number"),
            screenName: try row.optionalText("screen_name"))
    }

    /// Inserts `links` of user `uid` with one statement. A provider identity another user has is
    /// reported as ``StoreConflict/providerIdentity`` (by the constraint).
    static func insertLinks(_ links: [ProviderLink], uid: String, tenant: String, on database: any SQLDatabase) async throws {
        guard !links.isEmpty else { return }
        let rows: [any SQLExpression] = links.map { link in
            let values: [any Encodable & Sendable] = [
                tenant, uid, link.providerID, link.rawID, link.email, link.displayName, link.photoURL,
                link.phoneNumber, link.screenName,
            ]
            let row: SQLQueryString = "(\(binds: values))"
            return row
        }
        try await exec(database, "INSERT INTO provider_links (\(linkColumns)) VALUES \(SQLList(rows))")
    }

    /// Inserts the `users` row of a new user (not its links). When a unique rule stops it, throws the
    /// conflict ``checkUniqueness(of:replacing:on:)`` would have reported first (uid, then e-mail, then
    /// phone number), whichever constraint the database happened to trip: `ON CONFLICT DO NOTHING`
    /// leaves the transaction usable on both dialects, so the rules are then checked in order.
    static func insertUserRow(_ user: UserRecord, tenant: String, on database: any SQLDatabase) async throws {
        try checkStorable(user)
        let inserted = try await exists(
            database,
            """
            INSERT INTO users (\(userColumns)) VALUES (\(bind: tenant), \(bind: user.uid), \(binds: userValues(user)))
            ON CONFLICT DO NOTHING RETURNING uid
            """)
        guard !inserted else { return }
        if try await exists(database, "SELECT uid FROM users WHERE tenant_id = \(bind: tenant) AND uid = \(bind: user.uid)") {
            throw StoreConflict.uid
        }
        try await checkUniqueness(of: user, replacing: nil, tenant: tenant, on: database)
        // The conflicting row went away meanwhile (another transaction committed its removal):
        // insert again, letting the constraints speak.
        try await exec(
            database,
            "INSERT INTO users (\(userColumns)) VALUES (\(bind: tenant), \(bind: user.uid), \(binds: userValues(user)))")
    }

    /// Throws ``StoreConflict/providerIdentity`` when `links` has two links to one provider.
    static func checkOneLinkPerProvider(_ links: [ProviderLink]) throws {
        var providerIDs = Set<String>()
        for link in links where !providerIDs.insert(link.providerID).inserted {
            throw StoreConflict.providerIdentity
        }
    }

    /// Columns of `refresh_sessions` in the order ``sessionValues(_:)`` binds them.
    static let sessionColumns: SQLQueryString =
        "token_hash, tenant_id, uid, sign_in_provider, auth_time, created_at, extra_claims, second_factor"

    /// The values of ``sessionColumns``.
    static func sessionValues(_ session: RefreshSessionRecord, tenant: String) -> [any Encodable & Sendable] {
        [
            session.tokenHash, tenant, session.uid, session.signInProvider, StoredTime.milliseconds(session.authTime),
            StoredTime.milliseconds(session.createdAt), session.extraClaims, session.secondFactor?.stored,
        ]
    }

    static func session(from row: any SQLRow) throws -> RefreshSessionRecord {
        var session = RefreshSessionRecord(
            tokenHash: try row.text("token_hash"),
            uid: try row.text("uid"),
            signInProvider: try row.text("sign_in_provider"),
            authTime: try row.date("auth_time"),
            createdAt: try row.date("created_at"),
            extraClaims: try row.optionalText("extra_claims"),
            secondFactor: try row.optionalText("second_factor").flatMap(SecondFactorUse.init(stored:)))
        session.tenantID = try tenantID(row)
        return session
    }

    static func insertSessionRow(_ session: RefreshSessionRecord, tenant: String, on database: any SQLDatabase) async throws {
        try await exec(
            database,
            "INSERT INTO refresh_sessions (\(sessionColumns)) VALUES (\(binds: sessionValues(session, tenant: tenant)))")
    }

    /// Checks, inside the transaction, the uniqueness rules `user` could break (only for values that
    /// differ from `previous`, the row being replaced), in the order their conflicts are reported:
    /// e-mail, phone number, two links to one provider, a provider identity another user has.
    /// ``updateUser(uid:session:_:)`` runs it before writing; ``createUser(_:session:)`` only after
    /// the constraints refused the new row. The constraints in the schema stay the backstop; their
    /// violations are mapped the same way.
    static func checkUniqueness(
        of user: UserRecord, replacing previous: UserRecord?, tenant: String, on database: any SQLDatabase
    ) async throws {
        if let email = user.email, email != previous?.email,
            try await exists(
                database,
                "SELECT uid FROM users WHERE tenant_id = \(bind: tenant) AND email = \(bind: email) AND uid <> \(bind: user.uid)")
        {
            throw StoreConflict.email
        }
        if let phone = user.phoneNumber, phone != previous?.phoneNumber,
            try await exists(
                database,
                "SELECT uid FROM users WHERE tenant_id = \(bind: tenant) AND phone_number = \(bind: phone) AND uid <> \(bind: user.uid)")
        {
            throw StoreConflict.phoneNumber
        }
        try checkOneLinkPerProvider(user.providers)  // two links to the same provider
        let previousLinks = previous?.providers ?? []
        for link in user.providers
        where !previousLinks.contains(where: { $0.providerID == link.providerID && $0.rawID == link.rawID }) {
            let taken = try await exists(
                database,
                """
                SELECT uid FROM provider_links
                WHERE tenant_id = \(bind: tenant) AND provider_id = \(bind: link.providerID) AND raw_id = \(bind: link.rawID)
                  AND uid <> \(bind: user.uid)
                """)
            if taken { throw StoreConflict.providerIdentity }
        }
    }
}
