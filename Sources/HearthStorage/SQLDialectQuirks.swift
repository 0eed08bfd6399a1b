import HearthCore
import SQLKit

/// The few places where SQLite and PostgreSQL differ, kept together.
///
/// Everything else in ``SQLStore`` is plain SQL both accept unchanged: `TEXT`/`BIGINT`/`BOOLEAN`
/// columns, named constraints, `ON CONFLICT … DO UPDATE`, `RETURNING`, `lower()`, `CASE`, and
/// placeholders rendered by SQLKit per dialect.
enum SQLDialectQuirks {
    /// `FOR UPDATE` where the dialect has row locks (PostgreSQL); nothing on SQLite, whose write
    /// transactions (`BEGIN IMMEDIATE`) already exclude every other writer.
    static func lockForUpdate(on database: any SQLDatabase) -> any SQLExpression {
        database.dialect.exclusiveSelectLockExpression ?? SQLRaw("")
    }

    /// The domain error for a driver's unique-constraint violation, or `nil` when `error` is not one.
    ///
    /// SQLite reports `UNIQUE constraint failed: users.email` (table.column); PostgreSQL reports
    /// SQLSTATE `23505` with the constraint name (`users_email_unique`). The schema names every
    /// constraint so both forms can be recognised. The error text is only inspected here, never
    /// logged or copied: PostgreSQL's detail includes the conflicting value.
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
            return SQLStoreError.phoneNumberExists
        }
        if text.contains("users.uid") || text.contains("users_pkey") {
            return StoreConflict.uid
        }
        return nil
    }
}
