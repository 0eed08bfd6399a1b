import Foundation
import HearthCore
import HearthStorage
import Logging
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit
import SQLiteNIO
import Synchronization

/// SQLite behind the ``SQLTransactor`` discipline: one writer, a few readers, WAL.
///
/// - Writes go through ONE connection whose use is serialized by an ``AsyncMutex`` (FIFO); each
///   `write` holds it from `BEGIN IMMEDIATE` to `COMMIT`, so writers never meet `SQLITE_BUSY`
///   inside the process.
/// - A unit of work of ONE statement (``readSingleStatement(_:)``, ``writeSingleStatement(_:)``)
///   runs in autocommit mode, without `BEGIN`/`COMMIT`: a single statement is atomic and reads one
///   snapshot by itself.
/// - Reads go to a reader connection (two by default; an idle one when there is one, else the next
///   in turn), each also serialized by its own ``AsyncMutex``: a read transaction (``read(_:)``)
///   inside a deferred transaction, which WAL gives a consistent snapshot of committed data while
///   the writer works; a single-statement read in autocommit mode. Readers are `query_only`.
/// - Each connection has its own thread (``LaneThread``), which runs its statements and, as the
///   task executor of each unit of work on the connection, the code between them: a unit hops onto
///   that thread once and off once instead of twice per statement, and a connection's lock is
///   released on that thread, never held while the unit waits for a Swift concurrency thread.
/// - Every connection runs `journal_mode=WAL`, `synchronous=NORMAL`, `foreign_keys=ON`,
///   `busy_timeout=5000`. (No `mmap_size` or larger `cache_size`: on this workload they did not
///   measurably help, and mapped or cached pages count against the server's memory target.)
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
        let mutex: AsyncMutex
        let thread: LaneThread

        /// Waits for the work in flight, closes the connection and stops its thread.
        func close() async throws {
            do {
                try await mutex.withLock { try await connection.close() }
            } catch {
                await thread.shutdown()
                throw error
            }
            await thread.shutdown()
        }
    }

    private let writer: Lane
    /// Empty for an in-memory database: reads then use the writer.
    private let readers: [Lane]
    private let nextReader = Atomic<Int>(0)
    private let isClosed = Mutex(false)
    /// Held while open when this process must be the file's only user (see ``open(path:readers:exclusive:logger:)``).
    private let fileLock: ExclusiveFileLock?

    private init(writer: Lane, readers: [Lane], fileLock: ExclusiveFileLock? = nil) {
        self.writer = writer
        self.readers = readers
        self.fileLock = fileLock
    }

    /// Opens (creating if needed) the database file at `path` with one writer and `readers` reader
    /// connections. Creates the parent directory when it is missing.
    ///
    /// With `exclusive`, the process first takes an exclusive lock on `<path>.lock` (waiting up to
    /// `lockWait` for a previous holder to exit) and keeps it until ``close()``: a store that keeps
    /// users in memory must be the file's only writer.
    public static func open(
        path: String, readers readerCount: Int = 2, exclusive: Bool = false, lockWait: Duration = .seconds(10),
        logger: Logger
    ) async throws -> SQLiteTransactor {
        if path == ":memory:" { return try await openInMemory(logger: logger) }
        guard !path.isEmpty, !path.hasPrefix("file:") else {
            throw HearthError(.storageUnavailable, reason: "SQLite database path must be a plain file path")
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw HearthError(
                .storageUnavailable, reason: "cannot create the database directory", underlying: error)
        }
        let fileLock = exclusive ? try await ExclusiveFileLock.acquire(databasePath: path, wait: lockWait) : nil
        let storage = SQLiteConnection.Storage.file(path: path)
        // The writer first: it switches the file to WAL before any reader opens it.
        let writer: Lane
        do {
            writer = try await connect(storage, readOnly: false, logger: logger)
        } catch {
            fileLock?.release()
            throw error
        }
        var readers: [Lane] = []
        do {
            for _ in 0..<max(1, readerCount) {
                readers.append(try await connect(storage, readOnly: true, logger: logger))
            }
        } catch {
            for lane in readers { try? await lane.close() }
            try? await writer.close()
            fileLock?.release()
            throw error
        }
        logger.debug("Opened SQLite database", metadata: ["readers": "\(readers.count)", "exclusive": "\(exclusive)"])
        return SQLiteTransactor(writer: writer, readers: readers, fileLock: fileLock)
    }

    /// Opens a private in-memory database on a single connection (for tests and experiments).
    public static func openInMemory(logger: Logger) async throws -> SQLiteTransactor {
        let writer = try await connect(.memory, readOnly: false, logger: logger)
        return SQLiteTransactor(writer: writer, readers: [])
    }

    /// Opens one connection on a thread of its own and applies the pragmas every connection gets.
    private static func connect(
        _ storage: SQLiteConnection.Storage, readOnly: Bool, logger: Logger
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
            connection: connection, database: connection.sql(queryLogLevel: nil), mutex: AsyncMutex(), thread: thread)
        do {
            try await configure(lane.database, storage: storage, readOnly: readOnly, logger: logger)
        } catch {
            try? await lane.close()
            throw SQLiteFailure.translate(error)
        }
        return lane
    }

    /// The pragmas every connection gets.
    private static func configure(
        _ database: any SQLDatabase, storage: SQLiteConnection.Storage, readOnly: Bool, logger: Logger
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
        try await database.raw("PRAGMA foreign_keys = ON").run()
        if readOnly {
            try await database.raw("PRAGMA query_only = ON").run()
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

    /// Runs `body` on the writer connection between `BEGIN IMMEDIATE` and `COMMIT`, holding the
    /// writer lock throughout; rolls back and rethrows when `body` throws.
    public func write<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await withLock(on: writer) { lane in
            try await run(on: lane, begin: "BEGIN IMMEDIATE", body)
        }
    }

    /// Runs `body`, which issues one statement, on the writer connection in autocommit mode, holding
    /// the writer lock.
    public func writeSingleStatement<T: Sendable>(
        _ body: @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        try await withLock(on: writer) { lane in
            try await run(on: lane, begin: nil, body)
        }
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
        for lane in readers + [writer] {
            do {
                try await lane.close()
            } catch {
                firstError = firstError ?? error
            }
        }
        fileLock?.release()
        if let firstError { throw SQLiteFailure.translate(firstError) }
    }

    // MARK: - Lanes

    /// Runs `body` on `lane`'s thread, holding `lane`'s lock; the lock is released on that thread,
    /// before the hop back to the caller's executor.
    private func withLock<T: Sendable>(
        on lane: Lane, _ body: @Sendable (Lane) async throws -> T
    ) async throws -> T {
        try await withTaskExecutorPreference(lane.thread) {
            try await lane.mutex.withLock { try await body(lane) }
        }
    }

    /// Runs `body` on a reader's thread, holding that reader's lock: the first idle reader from the
    /// next in turn or, when all are busy, the next in turn as soon as it is free. Uses the writer
    /// when there are no readers (in-memory database).
    private func withReader<T: Sendable>(_ body: @Sendable (Lane) async throws -> T) async throws -> T {
        guard !readers.isEmpty else { return try await withLock(on: writer, body) }
        let count = readers.count
        let turn = (nextReader.wrappingAdd(1, ordering: .relaxed).oldValue % count + count) % count
        for offset in 0..<count {
            let lane = readers[(turn + offset) % count]
            if lane.mutex.tryLock() {
                return try await withTaskExecutorPreference(lane.thread) {
                    defer { lane.mutex.unlock() }
                    return try await body(lane)
                }
            }
        }
        return try await withLock(on: readers[turn], body)
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
