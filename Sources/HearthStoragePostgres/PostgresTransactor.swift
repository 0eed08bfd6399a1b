import HearthCore
import HearthStorage
import Logging
import PostgresKit
import PostgresNIO
import SQLKit
import ServiceLifecycle
import Synchronization

/// PostgreSQL behind the ``SQLTransactor`` discipline, for several replicas sharing one database.
///
/// - Connections come from one `PostgresClient` pool. The pool needs its `run()` method running: a server
///   runs it as a service of its `ServiceGroup` (``pool``, from ``open(url:options:logger:runsPool:)`` with
///   `runsPool: false`), so the group stops it after everything that uses it; a short-lived tool lets the
///   transactor run it in a task of its own, cancelled and awaited by ``close()``.
/// - `write` runs `BEGIN ISOLATION LEVEL READ COMMITTED … COMMIT` on one connection (`ROLLBACK`
///   when the body throws); `read` runs `BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY`, so a
///   unit of several statements reads one snapshot; `readSingleStatement` runs its one statement
///   in autocommit mode (one round trip; a statement is its own snapshot). A connection whose `ROLLBACK` fails is closed, never
///   handed back to the pool in an unknown state.
/// - Waits are bounded: opening a connection by ``PostgresStorageOptions/connectTimeout``; getting
///   one from the pool by ``PostgresStorageOptions/acquireTimeout`` when the pool cannot connect,
///   or ``PostgresStorageOptions/busyAcquireTimeout`` while its connections are merely busy; a
///   statement by ``PostgresStorageOptions/statementTimeout`` on the server and
///   ``PostgresStorageOptions/statementWatchdog`` on the client (see ``PostgresSessionDatabase``).
///   A database that is down surfaces as `HearthError(.storageUnavailable)` within those limits;
///   the pool keeps retrying in the background (backing off up to a minute) and serves again once
///   the database is back, without a restart.
/// - A connection found dead at `BEGIN` (the server restarted while it sat idle) is closed — so the
///   pool drops it — and the unit of work starts again on another; a serialization failure or
///   deadlock (`40001`, `40P01`) runs the whole unit again. Both at most ``maximumAttempts`` times
///   in all.
/// - Driver errors are sanitized (``PostgresDatabaseError``: SQLSTATE and names, no values) and
///   queries are never logged. The pool's own connection failures are logged at `info` or above
///   to the logger given to ``open(url:options:logger:)``.
public final class PostgresTransactor: SQLTransactor {
    /// Attempts per unit of work, counting the first (see the type's discussion).
    static let maximumAttempts = 3

    private let client: PostgresClient
    /// The task running `client.run()` when the transactor runs its own pool (the pool works only while it runs);
    /// `nil` when a service group runs ``pool``.
    private let runner: Task<Void, Never>?
    private let options: PostgresStorageOptions
    private let logger: Logger
    private let work = WorkTracker()
    /// Connections this store's transactions hold right now (leader locks not counted): while it is
    /// above zero the pool works and a wait for a connection means "busy", not "down".
    private let transactionsHoldingConnections = Atomic<Int>(0)
    /// Connections leased from the pool now (leader locks included), and units of work waiting for one (for
    /// `/metrics`).
    private let connectionsLeased = Atomic<Int>(0)
    private let leasesWaiting = Atomic<Int>(0)
    /// The statements run as prepared statements; `nil` when ``PostgresStorageOptions/preparedStatements`` is off.
    let statements: PreparedStatements?

    /// The client-side statement limit: the configured watchdog, kept above the server's own limit.
    private var watchdog: Duration {
        max(options.statementWatchdog, (options.statementTimeout ?? .zero) + .seconds(5))
    }

    /// `connection` as the statements' database.
    private func session(_ connection: PostgresConnection) -> PostgresSessionDatabase {
        PostgresSessionDatabase(connection, watchdog: watchdog, statements: statements)
    }

    private init(client: PostgresClient, options: PostgresStorageOptions, logger: Logger, runsPool: Bool) {
        self.client = client
        self.options = options
        self.logger = logger
        statements = options.preparedStatements ? PreparedStatements() : nil
        // Owned, not fire-and-forget: close() cancels it and waits for it; deinit cancels it.
        runner = runsPool ? Task { await client.run() } : nil
    }

