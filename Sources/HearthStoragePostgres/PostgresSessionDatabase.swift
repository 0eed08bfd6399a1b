import HearthCore
import Logging
import NIOCore
import PostgresKit
import SQLKit

/// One leased PostgreSQL connection as an `SQLDatabase`: queries are never logged, every driver
/// error is sanitized (``PostgresFailure/translate(_:)``) before any caller sees it, and no
/// statement can wait forever.
///
/// A statement on a connection that is already closed fails at once, and one the server has not
/// answered within the watchdog limit fails too, closing the connection. (The driver can lose a
/// statement sent on a connection that is closing, so its answer would never come.) Both fail with
/// `HearthError(.storageUnavailable)`.
///
/// With `statements`, a statement run again is sent as a named prepared statement (see
/// ``PreparedStatements``).
struct PostgresSessionDatabase: SQLDatabase {
    let connection: PostgresConnection
    let base: any SQLDatabase
    let watchdog: TimeAmount
    let statements: PreparedStatements?

    init(_ connection: PostgresConnection, watchdog: Duration, statements: PreparedStatements?) {
        self.connection = connection
        // queryLogLevel nil: SQLKit would otherwise log bound values.
        base = connection.sql(queryLogLevel: nil)
        self.watchdog = TimeAmount(watchdog)
        self.statements = statements
    }

    var logger: Logger { base.logger }
    var eventLoop: any EventLoop { base.eventLoop }
    var version: (any SQLDatabaseReportedVersion)? { base.version }
    var dialect: any SQLDialect { base.dialect }
    var queryLogLevel: Logger.Level? { nil }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        guardedExecute(query, onRow)
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        guard let statements else { return try await guardedExecute(query, onRow).get() }
        let (sql, binds) = serialize(query)
        // A long statement (a batch of audit events) is never prepared: its values are not encoded twice.
        if binds.count <= PreparedStatements.maximumBinds, let (bindings, types) = try PreparedStatements.bindings(binds) {
            let key = PreparedStatements.Key(sql: sql, types: types)
            if let name = statements.name(for: key) {
                return try await runNamed(NamedStatement.Current(name: name, sql: sql, types: types), bindings, onRow) { sqlState in
                    statements.failed(key, sqlState: sqlState)
                }
            }
        }
        try await guardedExecute(Serialized(sql: sql, binds: binds), onRow).get()
    }

    /// The statement `current` under its name (PostgresNIO prepares it on this connection at its first use),
    /// bounded by the watchdog like ``guardedExecute(_:_:)``; `failed` is told the SQLSTATE of a failure.
    ///
    /// It is awaited directly: the watchdog's close fails it. (Run in a task of its own behind a promise, as
    /// `guardedExecute` runs an unnamed one, it gave token refresh under wrk stalls of 0.5–0.7 s at p99.)
    private func runNamed(
        _ current: NamedStatement.Current, _ bindings: PostgresBindings, _ onRow: @escaping @Sendable (any SQLRow) -> Void,
        failed: (String?) -> Void
    ) async throws {
        guard !connection.isClosed else { throw Self.connectionClosed }
        let connection = connection
        let settled = LockedBox(false)
        let timer = eventLoop.scheduleTask(in: watchdog) {
            guard settle(settled) else { return }
            connection.close().whenComplete { _ in }
        }
        do {
            try await NamedStatement.$current.withValue(current) {
                let rows = try await connection.execute(NamedStatement(bindings: bindings), logger: connection.logger)
                for try await row in rows { onRow(row.sql()) }
            }
            timer.cancel()
        } catch {
            timer.cancel()
            guard settle(settled) else {
                throw HearthError(
                    .storageUnavailable,
                    reason: "PostgreSQL: no answer within \(watchdog.nanoseconds / 1_000_000) ms; connection closed")
            }
            failed((error as? PSQLError)?.serverInfo?[.sqlState])
            throw PostgresFailure.translate(error)
        }
    }

    /// The statement, failing fast on a closed connection and bounded by the watchdog.
    private func guardedExecute(_ query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        guard !connection.isClosed else {
            return eventLoop.makeFailedFuture(Self.connectionClosed)
        }
        let eventLoop = eventLoop
        let connection = connection
        let promise = eventLoop.makePromise(of: Void.self)
        let settled = LockedBox(false)
        let limit = watchdog
        let timer = eventLoop.scheduleTask(in: limit) {
            guard settle(settled) else { return }
            promise.fail(
                HearthError(
                    .storageUnavailable,
                    reason: "PostgreSQL: no answer within \(limit.nanoseconds / 1_000_000) ms; connection closed"))
            connection.close().whenComplete { _ in }
        }
        base.execute(sql: query, onRow).whenComplete { result in
            timer.cancel()
            guard settle(settled) else { return }
            switch result {
            case .success: promise.succeed(())
            case .failure(let error): promise.fail(PostgresFailure.translate(error))
            }
        }
        return promise.futureResult
    }

    /// The failure of a statement on a connection that is already closed.
    static var connectionClosed: HearthError {
        HearthError(.storageUnavailable, reason: "PostgreSQL: the connection is closed")
    }
}

/// A statement already serialized (a fallback from ``PostgresSessionDatabase/execute(sql:_:)``, so it is not
/// serialized twice).
private struct Serialized: SQLExpression {
    let sql: String
    let binds: [any Encodable & Sendable]

    func serialize(to serializer: inout SQLSerializer) {
        serializer.write(sql)
        serializer.binds.append(contentsOf: binds)
    }
}

/// Marks `box` settled; `true` for the first caller only.
private func settle(_ box: LockedBox<Bool>) -> Bool {
    box.withLock { settled in
        defer { settled = true }
        return !settled
    }
}
