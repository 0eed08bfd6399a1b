import HearthCore
import HearthStorage
import HearthTelemetry
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
    /// With a `userCacheCapacity` above 0 the store keeps up to that many users read by uid in memory
    /// (see `SQLStore`), which is exact only while no other process writes the file: it then holds an
    /// exclusive lock on `<path>.lock` until closed, and a second such store on the same file waits
    /// up to `lockWait` for it, then fails with `HearthError(.storageUnavailable)` naming the file.
    ///
    /// With a `sealer`, signing keys, identity-provider settings and mail bodies are sealed at rest (see `SQLStore.sealer`).
    /// A new file and directory are made readable by their owner only (0600, 0700); existing ones that
    /// others may read are logged as a warning.
    ///
    /// Throws ``SQLStoreError/unknownMigration(_:)`` when the file was written by a newer binary, and
    /// `HearthError(.storageUnavailable)` when the file cannot be opened.
    ///
    /// `telemetry` receives the store's transaction times and spans and the sizes of group commits.
    public static func open(
        path: String, logger: Logger, migrate: Bool = true, userCacheCapacity: Int = 0, lockWait: Duration = .seconds(10),
        sealer: SecretSealer? = nil, telemetry: Telemetry = .off
    ) async throws -> SQLStore {
        let transactor = try await SQLiteTransactor.open(
            path: path, exclusive: userCacheCapacity > 0, lockWait: lockWait, logger: logger, telemetry: telemetry)
        return try await makeStore(
            transactor, logger: logger, migrate: migrate, userCacheCapacity: userCacheCapacity, sealer: sealer, telemetry: telemetry)
    }

    /// Opens a private, empty in-memory database on a single connection, migrated unless `migrate`
    /// is `false`. Its data is gone when the store is closed.
    public static func openInMemory(logger: Logger, migrate: Bool = true, sealer: SecretSealer? = nil) async throws -> SQLStore {
        let transactor = try await SQLiteTransactor.openInMemory(logger: logger)
        return try await makeStore(transactor, logger: logger, migrate: migrate, userCacheCapacity: 0, sealer: sealer, telemetry: .off)
    }

    private static func makeStore(
        _ transactor: SQLiteTransactor, logger: Logger, migrate: Bool, userCacheCapacity: Int, sealer: SecretSealer?,
        telemetry: Telemetry
    ) async throws -> SQLStore {
        let store = SQLStore(
            transactor: transactor, logger: logger, userCacheCapacity: userCacheCapacity, sealer: sealer, telemetry: telemetry,
            system: "sqlite")
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
