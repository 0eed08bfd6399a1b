import SQLKit

/// Runs units of work against one database, each inside its own transaction.
///
/// A backend (SQLite, PostgreSQL, …) implements this once; ``SQLStore`` is written against it and
/// never issues `BEGIN`/`COMMIT` itself. Every call is one transaction: the `body` sees a database
/// bound to a single session, and whatever it does is committed when it returns and rolled back
/// when it throws. Errors thrown by `body` must be rethrown unchanged, except that a backend may
/// translate its own infrastructure failures (for example I/O errors) into
/// `HearthError(.storageUnavailable)`.
public protocol SQLTransactor: Sendable {
    /// Runs a read-only unit of work on a consistent snapshot of committed data.
    func read<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T

    /// Runs a unit of work that may write, on an exclusive session, between `BEGIN` and `COMMIT`
    /// (`ROLLBACK` when `body` throws).
    func write<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T

    /// Waits for work in flight and closes every connection. Later calls fail.
    func close() async throws
}
