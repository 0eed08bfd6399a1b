import HearthStorage
import Logging

/// Opens Hearth stores backed by SQLite.
///
/// ```swift
/// let store = try await SQLiteStorage.open(path: "/var/lib/hearth/hearth.sqlite", logger: logger)
/// defer { try? await store.close() }
/// ```
public enum SQLiteStorage {
    /// Opens (creating the file and its directory if needed) the database at `path`, with one writer
    /// and two reader connections in WAL mode, and — unless `migrate` is `false` — brings the schema
    /// up to date.
    ///
    /// Throws ``SQLStoreError/unknownMigration(_:)`` when the file was written by a newer binary, and
    /// `HearthError(.storageUnavailable)` when the file cannot be opened.
    public static func open(path: String, logger: Logger, migrate: Bool = true) async throws -> SQLStore {
        let transactor = try await SQLiteTransactor.open(path: path, logger: logger)
        return try await makeStore(transactor, logger: logger, migrate: migrate)
    }

    /// Opens a private, empty in-memory database on a single connection, migrated unless `migrate`
    /// is `false`. Its data is gone when the store is closed.
    public static func openInMemory(logger: Logger, migrate: Bool = true) async throws -> SQLStore {
        let transactor = try await SQLiteTransactor.openInMemory(logger: logger)
        return try await makeStore(transactor, logger: logger, migrate: migrate)
    }

    private static func makeStore(_ transactor: SQLiteTransactor, logger: Logger, migrate: Bool) async throws -> SQLStore {
        let store = SQLStore(transactor: transactor, logger: logger)
        guard migrate else { return store }
        do {
            try await store.migrate()
        } catch {
            try? await transactor.close()
            throw error
        }
        return store
    }
}
