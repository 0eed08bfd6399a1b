import AsyncHTTPClient
import HearthConfiguration
import HearthCore
import HearthProviders
import HearthServer
import HearthStorage
import HearthStoragePostgres
import HearthStorageSQLite
import HearthTelemetry
import Logging
import ServiceLifecycle

/// A server's base as its composition makes it before anything runs: where metrics and spans go, the secrets'
/// sealer, and the store the configuration chooses (PostgreSQL when `database.url` says so, else the embedded
/// SQLite file), opened but not migrated. A server's PostgreSQL pool is left for its `ServiceGroup` to run
/// (``databasePool``): migrations wait for it, so the server opens once its group runs (``HearthServerService``).
public struct PreparedServer: Sendable {
    public let base: HearthServices.Base
    /// The PostgreSQL connection pool for the group to run, before everything that uses it; `nil` for SQLite and for a
    /// store that runs its own pool.
    public let databasePool: (any Service)?
    /// What keeps a PostgreSQL replica's user cache exact (``PostgresAccountChangeListener``), for the group to run after
    /// the pool; `nil` without a cache (SQLite's needs none: its server is the file's only writer).
    public let accountChangeListener: (any Service)?

    /// - Parameters:
    ///   - telemetry: where metrics and spans go; by default a Prometheus registry of the server's own when
    ///     `metrics.enabled`, else nothing, and spans to `tracing.otlpEndpoint` when it is set (``TraceExport``).
    ///   - poolRunsItself: a PostgreSQL store runs its own pool, until it is closed (tools and in-process tests,
    ///     which run no service group).
    public static func prepare(
        configuration: ServerConfiguration, logger: Logger, telemetry: Telemetry? = nil, poolRunsItself: Bool = false
    ) async throws -> PreparedServer {
        let traceExport = try telemetry == nil ? TraceExport.make(configuration.tracing.exportSettings, logger: logger) : nil
        let measured = telemetry ?? HearthServices.defaultTelemetry(configuration)
        let telemetry = traceExport.map { measured.tracing(to: $0.tracer) } ?? measured
        let sealer = try configuration.keyEncryptionKey(logger: logger).map(SecretSealer.init(key:))
        if configuration.usesPostgres, let url = configuration.databaseURL, !poolRunsItself {
            var options = HearthServices.postgresOptions(configuration)
            options.keepsConnectionsOpen = true
            let (store, pool, listener) = try await PostgresStorage.prepare(
                url: url, options: options, logger: logger,
                userCache: (configuration.userCacheSize, .milliseconds(Int64(configuration.databaseCacheMaxAge * 1_000))), sealer: sealer,
                telemetry: telemetry)
            return PreparedServer(
                base: .init(store: store, telemetry: telemetry, traceExporter: traceExport?.service), databasePool: pool,
                accountChangeListener: listener)
        }
        let store = try await HearthServices.openStore(
            configuration: configuration, logger: logger, migrate: false, servesRequests: true, sealer: sealer, telemetry: telemetry)
        return PreparedServer(
            base: .init(store: store, telemetry: telemetry, traceExporter: traceExport?.service), databasePool: nil, accountChangeListener: nil)
    }
}

extension HearthServices {
    /// The configured store, running its own connection pool, migrated unless `migrate` is false: for tools and tests.
    ///
    /// With `servesRequests`, a SQLite store keeps up to `storage.userCacheSize` users in memory and so
    /// holds the file exclusively (a second server on it fails to start); tools such as
    /// `hearth migrate` open it without either. A PostgreSQL store opened here keeps no users (a server's does, from
    /// ``PreparedServer/prepare(configuration:logger:telemetry:poolRunsItself:)``, with its change listener).
    /// With a `sealer` the store seals secrets at rest (``ServerConfiguration/keyEncryptionKey(logger:createInDevelopment:)``).
    /// `telemetry` times and traces the store's transactions.
    public static func openStore(
        configuration: ServerConfiguration, logger: Logger, migrate: Bool = true, servesRequests: Bool = false,
        sealer: SecretSealer? = nil, telemetry: Telemetry = .off
    ) async throws -> SQLStore {
        if configuration.usesPostgres, let url = configuration.databaseURL {
            return try await PostgresStorage.open(
                url: url, options: postgresOptions(configuration), logger: logger, migrate: migrate, sealer: sealer, telemetry: telemetry)
        }
        return try await SQLiteStorage.open(
            path: configuration.resolvedSQLitePath, logger: logger, migrate: migrate,
            userCacheCapacity: servesRequests ? configuration.userCacheSize : 0, sealer: sealer, telemetry: telemetry)
    }

    static func postgresOptions(_ configuration: ServerConfiguration) -> PostgresStorageOptions {
        var options = PostgresStorageOptions()
        options.maximumConnections = configuration.databaseMaxConnections
        options.preparedStatements = configuration.databasePreparedStatements
        return options
    }

    /// Opens the configured store, running its own pool, and builds the server on it: for tools (`hearth keys`,
    /// `hearth users` on the database) and in-process tests, which run no service group. The caller closes the
    /// store. See ``HearthServices/open(configuration:base:httpClient:clock:logger:identityVerifier:extensions:adjustProviders:)``.
    public static func open(
        configuration: ServerConfiguration, httpClient: HTTPClient, clock: WallClock = .system, logger: Logger,
        identityVerifier: (any IdentityVerifier)? = nil, extensions: [any ServerExtension] = [], telemetry: Telemetry? = nil,
        adjustProviders: @escaping @Sendable (inout ProvidersConfiguration) -> Void = { _ in }
    ) async throws -> HearthServices {
        let prepared = try await PreparedServer.prepare(
            configuration: configuration, logger: logger, telemetry: telemetry, poolRunsItself: true)
        return try await open(
            configuration: configuration, base: prepared.base, httpClient: httpClient, clock: clock, logger: logger,
            identityVerifier: identityVerifier, extensions: extensions, adjustProviders: adjustProviders)
    }
}

/// The server as one service of its group: opens ``HearthServices`` on the prepared base once the group runs (so
/// the PostgreSQL pool listed before it already does), then runs the application until the group shuts down.
public struct HearthServerService: Service {
    let open: @Sendable () async throws -> HearthServices
    let application: @Sendable (HearthServices) -> any Service

    /// - Parameters:
    ///   - open: builds the services, typically ``HearthServices/open(configuration:base:httpClient:clock:logger:identityVerifier:extensions:adjustProviders:)``.
    ///   - application: the application on them, typically `buildApplication(services:)`.
    public init(
        open: @escaping @Sendable () async throws -> HearthServices, application: @escaping @Sendable (HearthServices) -> any Service
    ) {
        self.open = open
        self.application = application
    }

    public func run() async throws {
        let services = try await open()
        try await application(services).run()
    }
}
