import Foundation
import HearthCore
import HearthStorage
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
    public let passwords: PasswordHasher
    public let clock: WallClock
    public let logger: Logger

    /// Opens the embedded SQLite database (creating it and applying migrations on first run) and loads
    /// or creates the signing keys.
    public static func open(configuration: ServerConfiguration, clock: WallClock = .system, logger: Logger) async throws -> HearthServices {
        let store = try await SQLiteStorage.open(path: configuration.resolvedSQLitePath, logger: logger)
        return try await open(configuration: configuration, store: store, clock: clock, logger: logger)
    }

    /// Builds the services on a store that is already open and migrated.
    public static func open(configuration: ServerConfiguration, store: any HearthStore, clock: WallClock, logger: Logger) async throws -> HearthServices {
        let keyRing = KeyRing(
            store: store, clock: clock,
            configuration: .init(
                rotationPeriod: configuration.keyRotationPeriod, publishLead: configuration.keyPublishLead,
                tokenLifetime: configuration.idTokenLifetime),
            logger: logger)
        try await keyRing.start()
        try await keyRing.rotateIfDue()
        let tokens = TokenService(
            keyRing: keyRing,
            configuration: .init(projectID: configuration.projectID, issuer: configuration.resolvedIssuer, idTokenLifetime: configuration.idTokenLifetime),
            clock: clock)
        return HearthServices(
            configuration: configuration, store: store, keyRing: keyRing, tokens: tokens,
            passwords: PasswordHasher(logN: configuration.scryptLogN), clock: clock, logger: logger)
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
