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
struct PostgresSessionDatabase: SQLDatabase {
    let connection: PostgresConnection
    let base: any SQLDatabase
    let watchdog: TimeAmount

    init(_ connection: PostgresConnection, watchdog: Duration) {
        self.connection = connection
        // queryLogLevel nil: SQLKit would otherwise log bound values.
        base = connection.sql(queryLogLevel: nil)
        self.watchdog = TimeAmount(watchdog)
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
        try await guardedExecute(query, onRow).get()
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

/// Marks `box` settled; `true` for the first caller only.
private func settle(_ box: LockedBox<Bool>) -> Bool {
    box.withLock { settled in
        defer { settled = true }
        return !settled
    }
}
