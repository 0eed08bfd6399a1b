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
import NIOPosix

/// The parts a running server is made of, opened once and shared by controllers and background services.
public struct HearthServices: Sendable {
    public let configuration: ServerConfiguration
    public let store: any HearthStore
    public let keyRing: KeyRing
    public let tokens: TokenService
    /// Checks the custom tokens of `accounts:signInWithCustomToken`.
    public let customTokens: CustomTokenVerifier
    public let passwords: PasswordHasher
    /// Verifies identity-provider credentials for `signInWithIdp`.
    public let identityVerifier: any IdentityVerifier
    /// The provider sandbox served at `/sandbox` in development mode (see ``ServerConfiguration/servesSandbox``).
    public let sandbox: Sandbox?
    /// The providers for the sandbox at its final URL (see ``serverDidBind(port:)``).
    private var sandboxProviders: (@Sendable (Sandbox) -> ProvidersConfiguration)?
    public let clock: WallClock
    public let logger: Logger
    /// How many password checks ran, and how many of them against the decoy hash.
    public let passwordChecks = PasswordCheckCounter()

    /// Opens the database (PostgreSQL when `database.url` says so, else the embedded SQLite file),
    /// applies pending migrations, checks that the key-encryption key opens the stored secrets (sealing
    /// those an earlier version left in plain text), and loads or creates the signing keys.
    ///
    /// When the configuration serves the provider sandbox, it is made here, and every provider the
    /// configuration does not switch on is pointed at it. With port 0 the sandbox's URLs are known only once
    /// the server listens: ``serverDidBind(port:)`` sets them then.
    /// - Parameter adjustProviders: a last change to the providers once the sandbox's are known (tests use
    ///   it to set, say, Microsoft's allowed tenants on the sandbox's Microsoft).
    public static func open(
        configuration: ServerConfiguration, clock: WallClock = .system, logger: Logger,
        identityVerifier: (any IdentityVerifier)? = nil,
        adjustProviders: @escaping @Sendable (inout ProvidersConfiguration) -> Void = { _ in }
    ) async throws -> HearthServices {
        var configuration = configuration
        var sandbox: Sandbox?
        var sandboxProviders: (@Sendable (Sandbox) -> ProvidersConfiguration)?
        if configuration.servesSandbox {
            let made = Sandbox(baseURL: "\(configuration.baseURL)/sandbox", clock: { clock.now }, logger: logger)
            let configured = configuration.providers
            let rule: @Sendable (Sandbox) -> ProvidersConfiguration = { sandbox in
                var providers = configured.fillingDisabled(from: .sandbox(sandbox.endpoints()))
                adjustProviders(&providers)
                return providers
            }
            configuration.providers = rule(made)
            sandbox = made
            sandboxProviders = rule
        } else {
            adjustProviders(&configuration.providers)
        }
        let sealer = try configuration.keyEncryptionKey(logger: logger).map(SecretSealer.init(key:))
        let store = try await openStore(configuration: configuration, logger: logger, servesRequests: true, sealer: sealer)
        do {
            let sealed = try await store.sealStoredSecrets()
            if sealed.total > 0 {
                logger.notice(
                    "Sealed secrets an earlier version stored in plain text",
                    metadata: ["signingKeys": "\(sealed.signingKeys)", "settings": "\(sealed.settings)"])
            }
        } catch {
            try? await store.close()
            throw error
        }
        let verifier = identityVerifier ?? AdministeredIdentityVerifier(base: configuration.providers, store: store) { providers in
            ProviderRegistry(
                configuration: providers, httpClient: HTTPClient.shared, clock: clock, logger: logger,
                replayGuard: StoreReplayGuard(store: store))
        }
        do {
            try await verifier.refresh()
            var services = try await open(
                configuration: configuration, store: store, clock: clock, logger: logger, identityVerifier: verifier, sandbox: sandbox)
            services.sandboxProviders = sandboxProviders
            return services
        } catch {
            try? await store.close()
            throw error
        }
    }

    /// The configured store, migrated unless `migrate` is false.
    ///
    /// With `servesRequests`, a SQLite store keeps up to `storage.userCacheSize` users in memory and so
    /// holds the file exclusively (a second server on it fails to start); tools such as
    /// `hearth migrate` open it without either. PostgreSQL stores never keep users: other replicas
    /// write the same rows.
    /// With a `sealer` the store seals secrets at rest (``ServerConfiguration/keyEncryptionKey(logger:createInDevelopment:)``).
    public static func openStore(
        configuration: ServerConfiguration, logger: Logger, migrate: Bool = true, servesRequests: Bool = false,
        sealer: SecretSealer? = nil
    ) async throws -> SQLStore {
        if configuration.usesPostgres, let url = configuration.databaseURL {
            return try await PostgresStorage.open(url: url, logger: logger, migrate: migrate, sealer: sealer)
        }
        return try await SQLiteStorage.open(
            path: configuration.resolvedSQLitePath, logger: logger, migrate: migrate,
            userCacheCapacity: servesRequests ? configuration.userCacheSize : 0, sealer: sealer)
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
        var signers: [CustomTokenVerifier.Signer] = []
        for path in configuration.customTokenKeyFiles {
            let pem = try String(contentsOfFile: path, encoding: .utf8)
            let accounts: [String?] = configuration.customTokenServiceAccounts.isEmpty ? [nil] : configuration.customTokenServiceAccounts
            for account in accounts { signers.append(try CustomTokenVerifier.Signer(publicKeyPEM: pem, serviceAccount: account)) }
        }
        let customTokens = CustomTokenVerifier(signers: signers, acceptsUnsigned: configuration.mode == .development)
        return HearthServices(
            configuration: configuration, store: store, keyRing: keyRing, tokens: tokens, customTokens: customTokens,
            passwords: PasswordHasher(logN: configuration.scryptLogN), identityVerifier: identityVerifier, sandbox: sandbox,
            clock: clock, logger: logger)
    }

    /// Called once the server listens. With port 0 and the sandbox served, the sandbox's URLs become known
    /// only now: they are set, and the providers pointed at them.
    public func serverDidBind(port: Int) async throws {
        guard configuration.port == 0, let sandbox, let sandboxProviders else { return }
        var bound = configuration
        bound.port = port
        sandbox.baseURL = "\(bound.baseURL)/sandbox"
        (identityVerifier as? AdministeredIdentityVerifier)?.rebase(sandboxProviders(sandbox))
    }

    /// Hashes a password on the blocking thread pool, never on an event loop.
    func hashPassword(_ password: String) async throws -> String {
        let hasher = passwords
        return try await NIOThreadPool.singleton.runIfActive { try hasher.hash(password) }
    }

    /// Verifies a password on the blocking thread pool.
    func verifyPassword(_ password: String, against hash: String) async throws -> Bool {
        let hasher = passwords
        passwordChecks.count(decoy: false)
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
