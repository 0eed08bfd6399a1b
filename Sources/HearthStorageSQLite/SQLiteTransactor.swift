import Foundation
import HearthCore
import HearthStorage
import HearthTelemetry
import Logging
import Metrics
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit
import SQLiteNIO
import Synchronization

/// SQLite behind the ``SQLTransactor`` discipline: one writer, a few readers, WAL.
///
/// - Writes go through ONE connection whose use is serialized by an ``ConcurrencyLimit`` of one, held from
///   `BEGIN IMMEDIATE` to `COMMIT`, so writers never meet `SQLITE_BUSY` inside the process.
/// - Writes that queue while the writer is busy are committed together (a ``TurnQueue``, group commit): one
///   transaction, a savepoint per unit of work, callers answered after the `COMMIT`. A lone write
///   runs in a transaction of its own, exactly as without the queue.
/// - A unit of work of ONE statement (``readSingleStatement(_:)``, ``writeSingleStatement(_:)``)
///   runs in autocommit mode, without `BEGIN`/`COMMIT`, when it is alone: a single statement is
///   atomic and reads one snapshot by itself.
/// - Reads go to a reader connection (two by default; an idle one when there is one, else the next
///   in turn), each also serialized by its own ``ConcurrencyLimit`` of one: a read transaction (``read(_:)``)
///   inside a deferred transaction, which WAL gives a consistent snapshot of committed data while
///   the writer works; a single-statement read in autocommit mode. Readers are `query_only`.
/// - Each connection has its own thread (``LaneThread``), which runs its statements and, as the
///   task executor of each unit of work on the connection, the code between them: a unit hops onto
///   that thread once and off once instead of twice per statement, and a connection's lock is
///   released on that thread, never held while the unit waits for a Swift concurrency thread.
/// - The writer never checkpoints the WAL in a commit (`wal_autocheckpoint=0`): a connection of its own copies the
///   WAL into the database file beside it, and the writer finishes each round (``WALCheckpoints``).
/// - Every connection runs `journal_mode=WAL`, `synchronous=NORMAL`, `foreign_keys=ON`,
///   `temp_store=MEMORY`, `busy_timeout=5000`. (No `mmap_size` or larger `cache_size`: on this
///   workload they did not measurably help, and mapped or cached pages count against the server's
///   memory target.)
/// - I/O-type SQLite failures become `HearthError(.storageUnavailable)`; everything else passes
///   through unchanged. Queries are not logged (bound values must never reach logs).
///
/// An in-memory database cannot be shared between connections, so ``openInMemory(logger:)`` uses
/// the writer connection for reads too.
public final class SQLiteTransactor: SQLTransactor {
    /// One connection, its thread, and the lock that serializes its use.
    struct Lane: Sendable {
        let connection: SQLiteConnection
        let database: any SQLDatabase
        let mutex: ConcurrencyLimit
        let thread: LaneThread

        /// Waits for the work in flight, closes the connection and stops its thread.
        func close() async throws {
            do {
                try await mutex.run { try await connection.close() }
            } catch {
                await thread.shutdown()
                throw error
            }
            await thread.shutdown()
        }
    }

    private let writer: Lane
    private let writeQueue: TurnQueue<WriteWork>
    /// Transactions (and autocommit writes) the writer has committed, for tests and diagnostics.
    private let commits = Atomic<Int>(0)
    /// Empty for an in-memory database: reads then use the writer.
    private let readers: [Lane]
    /// `nil` for an in-memory database, which has no WAL.
    private let checkpoints: WALCheckpoints?
    private let nextReader = Atomic<Int>(0)
    private let isClosed = Mutex(false)
    /// Held while open when this process must be the file's only user (see ``open(path:readers:exclusive:logger:)``).
    private let fileLock: ExclusiveFileLock?

    /// Reads running on a reader, and reads waiting for one (for `/metrics`).
    private let readsRunning = Atomic<Int>(0)
    private let readsWaiting = Atomic<Int>(0)
    /// Whether a leader is running a batch on the writer.
    private let writing = Atomic<Int>(0)
    /// How many writes each transaction commits (`hearth_sqlite_group_commit_batch_size`).
    private let batchSizes: Recorder

    /// The most writes one transaction commits together.
    static let maximumWriteBatch = 64

    /// How often the WAL is checkpointed while the writer commits (see ``WALCheckpoints``).
    public static let defaultCheckpointInterval: Duration = .seconds(1)

