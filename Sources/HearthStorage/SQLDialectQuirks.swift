import HearthCore
import SQLKit

/// The few places where SQLite and PostgreSQL differ, kept together.
///
/// Everything else in ``SQLStore`` is plain SQL both accept unchanged: `TEXT`/`BIGINT`/`BOOLEAN`
/// columns, named constraints, `ON CONFLICT … DO UPDATE`, `RETURNING`, `lower()`, `CASE`, and
/// placeholders rendered by SQLKit per dialect.
enum SQLDialectQuirks {
    /// Locks held for the rest of a write transaction, exclusive across every process sharing the
    /// database. PostgreSQL: `pg_advisory_xact_lock(key)`; the keys are fixed 64-bit constants
    /// ("Hearth" in ASCII, then a number) that cannot meet the 32-bit `hashtext(name)` keys of leader
    /// locks. SQLite: nothing, its write transactions already exclude every other writer.
    enum TransactionLock: Int64 {
        /// Schema migrations: one process applies them, the others wait and then see them applied.
        case migrations = 0x4865_6172_7468_0001
        /// Signing-key updates (``SQLStore/updateSigningKeys(_:)``).
        case signingKeys = 0x4865_6172_7468_0002
        /// The start of a console import (``SQLStore/startConsoleImportJob(_:staleBefore:)``): one runs at a time.
        case consoleImports = 0x4865_6172_7468_0003
        /// Login-failure records, one lock per subject (``SQLStore/updateLoginFailures(_:_:)``): the
        /// two-key form `pg_advisory_xact_lock(int4, int4)` with this class and `hashtext(subject)`,
        /// a key space apart from the one-key locks. Two subjects with the same hash merely wait for
        /// each other.
        case loginFailures = 0x4846
    }

    /// Whether `database` speaks PostgreSQL.
    static func isPostgreSQL(_ database: any SQLDatabase) -> Bool {
        database.dialect.name == "postgresql"
    }

    /// Whether table `name` exists (in the current schema on PostgreSQL), without touching it.
    static func tableExists(_ name: String, on database: any SQLDatabase) async throws -> Bool {
        let query: SQLQueryString =
            isPostgreSQL(database)
            ? "SELECT 1 AS present FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = \(bind: name)"
            : "SELECT 1 AS present FROM sqlite_master WHERE type = 'table' AND name = \(bind: name)"
        return try await !database.raw(query).all().isEmpty
    }

    /// Takes `lock` for the rest of the current write transaction (waiting for another holder to
    /// commit or roll back). Must be called inside ``SQLTransactor/write(_:)``.
    static func takeTransactionLock(_ lock: TransactionLock, on database: any SQLDatabase) async throws {
        guard isPostgreSQL(database) else { return }
        try await database.raw("SELECT pg_advisory_xact_lock(\(bind: lock.rawValue))").run()
    }

    /// Takes the lock of `key` in the class `lock` for the rest of the current write transaction
    /// (PostgreSQL; nothing on SQLite, whose writer is single). Must be called inside ``SQLTransactor/write(_:)``.
    static func takeTransactionLock(_ lock: TransactionLock, key: String, on database: any SQLDatabase) async throws {
        guard isPostgreSQL(database) else { return }
        try await database.raw("SELECT pg_advisory_xact_lock(\(bind: Int32(truncatingIfNeeded: lock.rawValue)), hashtext(\(bind: key)))").run()
    }

    /// The collation that compares text byte by byte, for orders that must agree on both databases (paging
    /// by uid): `COLLATE "C"` on PostgreSQL, whose default follows the database's locale; nothing on
    /// SQLite, whose default (`BINARY`) already does.
    static func byteCollation(on database: any SQLDatabase) -> SQLQueryString {
        isPostgreSQL(database) ? #"COLLATE "C""# : ""
    }

    /// `FOR UPDATE` where the dialect has row locks (PostgreSQL); nothing on SQLite, whose write
    /// transactions (`BEGIN IMMEDIATE`) already exclude every other writer.
    static func lockForUpdate(on database: any SQLDatabase) -> any SQLExpression {
        database.dialect.exclusiveSelectLockExpression ?? SQLRaw("")
    }

    /// `FOR UPDATE SKIP LOCKED` on PostgreSQL: a claim by several replicas at once, each taking the rows no other
    /// transaction has locked, so none waits and none gets a row another one took (a row another claim changed
    /// and committed meanwhile is re-checked against the `WHERE` and left out when no longer matching).
    /// Nothing on SQLite, whose write transactions (`BEGIN IMMEDIATE`) already run one at a time.
    static func claimForUpdate(on database: any SQLDatabase) -> SQLQueryString {
        isPostgreSQL(database) ? "FOR UPDATE SKIP LOCKED" : ""
    }

    /// Whether `error` is PostgreSQL's statement time-out (SQLSTATE `57014`, `statement_timeout`), read from the
    /// sanitized error the transactor hands over (SQLSTATE, no values).
    static func isStatementTimeout(_ error: any Error) -> Bool {
        String(reflecting: error).contains("57014")
    }

    /// The domain error for a driver's unique-constraint violation, or `nil` when `error` is not one.
    ///
    /// SQLite reports `UNIQUE constraint failed: users.email` (table.column); PostgreSQL reports
    /// SQLSTATE `23505` with the constraint name (`users_email_unique`). The schema names every
    /// constraint so both forms can be recognised. The error text is only inspected here, never
    /// logged or copied. (The PostgreSQL transactor hands over a sanitized error that carries the
    /// SQLSTATE and constraint name but no values.)
    static func conflict(from error: any Error) -> (any Error)? {
        let text = String(reflecting: error).lowercased()
        let isUniqueViolation =
            text.contains("unique constraint failed")  // SQLite
            || text.contains("23505") || text.contains("duplicate key value")  // PostgreSQL
        guard isUniqueViolation else { return nil }
        if text.contains("provider_links.provider_id") || text.contains("provider_links.uid")
            || text.contains("provider_links_pkey") || text.contains("provider_links_uid_provider_unique")
        {
            return StoreConflict.providerIdentity
        }
        if text.contains("users.email") || text.contains("users_email_unique") {
            return StoreConflict.email
        }
        if text.contains("users.phone_number") || text.contains("users_phone_number_unique") {
            return StoreConflict.phoneNumber
        }
        if text.contains("users.uid") || text.contains("users_pkey") {
            return StoreConflict.uid
        }
        return nil
    }
}

/// A statement written once per dialect, for DDL whose collations or NULL orders differ (an index must
/// be declared as the `ORDER BY` it serves is written, see ``SQLStore/ordering(_:table:on:)``).
struct DialectStatement: SQLExpression {
    let sqlite: String
    let postgreSQL: String

    func serialize(to serializer: inout SQLSerializer) {
        serializer.write(serializer.dialect.name == "postgresql" ? postgreSQL : sqlite)
    }
}
