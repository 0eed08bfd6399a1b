import Foundation
import HearthCore
import HearthTelemetry
import Logging
import SQLKit

/// Everything Hearth keeps, in an SQL database: the one implementation of ``HearthStore``.
///
/// The SQL is portable (SQLite and PostgreSQL); the backend-specific parts — connections,
/// `BEGIN`/`COMMIT`, mapping of I/O failures — live in the ``SQLTransactor`` it is given.
/// Each protocol method is exactly one transaction: an explicit one, or a single statement (which
/// is atomic and reads one snapshot on its own; see ``SQLTransactor/readSingleStatement(_:)``).
///
/// Open one through a backend, e.g. `SQLiteStorage.open(path:logger:)` in `HearthStorageSQLite`,
/// or build one around any transactor and call ``migrate()`` before use.
public final class SQLStore: HearthStore {
    /// The backend's transactor.
    public let transactor: any SQLTransactor
    /// The transactor every unit of work of the store runs through: ``transactor``, timed and traced.
    let work: InstrumentedTransactor
    let logger: Logger
    /// Users read by uid and sessions by token hash; `nil` unless this store is the only process
    /// writing its database.
    let accountCache: AccountCache?
    /// Seals the secrets the store keeps (signing keys' private keys, identity-provider settings, the bodies of
    /// queued mails) before they reach a row, and opens them when read; `nil`: they are written in plain text
    /// (see ``SecretSealer`` for how plain text and sealed values are told apart).
    public let sealer: SecretSealer?
    /// Whether other processes may write the database at the same time (PostgreSQL), so that they are told of the
    /// users this store changes (see ``announceAccountChange(_:on:)``).
    let databaseIsShared: Bool
    /// The tenant this store sees: every query of a person's account or of a setting carries it, so a store scoped to
    /// one tenant can neither read nor change another's rows. `""`: the project's own users (no tenant).
    public let tenantID: String
    /// Audit events waiting for their multi-row `INSERT`, shared by every tenant's view of the store (each row
    /// carries its tenant): at most 100 rows, 1,000 bound values, a statement.
    let auditInserts: TurnQueue<AuditRow>

    /// Wraps a transactor. Does not touch the database; call ``migrate()`` before first use.
    ///
    /// - Parameter userCacheCapacity: how many users read by uid (and as many refresh sessions) to
    ///   keep in memory (see ``AccountCache``), or 0 for none. Without `sharedCacheMaximumAge` only a store that is the ONLY
    ///   process writing its database may keep any: a row another process changed would be served stale.
    /// - Parameter sharedCacheMaximumAge: with a cache, the processes sharing the database announce the users their writes
    ///   change (PostgreSQL's `pg_notify`), and this store serves an entry no longer than this after reading it. The
    ///   cache stays empty until the announcements are heard (``hearsAccountChanges(_:)``, which a listener such as
    ///   `PostgresAccountChangeListener` calls).
    /// - Parameter sealer: seals secrets at rest (see ``sealer``).
    /// - Parameter telemetry: where the store's transactions are timed and traced; `system` names the database in
    ///   the spans (`sqlite`, `postgresql`).
    public init(
        transactor: any SQLTransactor, logger: Logger, userCacheCapacity: Int = 0, sharedCacheMaximumAge: Duration? = nil,
        sealer: SecretSealer? = nil, telemetry: Telemetry = .off, system: String = "sqlite"
    ) {
        self.transactor = transactor
        self.work = InstrumentedTransactor(transactor, system: system, telemetry: telemetry)
        self.logger = logger
        self.sealer = sealer
        self.accountCache = userCacheCapacity > 0 ? AccountCache(capacity: userCacheCapacity, maximumAge: sharedCacheMaximumAge) : nil
        self.databaseIsShared = system == "postgresql"
        self.tenantID = ""
        self.auditInserts = TurnQueue(maximumBatch: 100)
    }

    private init(scoping store: SQLStore, to tenantID: String) {
        self.transactor = store.transactor
        self.work = store.work
        self.logger = store.logger
        self.sealer = store.sealer
        // The cache is keyed by uid alone: it serves the project's own users, and a tenant's are always read.
        self.accountCache = tenantID.isEmpty ? store.accountCache : nil
        self.databaseIsShared = store.databaseIsShared
        self.tenantID = tenantID
        self.auditInserts = store.auditInserts
    }