    private init(
        writer: Lane, readers: [Lane], checkpoints: WALCheckpoints? = nil, fileLock: ExclusiveFileLock? = nil, telemetry: Telemetry
    ) {
        self.writer = writer
        self.writeQueue = TurnQueue(maximumBatch: Self.maximumWriteBatch)
        self.readers = readers
        self.checkpoints = checkpoints
        self.fileLock = fileLock
        self.batchSizes = Recorder(label: MetricDescriptor.sqliteGroupCommitBatchSize.name, aggregate: true, factory: telemetry.metrics)
    }

    /// Opens (creating if needed) the database file at `path` with one writer and `readers` reader
    /// connections. Creates the parent directory when it is missing.
    ///
    /// With `exclusive`, the process first takes an exclusive lock on `<path>.lock` (waiting up to
    /// `lockWait` for a previous holder to exit) and keeps it until ``close()``: a store that keeps
    /// users in memory must be the file's only writer.
    ///
    /// `telemetry` receives the sizes of group commits. `checkpointInterval`: how often the WAL is copied into the
    /// database file while there are commits (see ``WALCheckpoints``).
    public static func open(
        path: String, readers readerCount: Int = 2, exclusive: Bool = false, lockWait: Duration = .seconds(10),
        checkpointInterval: Duration = defaultCheckpointInterval, logger: Logger, telemetry: Telemetry = .off
    ) async throws -> SQLiteTransactor {
        if path == ":memory:" { return try await openInMemory(logger: logger, telemetry: telemetry) }
        guard !path.isEmpty, !path.hasPrefix("file:") else {
            throw HearthError(.storageUnavailable, reason: "SQLite database path must be a plain file path")
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        do {
            // Owner only: the file holds the (sealed) signing keys and everything about every user.
            try PrivateFiles.createDirectory(atPath: directory)
            try PrivateFiles.createFile(atPath: path)
        } catch {
            throw HearthError(
                .storageUnavailable, reason: "cannot create the database file or its directory", underlying: error)
        }
        let fileLock = exclusive ? try await ExclusiveFileLock.acquire(databasePath: path, wait: lockWait) : nil
        let storage = SQLiteConnection.Storage.file(path: path)
        // The writer first: it switches the file to WAL before any reader opens it.
        let writer: Lane
        do {
            writer = try await connect(storage, role: .writer, logger: logger)
        } catch {
            fileLock?.release()
            throw error
        }
        var readers: [Lane] = []
        let checkpointer: Lane
        do {
            for _ in 0..<max(1, readerCount) {
                readers.append(try await connect(storage, role: .reader, logger: logger))
            }
            checkpointer = try await connect(storage, role: .checkpointer, logger: logger)
        } catch {
            for lane in readers { try? await lane.close() }
            try? await writer.close()
            fileLock?.release()
            throw error
        }
        logger.debug("Opened SQLite database", metadata: ["readers": "\(readers.count)", "exclusive": "\(exclusive)"])
        warnIfShared(path: path, directory: directory, logger: logger)
        let checkpoints = WALCheckpoints(lane: checkpointer, databasePath: path)
        let transactor = SQLiteTransactor(
            writer: writer, readers: readers, checkpoints: checkpoints, fileLock: fileLock, telemetry: telemetry)
        checkpoints.start(every: checkpointInterval, writer: writer, commits: { [weak transactor] in transactor?.commitCount }, logger: logger)
        return transactor
    }

    /// Warns about each of the database's directory, file, `-wal`, `-shm` and `.lock` that others may
    /// read. SQLite gives `-wal` and `-shm` the mode of the database file, which is 0600 when this
    /// transactor created it.
    private static func warnIfShared(path: String, directory: String, logger: Logger) {
        PrivateFiles.warnIfShared(directory, holding: "the database directory", logger: logger)
        for suffix in ["", "-wal", "-shm", ".lock"] {
            PrivateFiles.warnIfShared(path + suffix, holding: "the database", logger: logger)
        }
    }

    /// Opens a private in-memory database on a single connection (for tests and experiments).
    public static func openInMemory(logger: Logger, telemetry: Telemetry = .off) async throws -> SQLiteTransactor {
        let writer = try await connect(.memory, role: .writer, logger: logger)
        return SQLiteTransactor(writer: writer, readers: [], telemetry: telemetry)
    }

    /// What a connection is for.
    enum Role {
        case writer, reader, checkpointer
    }

    /// Opens one connection on a thread of its own and applies the pragmas every connection gets.
    private static func connect(
        _ storage: SQLiteConnection.Storage, role: Role, logger: Logger
    ) async throws -> Lane {
        let thread = LaneThread()
        let connection: SQLiteConnection
        do {
            connection = try await SQLiteConnection.open(
                storage: storage, threadPool: thread.pool, logger: logger,
                on: MultiThreadedEventLoopGroup.singleton.any())
        } catch {
            await thread.shutdown()
            throw SQLiteFailure.translate(error)
        }
        // queryLogLevel nil: SQLKit would otherwise log bound values at debug level.
        let lane = Lane(
            connection: connection, database: connection.sql(queryLogLevel: nil), mutex: ConcurrencyLimit(capacity: 1), thread: thread)
        do {
            try await configure(lane.database, storage: storage, role: role, logger: logger)
        } catch {
            try? await lane.close()
            throw SQLiteFailure.translate(error)
        }
        return lane
    }

    /// The pragmas every connection gets.
    private static func configure(
        _ database: any SQLDatabase, storage: SQLiteConnection.Storage, role: Role, logger: Logger
    ) async throws {
        // First: replaces sqlite-nio's retry-forever busy handler with a 5 s timeout.
        try await database.raw("PRAGMA busy_timeout = 5000").run()
        if case .file = storage {
            let mode = try await database.raw("PRAGMA journal_mode = WAL").first()?
                .decode(column: "journal_mode", as: String.self)
            if mode?.lowercased() != "wal" {
                logger.warning(
                    "SQLite did not switch to WAL journaling", metadata: ["journal_mode": "\(mode ?? "unknown")"])
            }
        }
        try await database.raw("PRAGMA synchronous = NORMAL").run()
        // Statement journals (the undo log of each savepoint of a group commit) stay in memory:
        // a few pages per write, which would otherwise be written to a temporary file.
        try await database.raw("PRAGMA temp_store = MEMORY").run()
        try await database.raw("PRAGMA foreign_keys = ON").run()
        switch role {
        case .reader:
            try await database.raw("PRAGMA query_only = ON").run()
        case .writer, .checkpointer:
            // No checkpoint in a commit: ``WALCheckpoints`` copies the WAL beside the writer (BENCHMARKS.md, issue 30).
            // An in-memory database has no WAL to copy.
            if case .file = storage { try await database.raw("PRAGMA wal_autocheckpoint = 0").run() }
        }
    }

    // MARK: - SQLTransactor

    /// Runs `body` on a reader connection inside a deferred transaction (a consistent snapshot).
    public func read<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await withReader { lane in
            try await run(on: lane, begin: "BEGIN", body)
        }
    }

