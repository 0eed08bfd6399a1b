import SQLKit

/// Runs units of work against one database, each inside its own transaction.
///
/// A backend (SQLite, PostgreSQL, …) implements this once; ``SQLStore`` is written against it and
/// never issues `BEGIN`/`COMMIT` itself. Every call is one transaction: the `body` sees a database
/// bound to a single session, and whatever it does is committed when it returns and rolled back
/// when it throws. Errors thrown by `body` must be rethrown unchanged, except that a backend may
/// translate its own infrastructure failures (for example I/O errors, lost connections) into
/// `HearthError(.storageUnavailable)`, and may replace its driver's errors by a sanitized form that
/// carries no bound values (the form must still let ``SQLDialectQuirks/conflict(from:)`` recognise
/// unique-constraint violations).
///
/// A backend whose server may report a serialization failure or deadlock may run `body` again in a
/// fresh transaction; bodies must therefore have no effects outside the database.
public protocol SQLTransactor: Sendable {
    /// Runs a read-only unit of work on a consistent snapshot of committed data.
    func read<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T

    /// Runs a unit of work that may write, on an exclusive session, between `BEGIN` and `COMMIT`
    /// (`ROLLBACK` when `body` throws).
    ///
    /// `body` escapes: a backend may hand it to whichever caller is running the writes of the
    /// moment (SQLite's group commit). It still runs at most once, and before this call returns.
    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T

    /// Runs a read-only unit of work that issues exactly ONE statement.
    ///
    /// A single statement always reads one consistent snapshot, so a backend may run it without an
    /// explicit transaction (SQLite: autocommit, no `BEGIN`/`COMMIT` round trips). The default runs
    /// `body` through ``read(_:)``.
    func readSingleStatement<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T

    /// Runs a unit of work that issues exactly ONE statement, which may write, on the same exclusive
    /// session ``write(_:)`` uses.
    ///
    /// A single statement is atomic on its own (its cascades and `RETURNING` included), so a backend
    /// may run it without an explicit transaction. The default runs `body` through ``write(_:)``.
    func writeSingleStatement<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T

    /// Waits for work in flight and closes every connection. Later calls fail.
    func close() async throws

    /// Runs `body` while holding the named leader lock across every process sharing the database,
    /// or returns `nil` at once when someone else holds it (see `LeaderLockStore`).
    ///
    /// The default runs `body` unconditionally: right for a backend whose database belongs to one
    /// process (SQLite).
    func withLeaderLock<T: Sendable>(_ name: String, _ body: @Sendable () async throws -> T) async throws -> T?

    /// How busy the backend's connection pools are now, for `/metrics`. The default reports none.
    func poolUsage() -> [DatabasePoolUsage]
}

extension SQLTransactor {
    /// Runs `body` in a read transaction.
    public func readSingleStatement<T: Sendable>(
        _ body: @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        try await read(body)
    }

    /// Runs `body` in a write transaction.
    public func writeSingleStatement<T: Sendable>(
        _ body: @escaping @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        try await write(body)
    }

    /// No pools to report.
    public func poolUsage() -> [DatabasePoolUsage] { [] }

    /// Runs `body`: a database owned by one process needs no leader election.
    public func withLeaderLock<T: Sendable>(
        _ name: String, _ body: @Sendable () async throws -> T
    ) async throws -> T? {
        try await body()
    }
}