    deinit {
        runner?.cancel()
    }

    /// The connection pool as a ServiceLifecycle service, for a transactor opened with `runsPool: false`: run it
    /// once, in the group of the server that uses the store, listed before the store's own service so that it
    /// stops last (a graceful shutdown closes its connections). Work waits for a connection until it runs.
    public var pool: some Service { client }

    /// Checks that the database at `url` accepts a connection (so a wrong password, a missing
    /// database or a server that is down is reported precisely, at once), then starts the pool.
    ///
    /// See ``PostgresEndpoint`` for the URL form. Throws `HearthError(.storageUnavailable)` with a
    /// reason that never contains the password.
    ///
    /// - Parameter runsPool: whether the transactor runs its connection pool itself, until ``close()``; `false`
    ///   when a service group runs ``pool``.
    public static func open(
        url: String, options: PostgresStorageOptions = PostgresStorageOptions(), logger: Logger, runsPool: Bool = true
    ) async throws -> PostgresTransactor {
        let endpoint = try PostgresEndpoint(url: url)
        var options = options
        // A pool that has no connection yet needs at least one connection attempt: a URL's longer
        // `connect_timeout` lengthens the wait for a connection too.
        options.acquireTimeout = max(options.acquireTimeout, endpoint.connectTimeout ?? .zero)
        // The driver logs bound values and row data at trace/debug level; keep it to info and above.
        var background = logger
        background.logLevel = max(logger.logLevel, .info)
        try await probe(endpoint, options: options, logger: background)
        let client = PostgresClient(
            configuration: endpoint.clientConfiguration(options: options), backgroundLogger: background)
        logger.debug(
            "Opened PostgreSQL connection pool",
            metadata: ["database": "\(endpoint)", "max_connections": "\(max(2, options.maximumConnections))"])
        return PostgresTransactor(client: client, options: options, logger: logger, runsPool: runsPool)
    }

    // MARK: - SQLTransactor

    /// The client's pool (`postgres`): connections leased, and units of work waiting for one.
    public func poolUsage() -> [DatabasePoolUsage] {
        [
            DatabasePoolUsage(
                pool: "postgres", inUse: connectionsLeased.load(ordering: .relaxed), waiting: leasesWaiting.load(ordering: .relaxed))
        ]
    }

    /// Runs `body` in a read-only repeatable-read transaction: one consistent snapshot.
    public func read<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await transaction(begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
    }

    /// Runs `body`, which issues ONE read-only statement, in autocommit mode: a single statement reads
    /// one snapshot by itself, so the `BEGIN … COMMIT` round trips of ``read(_:)`` are saved (one
    /// round trip instead of three). When the leased connection turns out to be gone (it died while
    /// idle in the pool), the read runs again on another, as ``read(_:)`` does when `BEGIN` fails;
    /// a statement that ran too long (server timeout, watchdog) fails as it would inside ``read(_:)``.
    public func readSingleStatement<T: Sendable>(
        _ body: @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        try await work.run {
            try await retrying(conflicts: true) {
                try await withConnection(countsAsBusy: true) { connection in
                    do {
                        return try await body(session(connection))
                    } catch {
                        guard Self.isLostConnection(error) else { throw error }
                        throw await Self.firstStatementFailed(error, on: connection)
                    }
                }
            }
        }
    }

    /// Runs `body`, which issues ONE statement that writes, in autocommit mode: a single statement is atomic by itself
    /// (its `RETURNING`, triggers and cascades included), so the `BEGIN … COMMIT` round trips of ``write(_:)`` are saved
    /// (one round trip instead of three; an audit event or a counter is then a third of the work).
    ///
    /// Unlike a read, it is sent again on another connection only when the leased one was already closed before the
    /// statement left: once sent, a statement whose answer was lost may have run, and nothing here repeats a write that
    /// may have happened (as ``write(_:)`` does not repeat a `COMMIT` whose answer was lost).
    public func writeSingleStatement<T: Sendable>(
        _ body: @escaping @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        try await work.run {
            try await retrying(conflicts: true) {
                try await withConnection(countsAsBusy: true) { connection in
                    guard !connection.isClosed else {
                        throw await Self.firstStatementFailed(PostgresSessionDatabase.connectionClosed, on: connection)
                    }
                    return try await body(session(connection))
                }
            }
        }
    }