    /// Runs `body`, which issues one read-only statement, on a reader connection in autocommit mode.
    public func readSingleStatement<T: Sendable>(
        _ body: @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        try await withReader { lane in
            try await run(on: lane, begin: nil, body)
        }
    }

    /// Runs `body` on the writer connection inside a transaction; rolls its work back and rethrows
    /// when `body` throws. Returns only after the `COMMIT` that made its work durable.
    ///
    /// Writes that arrive while the writer is busy share one transaction (group commit, see
    /// ``TurnQueue``): each body runs in a savepoint of its own, after the ones queued before it,
    /// so it sees their changes and is undone alone when it throws. When the `COMMIT` itself fails,
    /// every write of that transaction fails.
    public func write<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await submit(isSingleStatement: false, body)
    }

    /// Runs `body`, which issues one statement, on the writer connection: in autocommit mode when
    /// no other write is waiting, else in the shared transaction like ``write(_:)``.
    public func writeSingleStatement<T: Sendable>(
        _ body: @escaping @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        try await submit(isSingleStatement: true, body)
    }

    /// Waits for the work in flight on each connection, then closes them all and stops their
    /// threads. Idempotent.
    public func close() async throws {
        let wasClosed = isClosed.withLock { closed in
            defer { closed = true }
            return closed
        }
        guard !wasClosed else { return }
        var firstError: (any Error)?
        do {
            try await checkpoints?.stop()
        } catch {
            firstError = error
        }
        for lane in readers + [writer] {
            do {
                try await lane.close()
            } catch {
                firstError = firstError ?? error
            }
        }
        checkpoints?.closeFile()
        fileLock?.release()
        if let firstError { throw SQLiteFailure.translate(firstError) }
    }

    /// The readers (`read`) and the writer (`write`): units of work running on them, and waiting for them
    /// (writes queued for the next group commit).
    public func poolUsage() -> [DatabasePoolUsage] {
        [
            DatabasePoolUsage(
                pool: "read", inUse: readsRunning.load(ordering: .relaxed), waiting: readsWaiting.load(ordering: .relaxed)),
            DatabasePoolUsage(pool: "write", inUse: writing.load(ordering: .relaxed), waiting: writeQueue.count),
        ]
    }

    /// How many commits the writer has made (a batch of writes counts once).
    var commitCount: Int {
        commits.load(ordering: .relaxed)
    }

    /// How many checkpoint rounds ran (for tests); `nil` in memory.
    var checkpointRounds: Int? {
        checkpoints?.rounds
    }

    /// Writes queued and not yet taken into a transaction (for tests).
    var queuedWriteCount: Int {
        writeQueue.count
    }

    /// The writer connection's lock (for tests that hold the writer to make writes queue).
    var writerMutex: ConcurrencyLimit {
        writer.mutex
    }

    // MARK: - Group commit

    /// Queues `body` and waits until it ran and its transaction committed, running the batch of
    /// queued writes itself when its turn to lead comes.
    private func submit<T: Sendable>(
        isSingleStatement: Bool, _ body: @escaping @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        let slot = ResultSlot<T>()
        let job = WriteJob(
            WriteWork(isSingleStatement: isSingleStatement) { database in
                slot.store(try await body(database))
            })
        let leads = writeQueue.enqueue(job)
        // Waits on the writer's thread: a caller told to lead starts at once, not after whatever
        // fills the concurrency threads (token signing, under load), while the writer sits idle.
        let outcome = await withTaskExecutorPreference(writer.thread) { () -> Result<Void, any Error> in
            if !leads {
                switch await job.wait() {
                case .finished(let result): return result
                case .lead: break
                }
            }
            return await lead(job)
        }
        try outcome.get()
        return try Self.value(from: slot)
    }

    private static func value<T>(from slot: ResultSlot<T>) throws -> T {
        guard let value = slot.take() else {
            throw HearthError(.internalError, reason: "a committed write left no result")
        }
        return value
    }

    /// One turn of the leader whose job is `own`: takes the batch (`own` first), runs it holding
    /// the writer lock, answers the other callers and hands the turn on. Returns `own`'s outcome.
    private func lead(_ own: WriteJob) async -> Result<Void, any Error> {
        do {
            try await writer.mutex.enter()
        } catch {
            // Cancelled while waiting for the lock (held only by in-memory reads or close()).
            writeQueue.withdraw(own)?.signal(.lead)
            return .failure(error)
        }
        let batch = writeQueue.takeBatch()
        assert(batch.first === own, "a leader runs its own job first")
        writing.store(1, ordering: .relaxed)
        let (results, unrun): ([Result<Void, any Error>], [WriteJob])
        if batch.count == 1 {
            (results, unrun) = await runBatch(batch)
        } else {
            // The leader runs the others' writes too: its own task being cancelled (a chore at shutdown) must not
            // fail their statements (sqlite-nio's queries end in `CancellationError` in a cancelled task), so the
            // batch runs in a task of its own, which the leader's cancellation does not reach.
            (results, unrun) = await Task(executorPreference: writer.thread) { await self.runBatch(batch) }.value
        }
        writing.store(0, ordering: .relaxed)
        batchSizes.record(batch.count - unrun.count)
        writer.mutex.leave()
        writeQueue.endTurn(returning: unrun)?.signal(.lead)
        for (job, result) in zip(batch, results).dropFirst() {
            job.signal(.finished(result))
        }
        return results[0]
    }

    /// Runs `batch` on the writer, whose lock the caller holds. Returns the outcome of each job that
    /// ran (a prefix of `batch`, in order) and the jobs that did not run because the transaction was
    /// lost before their turn; they go back to the queue.
    private func runBatch(_ batch: [WriteJob]) async -> (results: [Result<Void, any Error>], unrun: [WriteJob]) {
        let database = writer.database
        guard !isClosed.withLock({ $0 }) else {
            let closed = HearthError(.storageUnavailable, reason: "the SQLite store is closed")
            return (batch.map { _ in .failure(closed) }, [])
        }
        if batch.count == 1, let job = batch.first {
            do {
                try await run(on: writer, begin: job.work.isSingleStatement ? nil : "BEGIN IMMEDIATE", job.work.body)
                commits.add(1, ordering: .relaxed)
                return ([.success(())], [])
            } catch {
                return ([.failure(error)], [])
            }
        }
        do {
            try await database.raw("BEGIN IMMEDIATE").run()
        } catch {
            let failure = SQLiteFailure.translate(error)
            return (batch.map { _ in .failure(failure) }, [])
        }
        var results: [Result<Void, any Error>] = []
        results.reserveCapacity(batch.count)
        for (index, job) in batch.enumerated() {
            do {
                try await database.raw("SAVEPOINT hearth_write").run()
                do {
                    try await job.work.body(database)
                    try await database.raw("RELEASE hearth_write").run()
                    results.append(.success(()))
                } catch {
                    results.append(.failure(SQLiteFailure.translate(error)))
                    try await database.raw("ROLLBACK TO hearth_write").run()
                    try await database.raw("RELEASE hearth_write").run()
                }
            } catch {
                // The transaction is in an unknown state (SQLite may have rolled it back already):
                // give it up. Jobs that had succeeded lose their work; jobs not run yet go back.
                try? await database.raw("ROLLBACK").run()
                let lost = HearthError(
                    .storageUnavailable, reason: "the shared write transaction was rolled back",
                    underlying: SQLiteFailure.translate(error))
                if results.count == index { results.append(.failure(SQLiteFailure.translate(error))) }
                return (results.map { $0.flatMap { .failure(lost) } }, Array(batch[(index + 1)...]))
            }
        }
        do {
            try await database.raw("COMMIT").run()
            commits.add(1, ordering: .relaxed)
        } catch {
            try? await database.raw("ROLLBACK").run()
            let failure = SQLiteFailure.translate(error)
            return (results.map { $0.flatMap { .failure(failure) } }, [])
        }
        return (results, [])
    }

    // MARK: - Lanes

    /// Runs `body` on `lane`'s thread, holding `lane`'s lock; the lock is released on that thread,
    /// before the hop back to the caller's executor.
    private func withLock<T: Sendable>(
        on lane: Lane, _ body: @Sendable (Lane) async throws -> T
    ) async throws -> T {
        try await withTaskExecutorPreference(lane.thread) {
            try await lane.mutex.run { try await body(lane) }
        }
    }

    /// Runs `body` on a reader's thread, holding that reader's lock: the first idle reader from the
    /// next in turn or, when all are busy, the next in turn as soon as it is free. Uses the writer
    /// when there are no readers (in-memory database).
    private func withReader<T: Sendable>(_ body: @Sendable (Lane) async throws -> T) async throws -> T {
        guard !readers.isEmpty else { return try await withLock(on: writer) { try await counted($0, body) } }
        let count = readers.count
        let turn = (nextReader.wrappingAdd(1, ordering: .relaxed).oldValue % count + count) % count
        for offset in 0..<count {
            let lane = readers[(turn + offset) % count]
            if lane.mutex.tryEnter() {
                return try await withTaskExecutorPreference(lane.thread) {
                    defer { lane.mutex.leave() }
                    return try await counted(lane, body)
                }
            }
        }
        readsWaiting.add(1, ordering: .relaxed)
        let waiting = Atomic<Bool>(true)
        defer { if waiting.exchange(false, ordering: .relaxed) { readsWaiting.subtract(1, ordering: .relaxed) } }
        return try await withLock(on: readers[turn]) { lane in
            if waiting.exchange(false, ordering: .relaxed) { readsWaiting.subtract(1, ordering: .relaxed) }
            return try await counted(lane, body)
        }
    }

    /// Runs `body` on `lane`, counted in ``poolUsage()`` while it runs.
    private func counted<T: Sendable>(_ lane: Lane, _ body: @Sendable (Lane) async throws -> T) async throws -> T {
        readsRunning.add(1, ordering: .relaxed)
        defer { readsRunning.subtract(1, ordering: .relaxed) }
        return try await body(lane)
    }

    /// Runs `body` on `lane`, whose lock the caller holds: between `begin` and `COMMIT` (`ROLLBACK`
    /// when it throws), or in autocommit mode when `begin` is `nil`.
    private func run<T: Sendable>(
        on lane: Lane, begin: SQLQueryString?, _ body: @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        guard !isClosed.withLock({ $0 }) else {
            throw HearthError(.storageUnavailable, reason: "the SQLite store is closed")
        }
        let database = lane.database
        guard let begin else {
            // One statement: SQLite makes it atomic on its own and undoes it when it fails.
            do {
                return try await body(database)
            } catch {
                throw SQLiteFailure.translate(error)
            }
        }
        do {
            try await database.raw(begin).run()
        } catch {
            throw SQLiteFailure.translate(error)
        }
        let result: T
        do {
            result = try await body(database)
            try await database.raw("COMMIT").run()
        } catch {
            // Best effort: fails harmlessly when SQLite already ended the transaction.
            try? await database.raw("ROLLBACK").run()
            throw SQLiteFailure.translate(error)
        }
        return result
    }
}
