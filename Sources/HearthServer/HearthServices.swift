import Foundation
import AsyncHTTPClient
import HearthCore
import HearthProviders
import HearthSandbox
import HearthStorage
import HearthStoragePostgres
import HearthStorageSQLite
import HearthTokens
import Logging
import NIOCore
import NIOPosix

/// The parts a running server is made of, opened once and shared by controllers and background services.
public struct HearthServices: Sendable {
    public let configuration: ServerConfiguration
    public let store: any HearthStore
    public let keyRing: KeyRing
    public let tokens: TokenService
    public let passwords: PasswordHasher
    /// Verifies identity-provider credentials for `signInWithIdp`.
    public let identityVerifier: any IdentityVerifier
    /// The provider sandbox served at `/sandbox` in development mode (see ``ServerConfiguration/servesSandbox``).
    public let sandbox: Sandbox?
    public let clock: WallClock
    public let logger: Logger

    /// Opens the database (PostgreSQL when `database.url` says so, else the embedded SQLite file),
    /// applies pending migrations, and loads or creates the signing keys.
    ///
    /// When the configuration serves the provider sandbox, it is made here: port 0 is resolved to a free
    /// port first (the sandbox's URLs must be known before the providers are), and every provider the
    /// configuration does not switch on is pointed at the sandbox.
    /// - Parameter adjustProviders: a last change to the providers once the sandbox's are known (tests use
    ///   it to set, say, Microsoft's allowed tenants on the sandbox's Microsoft).
    public static func open(
        configuration: ServerConfiguration, clock: WallClock = .system, logger: Logger,
        identityVerifier: (any IdentityVerifier)? = nil,
        adjustProviders: (inout ProvidersConfiguration) -> Void = { _ in }
    ) async throws -> HearthServices {
        var configuration = configuration
        var sandbox: Sandbox?
        if configuration.servesSandbox {
            if configuration.port == 0 { configuration.port = try await freePort(host: configuration.host) }
            let made = Sandbox(baseURL: "\(configuration.baseURL)/sandbox", clock: { clock.now }, logger: logger)
            configuration.providers = configuration.providers.fillingDisabled(from: .sandbox(made.endpoints()))
            sandbox = made
        }
        adjustProviders(&configuration.providers)
        let store = try await openStore(configuration: configuration, logger: logger)
        let verifier = identityVerifier ?? ProviderRegistry(
            configuration: configuration.providers, httpClient: HTTPClient.shared, clock: clock, logger: logger)
        do {
            return try await open(
                configuration: configuration, store: store, clock: clock, logger: logger, identityVerifier: verifier, sandbox: sandbox)
        } catch {
            try? await store.close()
            throw error
        }
    }

    /// The configured store, migrated unless `migrate` is false.
    public static func openStore(configuration: ServerConfiguration, logger: Logger, migrate: Bool = true) async throws -> SQLStore {
        if configuration.usesPostgres, let url = configuration.databaseURL {
            return try await PostgresStorage.open(url: url, logger: logger, migrate: migrate)
        }
        return try await SQLiteStorage.open(path: configuration.resolvedSQLitePath, logger: logger, migrate: migrate)
    }

    /// Builds the services on a store that is already open and migrated.
    public static func open(
        configuration: ServerConfiguration, store: any HearthStore, clock: WallClock, logger: Logger,
        identityVerifier: any IdentityVerifier = NoIdentityProviders(), sandbox: Sandbox? = nil
    ) async throws -> HearthServices {
        let keyRing = KeyRing(
            store: store, clock: clock,
            configuration: .init(
                rotationPeriod: configuration.keyRotationPeriod, publishLead: configuration.keyPublishLead,
                tokenLifetime: configuration.idTokenLifetime),
            logger: logger)
        try await keyRing.start()
        let tokens = TokenService(
            keyRing: keyRing,
            configuration: .init(projectID: configuration.projectID, issuer: configuration.resolvedIssuer, idTokenLifetime: configuration.idTokenLifetime),
            clock: clock)
        return HearthServices(
            configuration: configuration, store: store, keyRing: keyRing, tokens: tokens,
            passwords: PasswordHasher(logN: configuration.scryptLogN), identityVerifier: identityVerifier, sandbox: sandbox,
            clock: clock, logger: logger)
    }

    /// A port nobody listens on at `host` now, for a server told to take any free port whose URL must be
    /// known before it listens.
    private static func freePort(host: String) async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: host, port: 0).get()
        let port = channel.localAddress?.port ?? 0
        try await channel.close()
        return port
    }

    /// Hashes a password on the blocking thread pool, never on an event loop.
    func hashPassword(_ password: String) async throws -> String {
        let hasher = passwords
        return try await NIOThreadPool.singleton.runIfActive { try hasher.hash(password) }
    }

    /// Verifies a password on the blocking thread pool.
    func verifyPassword(_ password: String, against hash: String) async throws -> Bool {
        let hasher = passwords
        return try await NIOThreadPool.singleton.runIfActive { hasher.verify(password, against: hash) }
    }
}

/// The verifier of a server with no identity provider configured: every provider is switched off.
public struct NoIdentityProviders: IdentityVerifier {
    public init() {}
    public func isEnabled(_ providerID: String) -> Bool { false }
    public func verify(_ credential: FederatedCredential) async throws -> FederatedProfile {
        throw HearthError(.operationNotAllowed)
    }
}