    /// The same database seen by one tenant (`nil`: the project's own users): the rows of every other tenant are out
    /// of its reach. Cheap: it shares this store's connections and cache.
    public func scoped(toTenant tenantID: String?) -> SQLStore {
        let tenantID = tenantID ?? ""
        return tenantID == self.tenantID ? self : SQLStore(scoping: self, to: tenantID)
    }

    /// How busy the backend's connection pools are now (for `/metrics`).
    public func poolUsage() -> [DatabasePoolUsage] { transactor.poolUsage() }

    // MARK: - Announcing changes to other processes (a shared cache)

    /// The PostgreSQL channel on which writes announce the users they changed: a uid, or `*` for everyone.
    public static let accountChangesChannel = "hearth_account_changes"

    /// Whether this store's writes announce the users they change: on PostgreSQL, where other replicas may cache them,
    /// whether or not this store caches (a tool such as `hearth users import` writes the same rows). Only the project's
    /// own users are cached, so a tenant's store announces nothing.
    var announcesAccountChanges: Bool { databaseIsShared && tenantID.isEmpty }

    /// Announces, inside the write's transaction, that the user `uid` changed (`nil`: users in bulk). PostgreSQL
    /// delivers it to every listening replica when the transaction commits, and never when it rolls back.
    func announceAccountChange(_ uid: String?, on database: any SQLDatabase) async throws {
        guard announcesAccountChanges else { return }
        try await Self.exec(database, "SELECT pg_notify(\(bind: Self.accountChangesChannel), \(bind: uid.map { "u:" + $0 } ?? "*"))")
    }

    /// An announcement heard on ``accountChangesChannel`` (another replica's write, or this store's own): forgets the
    /// user it names, or everyone. Anything else is taken as "everyone".
    public func heardAccountChange(_ payload: String) {
        guard let accountCache else { return }
        if payload.hasPrefix("u:") {
            accountCache.forget(uid: String(payload.dropFirst(2)))
        } else {
            accountCache.forgetAll()
        }
    }

    /// Whether the announcements are heard now: a shared cache serves only while they are, and starts empty each time
    /// they are heard again.
    public func hearsAccountChanges(_ hearing: Bool) {
        if hearing { accountCache?.resume() } else { accountCache?.suspend() }
    }

    /// Whether the cache serves entries now (a shared one only while announcements are heard); for tests.
    public var cacheIsServing: Bool { accountCache?.isServing ?? false }

    /// How many users the store keeps in memory now (0 without a cache); for tests.
    public var cachedUserCount: Int { accountCache?.counts.users ?? 0 }

    /// The user with this uid as the store keeps it in memory now, without asking for it to be read again; for tests.
    public func cachedUser(uid: String) -> UserRecord? { accountCache?.remembered(uid: uid) }

    /// How many refresh sessions the store keeps in memory now (0 without a cache); for tests.
    public var cachedSessionCount: Int { accountCache?.counts.sessions ?? 0 }

    /// Closes the underlying connections. The store cannot be used afterwards.
    public func close() async throws {
        try await transactor.close()
    }

    // MARK: - Migrations

    /// Names of all migrations this binary knows, oldest first.
    public static var knownMigrations: [String] { HearthSchema.migrations.map(\.name) }

    /// Applies every migration the database has not had yet, in order, each in its own transaction.
    /// Applying twice is a no-op.
    ///
    /// Safe when several processes start at once on one database: on PostgreSQL every migration
    /// transaction first takes an advisory transaction lock
    /// (``SQLDialectQuirks/TransactionLock/migrations``) and re-checks `schema_migrations`, so one
    /// process applies each migration and the others wait, then see it applied. On SQLite the
    /// single writer serializes them the same way.
    ///
    /// Throws ``SQLStoreError/unknownMigration(_:)`` when the database records a migration this
    /// binary does not know (the schema was written by a newer version).
    public func migrate() async throws {
        try await migrate(through: nil)
    }

