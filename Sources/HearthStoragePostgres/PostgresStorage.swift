import HearthCore
import HearthStorage
import HearthTelemetry
import Logging
import ServiceLifecycle

/// Opens Hearth stores backed by PostgreSQL, for one or several replicas sharing the database.
///
/// ```swift
/// let store = try await PostgresStorage.open(
///     url: "postgres://hearth:secret@db.internal:5432/hearth?sslmode=require", logger: logger)
/// defer { try? await store.close() }
/// ```
///
/// A store from ``open(url:logger:migrate:sealer:telemetry:)`` runs its connection pool itself: nothing has to
/// be added to a `ServiceGroup`, but ``SQLStore/close()`` must be called to stop it. A server's store comes from
/// ``prepare(url:options:logger:sealer:telemetry:)`` instead, with its pool to run in the server's group.
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

    /// The store of a server, whose `ServiceGroup` runs the connection pool: checks that the database at `url`
    /// accepts a connection, and returns the store (not migrated yet: migrations need the pool running) and the
    /// pool, to list in the group before the store's own service.
    ///
    /// With a `userCache`, the store keeps up to `capacity` users and sessions in memory, each served at most `maximumAge`
    /// after it was read, and `listener` (to run in the same group) hears the changes other replicas announce and keeps
    /// the cache exact (see ``PostgresAccountChangeListener``); the cache is off until it does.
    public static func prepare(
        url: String, options: PostgresStorageOptions, logger: Logger, userCache: (capacity: Int, maximumAge: Duration)? = nil,
        sealer: SecretSealer? = nil, telemetry: Telemetry = .off
    ) async throws -> (store: SQLStore, pool: any Service, listener: (any Service)?) {
        let transactor = try await PostgresTransactor.open(url: url, options: options, logger: logger, runsPool: false)
        let cache = userCache.flatMap { $0.capacity > 0 && $0.maximumAge > .zero ? $0 : nil }
        let store = SQLStore(
            transactor: transactor, logger: logger, userCacheCapacity: cache?.capacity ?? 0, sharedCacheMaximumAge: cache?.maximumAge,
            sealer: sealer, telemetry: telemetry, system: "postgresql")
        guard cache != nil else { return (store, transactor.pool, nil) }
        var background = logger
        background.logLevel = max(logger.logLevel, .info)
        let configuration = try PostgresEndpoint(url: url).connectionConfiguration(options: options)
        return (store, transactor.pool, PostgresAccountChangeListener(store: store, configuration: configuration, logger: background))
    }
}
