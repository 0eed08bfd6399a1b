import SQLKit

/// One named, append-only step of the schema.
///
/// A migration runs in its own write transaction together with the row that records it in
/// `schema_migrations`, so it is applied whole or not at all. Once released, a migration is never
/// edited or removed; changes are new migrations appended to ``HearthSchema/migrations``.
struct SchemaMigration: Sendable {
    /// Unique, date-prefixed name, e.g. `2026-11-22-create-accounts`.
    let name: String
    /// The statements, in order. Portable SQL only (see ``SQLDialectQuirks``).
    let statements: [SQLQueryString]

    init(_ name: String, _ statements: [SQLQueryString]) {
        self.name = name
        self.statements = statements
    }
}
