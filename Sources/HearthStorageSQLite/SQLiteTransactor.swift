import Foundation
import HearthCore
import HearthStorage
import Logging
import SQLKit
import SQLiteKit
import SQLiteNIO
import Synchronization

/// SQLite behind the ``SQLTransactor`` discipline: one writer, a few readers, WAL.
///
/// - Writes go through ONE connection whose use is serialized by an ``AsyncMutex`` (FIFO); each
///   `write` holds it from `BEGIN IMMEDIATE` to `COMMIT`, so writers never meet `SQLITE_BUSY`
///   inside the process.
/// - Reads go round-robin to reader connections (two by default), each also serialized, inside a
///   deferred transaction: WAL gives them a consistent snapshot of committed data while the writer
///   works. Readers are `query_only`.
/// - Every connection runs `journal_mode=WAL`, `synchronous=NORMAL`, `foreign_keys=ON`,
///   `busy_timeout=5000`.
/// - I/O-type SQLite failures become `HearthError(.storageUnavailable)`; everything else passes
///   through unchanged. Queries are not logged (bound values must never reach logs).
///
/// An in-memory database cannot be shared between connections, so ``openInMemory(logger:)`` uses
/// the writer connection for reads too.
public final class SQLiteTransactor: SQLTransactor {
    /// One connection and the lock that serializes its use.
    struct Lane: Sendable {
        let connection: SQLiteConnection
        let database: any SQLDatabase
        let mutex: AsyncMutex
    }

    private let writer: Lane
    /// Empty for an in-memory database: reads then use the writer.
    private let readers: [Lane]
    private let nextReader = Atomic<Int>(0)
    private let isClosed = Mutex(false)

    private init(writer: Lane, readers: [Lane]) {
        self.writer = writer
        self.readers = readers
    }

    /// Opens (creating if needed) the database file at `path` with one writer and `readers` reader
    /// connections. Creates the parent directory when it is missing.
    public static func open(path: String, readers readerCount: Int = 2, logger: Logger) async throws -> SQLiteTransactor {
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
        let storage = SQLiteConnection.Storage.file(path: path)
        // The writer first: it switches the file to WAL before any reader opens it.
        let writer = try await connect(storage, readOnly: false, logger: logger)
        var readers: [Lane] = []
        do {
            for _ in 0..<max(1, readerCount) {
                readers.append(try await connect(storage, readOnly: true, logger: logger))
            }
        } catch {
            for lane in readers { try? await lane.connection.close() }
            try? await writer.connection.close()
            throw error
        }
        logger.debug("Opened SQLite database", metadata: ["readers": "\(readers.count)"])
        return SQLiteTransactor(writer: writer, readers: readers)
    }

    /// Opens a private in-memory database on a single connection (for tests and experiments).
    public static func openInMemory(logger: Logger) async throws -> SQLiteTransactor {
        let writer = try await connect(.memory, readOnly: false, logger: logger)
        return SQLiteTransactor(writer: writer, readers: [])
    }

    /// Opens one connection and applies the pragmas every connection gets.
    private static func connect(
        _ storage: SQLiteConnection.Storage, readOnly: Bool, logger: Logger
    ) async throws -> Lane {
        let connection: SQLiteConnection
        do {
            connection = try await SQLiteConnection.open(storage: storage, logger: logger)
        } catch {
            throw SQLiteFailure.translate(error)
        }
        // queryLogLevel nil: SQLKit would otherwise log bound values at debug level.
        let database = connection.sql(queryLogLevel: nil)
        do {
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
        } catch {
            try? await connection.close()
            throw SQLiteFailure.translate(error)
        }
        return Lane(connection: connection, database: database, mutex: AsyncMutex())
    }

    // MARK: - SQLTransactor

    /// Runs `body` on a reader connection inside a deferred transaction (a consistent snapshot).
    public func read<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        let lane: Lane
        if readers.isEmpty {
            lane = writer
        } else {
            let turn = nextReader.wrappingAdd(1, ordering: .relaxed).oldValue
            lane = readers[(turn % readers.count + readers.count) % readers.count]
        }
        return try await transaction(on: lane, begin: "BEGIN", body)
    }

    /// Runs `body` on the writer connection between `BEGIN IMMEDIATE` and `COMMIT`, holding the
    /// writer lock throughout; rolls back and rethrows when `body` throws.
    public func write<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await transaction(on: writer, begin: "BEGIN IMMEDIATE", body)
    }

    /// Waits for the work in flight on each connection, then closes them all. Idempotent.
    public func close() async throws {
        let wasClosed = isClosed.withLock { closed in
            defer { closed = true }
            return closed
        }
        guard !wasClosed else { return }
        var firstError: (any Error)?
        for lane in readers + [writer] {
            do {
                try await lane.mutex.withLock { try await lane.connection.close() }
            } catch {
                firstError = firstError ?? error
            }
        }
        if let firstError { throw SQLiteFailure.translate(firstError) }
    }

    private func transaction<T: Sendable>(
        on lane: Lane, begin: SQLQueryString, _ body: @Sendable (any SQLDatabase) async throws -> T
    ) async throws -> T {
        try await lane.mutex.withLock {
            guard !isClosed.withLock({ $0 }) else {
                throw HearthError(.storageUnavailable, reason: "the SQLite store is closed")
            }
            let database = lane.database
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
}
