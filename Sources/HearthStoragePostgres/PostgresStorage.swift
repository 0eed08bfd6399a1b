import HearthCore
import HearthStorage
import HearthTelemetry
import Logging

/// Opens Hearth stores backed by PostgreSQL, for one or several replicas sharing the database.
///
/// ```swift
/// let store = try await PostgresStorage.open(
///     url: "postgres://hearth:secret@db.internal:5432/hearth?sslmode=require", logger: logger)
/// defer { try? await store.close() }
/// ```
///
/// The store runs its connection pool itself (see ``PostgresTransactor``): nothing has to be added
/// to a `ServiceGroup`, but ``SQLStore/close()`` must be called to stop it.
public enum PostgresStorage {
    /// Connects to the database at `url` (see ``PostgresTransactor/open(url:options:logger:)`` for
    /// the URL form) with default ``PostgresStorageOptions`` and — unless `migrate` is `false` —
    /// brings the schema up to date (safe when several replicas start at once).
    ///
    /// Throws `HearthError(.storageUnavailable)` when the database cannot be reached or refuses the
    /// connection, and ``SQLStoreError/unknownMigration(_:)`` when its schema is newer than this
    /// binary.
    /// With a `sealer`, signing keys, identity-provider settings and mail bodies are sealed at rest (see `SQLStore.sealer`).
    /// `telemetry` receives the store's transaction times and spans.
    public static func open(
        url: String, logger: Logger, migrate: Bool = true, sealer: SecretSealer? = nil, telemetry: Telemetry = .off
    ) async throws -> SQLStore {
        try await open(url: url, options: PostgresStorageOptions(), logger: logger, migrate: migrate, sealer: sealer, telemetry: telemetry)
    }

    /// ``open(url:logger:migrate:)`` with explicit pool and timeout options.
    public static func open(
        url: String, options: PostgresStorageOptions, logger: Logger, migrate: Bool = true, sealer: SecretSealer? = nil,
        telemetry: Telemetry = .off
    ) async throws -> SQLStore {
        let transactor = try await PostgresTransactor.open(url: url, options: options, logger: logger)
        let store = SQLStore(transactor: transactor, logger: logger, sealer: sealer, telemetry: telemetry, system: "postgresql")
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
