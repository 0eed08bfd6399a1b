import Foundation
import HearthCore
import JWTKit
import Logging

/// The token-signing keys, one actor, addressed by `kid`.
///
/// Keys live in a ``SigningKeyStore`` so they survive restarts and are shared by replicas. A new key is
/// published `publishLead` before it starts signing, so verifiers that cache the key set learn it first;
/// the key it replaces stops signing then and stays published until the last token it signed has expired.
public actor KeyRing {
    public struct Configuration: Sendable, Equatable {
        /// How long a key signs before a successor is made.
        public var rotationPeriod: TimeInterval
        /// How long a new key is published before it signs; at least the key set's cache max-age.
        public var publishLead: TimeInterval
        /// Lifetime of the tokens the keys sign.
        public var tokenLifetime: TimeInterval

        public init(rotationPeriod: TimeInterval = 7 * 86_400, publishLead: TimeInterval = 3_600, tokenLifetime: TimeInterval = 3_600) {
            self.rotationPeriod = rotationPeriod
            self.publishLead = publishLead
            self.tokenLifetime = tokenLifetime
        }
    }

    /// A far-future instant for keys that have no successor yet.
    static let openEnded = Date(timeIntervalSince1970: 32_503_680_000)  // year 3000

    public nonisolated let collection = JWTKeyCollection()
    /// Compact JSON with unescaped slashes, as Google's tokens are written.
    static let serializer: DefaultJWTSerializer = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return DefaultJWTSerializer(jsonEncoder: encoder)
    }()
    private let store: any SigningKeyStore
    private let clock: WallClock
    private let configuration: Configuration
    private let logger: Logger
    private var records: [String: SigningKeyRecord] = [:]

    public init(store: any SigningKeyStore, clock: WallClock, configuration: Configuration, logger: Logger) {
        self.store = store
        self.clock = clock
        self.configuration = configuration
        self.logger = logger
    }

    /// Loads the stored keys and makes the first one if there is none.
    public func start() async throws {
        try await reload()
        if records.isEmpty {
            let now = clock.now
            let record = try SigningKeyMaterial.make(now: now, activatesAt: now, retiresAt: Self.openEnded, expiresAt: Self.openEnded)
            try await store.insertSigningKey(record)
            logger.notice("created the first token-signing key", metadata: ["kid": "\(record.kid)"])
            try await reload()
        }
    }

    /// Reads the key set from storage again (another replica may have rotated).
    public func reload() async throws {
        for record in try await store.signingKeys() {
            if records[record.kid] == nil {
                let key = try Insecure.RSA.PrivateKey(pem: record.privateKeyPEM)
                await collection.add(rsa: key, digestAlgorithm: .sha256, kid: JWKIdentifier(string: record.kid), serializer: Self.serializer)
            }
            records[record.kid] = record
        }
    }

    /// Makes a successor key when the signing key is older than the rotation period, and deletes keys
    /// nothing can verify against any more. Returns the new key's id, if one was made.
    @discardableResult
    public func rotateIfDue() async throws -> String? {
        let now = clock.now
        _ = try await store.deleteSigningKeys(expiredBefore: now)
        try await reload()
        guard let current = signingRecord(at: now) else { return try await makeSuccessor(now: now, replacing: nil) }
        let pending = records.values.contains { $0.activatesAt > now }
        guard !pending, current.activatesAt.addingTimeInterval(configuration.rotationPeriod) <= now else { return nil }
        return try await makeSuccessor(now: now, replacing: current)
    }

    private func makeSuccessor(now: Date, replacing current: SigningKeyRecord?) async throws -> String {
        let activatesAt = current == nil ? now : now.addingTimeInterval(configuration.publishLead)
        let record = try SigningKeyMaterial.make(now: now, activatesAt: activatesAt, retiresAt: Self.openEnded, expiresAt: Self.openEnded)
        try await store.insertSigningKey(record)
        if let current {
            try await store.retireSigningKey(
                kid: current.kid, retiresAt: activatesAt,
                expiresAt: activatesAt.addingTimeInterval(configuration.tokenLifetime + 300))
        }
        logger.notice("rotated the token-signing key", metadata: ["kid": "\(record.kid)", "activatesAt": "\(activatesAt)"])
        try await reload()
        return record.kid
    }

    /// The id of the key that signs at `now`: the newest key already active and not yet retired.
    public func signingKid(at now: Date) -> String? { signingRecord(at: now)?.kid }

    private func signingRecord(at now: Date) -> SigningKeyRecord? {
        records.values
            .filter { $0.activatesAt <= now && $0.retiresAt > now }
            .max { $0.activatesAt < $1.activatesAt }
    }

    /// Keys a verifier needs at `now`: every key that is active, pending, or retired with tokens still valid.
    public func publishedKeys(at now: Date) -> [SigningKeyRecord] {
        records.values.filter { $0.expiresAt > now }.sorted { $0.activatesAt < $1.activatesAt }
    }

    public func isPublished(kid: String, at now: Date) -> Bool {
        guard let record = records[kid] else { return false }
        return record.expiresAt > now
    }
}

extension KeyRing {
    /// The published public keys at `now`, in JWKS and X.509 form.
    public func publicKeySet(at now: Date) throws -> PublicKeySet {
        try PublicKeySet(records: publishedKeys(at: now))
    }
}