    /// Runs `body` in a read-committed transaction on one connection; `ROLLBACK` when it throws.
    public func write<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await transaction(begin: "BEGIN ISOLATION LEVEL READ COMMITTED", body)
    }

    /// Takes `pg_try_advisory_lock(hashtext(name))` on one pooled connection, kept for the whole of
    /// `body`; returns `nil` at once when another session holds it. Always unlocks afterwards, and
    /// closes the connection if the unlock cannot be confirmed, so the lock never outlives the call.
    public func withLeaderLock<T: Sendable>(
        _ name: String, _ body: @Sendable () async throws -> T
    ) async throws -> T? {
        try await work.run {
            try await retrying(conflicts: false) {
                try await withConnection(countsAsBusy: false) { connection in
                    let database = session(connection)
                    let acquired: Bool?
                    do {
                        acquired = try await database.raw(
                            "SELECT pg_try_advisory_lock(hashtext(\(bind: name))) AS acquired"
                        ).first()?.decode(column: "acquired", as: Bool.self)
                    } catch {
                        throw await Self.firstStatementFailed(error, on: connection)
                    }
                    guard acquired == true else { return nil }
                    let outcome: Result<T, any Error>
                    do {
                        outcome = .success(try await body())
                    } catch {
                        outcome = .failure(error)
                    }
                    await self.releaseLeaderLock(name, on: database, connection: connection)
                    return try outcome.get()
                }
            }
        }
    }

    /// Refuses new work, waits up to ``PostgresStorageOptions/closeGracePeriod`` for work in flight,
    /// then stops the pool (closing every connection) and waits for it, again at most the grace period.
    /// Idempotent.
    public func close() async throws {
        guard work.close() else { return }
        let deadline = ContinuousClock.now.advanced(by: options.closeGracePeriod)
        while work.active > 0, ContinuousClock.now < deadline, !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(10))
        }
        // A pool run by a service group stops with the group.
        guard let runner else { return }
        runner.cancel()
        // The pool closes its connections when cancelled; a connection whose close never completes must
        // not hold up the process that is shutting down.
        if await !Self.finishes(runner, within: options.closeGracePeriod) {
            logger.warning(
                "The PostgreSQL connection pool did not stop within the grace period; leaving it behind",
                metadata: ["grace_period": "\(options.closeGracePeriod)"])
        }
    }

    /// Whether `task` ends within `limit`. Returns at the limit even if it does not (awaiting a task's
    /// value cannot be cancelled, so the wait happens in a task of its own).
    private static func finishes(_ task: Task<Void, Never>, within limit: Duration) async -> Bool {
        await withCheckedContinuation { continuation in
            let answer = OneAnswer(continuation)
            let timer = Task {
                try? await Task.sleep(for: limit)
                answer.give(false)
            }
            Task {
                await task.value
                answer.give(true)
                timer.cancel()
            }
        }
    }

    // MARK: - Transactions

    /// `BEGIN` failed: nothing of the unit of work has run yet.
    private struct BeginFailure: Error {
        let error: any Error
    }

    private func transaction<T: Sendable>(
        begin: SQLQueryString, _ body: @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        try await work.run {
            try await retrying(conflicts: true) {
                try await withConnection(countsAsBusy: true) { connection in
                    try await Self.runTransaction(
                        on: session(connection), begin: begin, body)
                }
            }
        }
    }

    /// Runs `attempt` up to ``maximumAttempts`` times while it fails with a ``BeginFailure`` caused
    /// by a lost connection (a pooled connection that died while idle: nothing has run yet), or —
    /// when `conflicts` — with a serialization failure or deadlock; any other error is rethrown at once.
    private func retrying<T>(conflicts: Bool, _ attempt: () async throws -> T) async throws -> T {
        var attempts = 1
        while true {
            do {
                return try await attempt()
            } catch let failure as BeginFailure {
                let lostConnection = (failure.error as? HearthError)?.code == .storageUnavailable
                guard lostConnection, attempts < Self.maximumAttempts else { throw failure.error }
            } catch {
                guard conflicts, PostgresFailure.isRetryable(error), attempts < Self.maximumAttempts else { throw error }
            }
            attempts += 1
        }
    }

    /// Whether `error` says the connection was gone (closed, reset, refused by the client side) rather
    /// than that the server answered with an error or never answered in time.
    private static func isLostConnection(_ error: any Error) -> Bool {
        guard let error = error as? HearthError, error.code == .storageUnavailable else { return false }
        if error.reason?.contains("no answer within") == true { return false }  // the watchdog
        if let server = error.underlying as? PostgresDatabaseError, server.sqlState != nil { return false }
        return true
    }

    /// Wraps the failure of the first statement on a leased connection in a ``BeginFailure``; when
    /// the connection is lost, closes it and waits until it is, so the pool has dropped it before the
    /// next attempt leases one.
    private static func firstStatementFailed(_ error: any Error, on connection: PostgresConnection) async -> BeginFailure {
        if (error as? HearthError)?.code == .storageUnavailable {
            try? await connection.close()
            _ = try? await connection.closeFuture.get()
        }
        return BeginFailure(error: error)
    }

    private static func runTransaction<T: Sendable>(
        on database: PostgresSessionDatabase, begin: SQLQueryString, _ body: @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        let connection = database.connection
        do {
            try await database.raw(begin).run()
        } catch {
            throw await firstStatementFailed(error, on: connection)
        }
        do {
            let result = try await body(database)
            try await database.raw("COMMIT").run()
            return result
        } catch {
            do {
                try await database.raw("ROLLBACK").run()
            } catch {
                // Never hand a connection in an unknown transaction state back to the pool.
                try? await connection.close()
            }
            throw error
        }
    }

    private func releaseLeaderLock(_ name: String, on database: PostgresSessionDatabase, connection: PostgresConnection) async {
        let released = try? await database.raw(
            "SELECT pg_advisory_unlock(hashtext(\(bind: name))) AS released"
        ).first()?.decode(column: "released", as: Bool.self)
        guard released != true else { return }
        logger.warning("Could not confirm the release of a leader lock; closing its connection", metadata: ["lock": "\(name)"])
        try? await connection.close()
    }

    // MARK: - Connections

    /// Where a lease stands, shared by the task waiting for it and the timer racing it.
    private enum LeaseState: Sendable, Equatable {
        case waiting, leased, abandoned
    }

    private enum LeaseOutcome<T: Sendable>: Sendable {
        case finished(T)
        case timedOut(busy: Bool)
        case timerStopped
    }

    /// What the timer decides when a wait for a connection reaches a limit.
    private enum WaitDecision {
        case stop, wait, abandon
    }

    /// Runs `body` with a pooled connection, failing with `HearthError(.storageUnavailable)` when
    /// none is handed out within ``PostgresStorageOptions/acquireTimeout`` — extended up to
    /// ``PostgresStorageOptions/busyAcquireTimeout`` while other transactions of this store hold
    /// connections (busy, not down). The limits cover only the wait: once `body` has the connection
    /// it runs to the end. `countsAsBusy`: whether holding this connection shows the pool works.
    private func withConnection<T: Sendable>(
        countsAsBusy: Bool, _ body: @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let lease = LockedBox(LeaseState.waiting)
        leasesWaiting.add(1, ordering: .relaxed)
        // The wait ends when the connection is admitted, or here when it never was.
        defer { if lease.withLock({ $0 != .leased }) { leasesWaiting.subtract(1, ordering: .relaxed) } }
        let timeout = options.acquireTimeout
        let busyTimeout = max(options.acquireTimeout, options.busyAcquireTimeout)
        let client = client
        return try await withoutActuallyEscaping(body) { body in
            try await withThrowingTaskGroup(of: LeaseOutcome<T>.self) { group in
                group.addTask {
                    do {
                        return .finished(
                            try await client.withConnection { connection in
                                let admitted = lease.withLock { state in
                                    guard state == .waiting else { return false }
                                    state = .leased
                                    return true
                                }
                                guard admitted else { throw CancellationError() }  // the timer gave up on it
                                self.leasesWaiting.subtract(1, ordering: .relaxed)
                                self.connectionsLeased.add(1, ordering: .relaxed)
                                defer { self.connectionsLeased.subtract(1, ordering: .relaxed) }
                                guard countsAsBusy else { return try await body(connection) }
                                self.transactionsHoldingConnections.add(1, ordering: .relaxed)
                                defer { self.transactionsHoldingConnections.subtract(1, ordering: .relaxed) }
                                return try await body(connection)
                            })
                    } catch {
                        let wasLeased = lease.withLock { $0 == .leased }
                        if wasLeased { throw error }
                        if Task.isCancelled { throw CancellationError() }
                        throw Self.unavailable(leaseError: error)
                    }
                }
                group.addTask {
                    let started = ContinuousClock.now
                    var limit = timeout
                    while true {
                        do {
                            try await CancellableSleep.sleep(until: started.advanced(by: limit), on: EventLoopSleepTimers())
                        } catch {
                            return .timerStopped
                        }
                        let busy = self.transactionsHoldingConnections.load(ordering: .relaxed) > 0
                        let decision: WaitDecision = lease.withLock { state in
                            guard state == .waiting else { return .stop }
                            if busy, limit < busyTimeout { return .wait }
                            state = .abandoned
                            return .abandon
                        }
                        switch decision {
                        case .stop: return .timerStopped
                        case .abandon: return .timedOut(busy: busy)
                        case .wait: limit = min(limit + timeout, busyTimeout)
                        }
                    }
                }
                while let outcome = try await group.next() {
                    switch outcome {
                    case .finished(let value):
                        group.cancelAll()
                        return value
                    case .timedOut(let busy):
                        group.cancelAll()
                        throw HearthError(
                            .storageUnavailable,
                            reason: busy
                                ? "PostgreSQL: every pooled connection stayed busy for \(busyTimeout)"
                                : "PostgreSQL: no connection within \(timeout); the database is down or unreachable")
                    case .timerStopped:
                        continue
                    }
                }
                throw CancellationError()  // not reached: the lease task always reports
            }
        }
    }

    /// The pool could not hand out a connection.
    private static func unavailable(leaseError error: any Error) -> any Error {
        let translated = PostgresFailure.translate(error)
        if translated is HearthError { return translated }
        return HearthError(
            .storageUnavailable, reason: "PostgreSQL: the connection pool cannot connect", underlying: translated)
    }

    /// Opens and closes one connection, bounded by twice the connect timeout (TCP, TLS and
    /// authentication), to report a misconfiguration or an unreachable server at once.
    private static func probe(_ endpoint: PostgresEndpoint, options: PostgresStorageOptions, logger: Logger) async throws {
        let configuration = try endpoint.connectionConfiguration(options: options)
        let limit = (endpoint.connectTimeout ?? options.connectTimeout) * 2
        do {
            try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask {
                    let connection = try await PostgresConnection.connect(
                        configuration: configuration, id: 0, logger: logger)
                    try? await connection.close()
                    return true
                }
                group.addTask {
                    try await Task.sleep(for: limit)
                    return false
                }
                let connected = try await group.next() ?? false
                group.cancelAll()
                guard connected else {
                    throw HearthError(
                        .storageUnavailable, reason: "PostgreSQL at \(endpoint): no answer within \(limit)")
                }
            }
        } catch let error as HearthError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            let translated = PostgresFailure.translate(error)
            if let hearthError = translated as? HearthError {
                throw HearthError(
                    .storageUnavailable, reason: "cannot connect to \(endpoint): \(hearthError.reason ?? "unavailable")",
                    underlying: hearthError.underlying)
            }
            throw HearthError(.storageUnavailable, reason: "cannot connect to \(endpoint)", underlying: translated)
        }
    }
}

/// A continuation resumed by whichever answer comes first; later answers are dropped.
private final class OneAnswer: Sendable {
    private let continuation: Mutex<CheckedContinuation<Bool, Never>?>

    init(_ continuation: CheckedContinuation<Bool, Never>) {
        self.continuation = Mutex(continuation)
    }

    func give(_ answer: Bool) {
        continuation.withLock { $0.take() }?.resume(returning: answer)
    }
}