    /// ``migrate()``, stopping after the migration named `last` (`nil`: all): the upgrade tests fill a database of an
    /// older schema and then migrate it.
    func migrate(through last: String?) async throws {
        let applied = try await appliedMigrations()
        let end = last.flatMap { name in HearthSchema.migrations.firstIndex { $0.name == name } }.map { $0 + 1 } ?? HearthSchema.migrations.count
        for migration in HearthSchema.migrations.prefix(end) where !applied.contains(migration.name) {
            let appliedNow = try await Self.waitingOutOtherMigrators {
                try await self.work.write { database in
                    try await SQLDialectQuirks.takeTransactionLock(.migrations, on: database)
                    // Re-checked inside the transaction: another process may have got there first.
                    let existing = try await Self.rows(
                        database, "SELECT name FROM schema_migrations WHERE name = \(bind: migration.name)")
                    guard existing.isEmpty else { return false }
                    for statement in migration.statements {
                        try await Self.exec(database, statement)
                    }
                    let now = StoredTime.milliseconds(Date())
                    try await Self.exec(
                        database,
                        "INSERT INTO schema_migrations (name, applied_at) VALUES (\(bind: migration.name), \(bind: now))")
                    return true
                }
            }
            if appliedNow {
                logger.info("Applied schema migration", metadata: ["migration": "\(migration.name)"])
            }
        }
    }

    /// Names of the migrations ``migrate()`` would apply, oldest first.
    ///
    /// Only reads (`hearth migrate` without `--apply` must change nothing): a database without the
    /// `schema_migrations` bookkeeping table has every migration pending. Throws
    /// ``SQLStoreError/unknownMigration(_:)`` like ``migrate()``.
    public func pendingMigrations() async throws -> [String] {
        let names = try await work.read { database in
            guard try await SQLDialectQuirks.tableExists("schema_migrations", on: database) else { return [String]() }
            return try await Self.rows(database, "SELECT name FROM schema_migrations ORDER BY name")
                .map { try $0.text("name") }
        }
        let applied = try Self.checkKnown(names)
        return HearthSchema.migrations.map(\.name).filter { !applied.contains($0) }
    }

    /// The names recorded in `schema_migrations` (creating the table if needed), after checking that
    /// this binary knows all of them.
    private func appliedMigrations() async throws -> Set<String> {
        let names = try await Self.waitingOutOtherMigrators {
            try await self.work.write { database in
                // Under the migration lock: concurrent `CREATE TABLE IF NOT EXISTS` can collide on PostgreSQL.
                try await SQLDialectQuirks.takeTransactionLock(.migrations, on: database)
                try await Self.exec(database, HearthSchema.createMigrationsTable)
                return try await Self.rows(database, "SELECT name FROM schema_migrations ORDER BY name")
                    .map { try $0.text("name") }
            }
        }
        return try Self.checkKnown(names)
    }

    /// Runs a migration transaction again when its wait for the migration lock outlasted the statement time-out:
    /// replicas starting together on a slow database queue behind one another's migrations, and a queue longer
    /// than one statement may wait is no reason to fail start-up. Up to 20 tries; any other error at once.
    private static func waitingOutOtherMigrators<T>(_ transaction: () async throws -> T) async throws -> T {
        var tries = 1
        while true {
            do {
                return try await transaction()
            } catch  where tries < 20 && SQLDialectQuirks.isStatementTimeout(error) {
                tries += 1
            }
        }
    }

    /// `names` as a set, after checking that this binary knows every one of them.
    private static func checkKnown(_ names: [String]) throws -> Set<String> {
        let known = Set(HearthSchema.migrations.map(\.name))
        if let unknown = names.first(where: { !known.contains($0) }) {
            throw SQLStoreError.unknownMigration(unknown)
        }
        return Set(names)
    }

    // MARK: - Statement helpers

    /// Runs a statement, translating unique-constraint violations into ``StoreConflict``.
    static func exec(_ database: any SQLDatabase, _ query: SQLQueryString) async throws {
        do {
            try await database.raw(query).run()
        } catch {
            throw SQLDialectQuirks.conflict(from: error) ?? error
        }
    }

    /// Runs a query and returns its rows, translating unique-constraint violations into ``StoreConflict``.
    static func rows(_ database: any SQLDatabase, _ query: SQLQueryString) async throws -> [any SQLRow] {
        do {
            return try await database.raw(query).all()
        } catch {
            throw SQLDialectQuirks.conflict(from: error) ?? error
        }
    }

    /// Whether a query returns at least one row.
    static func exists(_ database: any SQLDatabase, _ query: SQLQueryString) async throws -> Bool {
        try await !rows(database, query).isEmpty
    }
}
