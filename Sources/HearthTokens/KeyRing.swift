import CryptoExtras
import Foundation
import HearthCore
import JWTKit
import Logging
import Synchronization

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
        /// The longest lifetime of the session cookies the keys sign (two weeks, the most Firebase allows).
        public var sessionCookieLifetime: TimeInterval

        public init(
            rotationPeriod: TimeInterval = 7 * 86_400, publishLead: TimeInterval = 3_600, tokenLifetime: TimeInterval = 3_600,
            sessionCookieLifetime: TimeInterval = TokenService.sessionCookieLifetimes.upperBound
        ) {
            self.rotationPeriod = rotationPeriod
            self.publishLead = publishLead
            self.tokenLifetime = tokenLifetime
            self.sessionCookieLifetime = sessionCookieLifetime
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
    /// Where a new key is recorded (`keys.rotated`); `nil`: nowhere.
    private let auditStore: (any AuditStore)?
    private let clock: WallClock
    private let configuration: Configuration
    private let logger: Logger
    private var records: [String: SigningKeyRecord] = [:]

    /// The key records and their parsed private keys, readable without entering the actor: minting an
    /// ID token (``signer(at:)``) needs no actor hop. Written by ``reload()`` only.
    private nonisolated let signingState = Mutex(SigningState())

    struct SigningState: Sendable {
        var records: [SigningKeyRecord] = []
        var keys: [String: RS256SigningKey] = [:]
        /// Each key's public half as published, computed once when the key is loaded.
        var publicKeys: [String: PublicKeySet.JWK] = [:]
    }

    /// The key that signs at `now` (see ``signingKid(at:)``) with its private key, without an actor hop;
    /// `nil` when no key is usable.
    public nonisolated func signer(at now: Date) -> (kid: String, key: RS256SigningKey)? {
        signingState.withLock { state in
            guard let record = Self.signingRecord(in: state.records, at: now), let key = state.keys[record.kid] else { return nil }
            return (record.kid, key)
        }
    }

    /// - Parameter auditStore: where each new key is recorded as a `keys.rotated` event.
    public init(
        store: any SigningKeyStore, clock: WallClock, configuration: Configuration, logger: Logger, auditStore: (any AuditStore)? = nil
    ) {
        self.store = store
        self.auditStore = auditStore
        self.clock = clock
        self.configuration = configuration
        self.logger = logger
    }

    /// Loads the stored keys, makes the first one if there is none (or a successor if one is due).
    public func start() async throws {
        let library = RS256Library.preferred
        logger.info("token signatures by \(library.rawValue)", metadata: ["libcrypto": "\(RS256Library.libcryptoVersion)"])
        try await rotateIfDue()
    }

    /// Reads the key set from storage again (another replica may have rotated).
    public func reload() async throws {
        var newKeys: [String: RS256SigningKey] = [:]
        var newPublicKeys: [String: PublicKeySet.JWK] = [:]
        for record in try await store.signingKeys() {
            if records[record.kid] == nil {
                let key = try Insecure.RSA.PrivateKey(pem: record.privateKeyPEM)
                await collection.add(rsa: key, digestAlgorithm: .sha256, kid: JWKIdentifier(string: record.kid), serializer: Self.serializer)
                newKeys[record.kid] = try? RS256SigningKey(pemRepresentation: record.privateKeyPEM)
                newPublicKeys[record.kid] = try PublicKeySet.JWK(record: record, publicKey: key.publicKey)
            }
            records[record.kid] = record
        }
        let snapshot = Array(records.values)
        signingState.withLock { state in
            state.records = snapshot
            state.keys.merge(newKeys) { _, new in new }
            state.publicKeys.merge(newPublicKeys) { _, new in new }
        }
    }

    /// Makes a successor key when the signing key is older than the rotation period, and deletes keys
    /// nothing can verify against any more. Returns the new key's id, if one was made.
    ///
    /// Safe with several replicas on one database: the decision is taken again inside the store's
    /// exclusive key transaction, so at most one successor is ever made.
    @discardableResult
    public func rotateIfDue() async throws -> String? {
        try await rotate(force: false)
    }

    /// Makes a successor key now, whatever the signing key's age (`hearth keys rotate`, an owner in the console):
    /// published at once, signing after `publishLead`, as a scheduled rotation does. Returns `nil` when a successor is
    /// already waiting for its turn. `actorID` names who asked in the audit event (``AuditEvent/actorID``).
    @discardableResult
    public func rotateNow(actorID: String? = nil) async throws -> String? {
        try await rotate(force: true, actorID: actorID)
    }

    private func rotate(force: Bool, actorID: String? = nil) async throws -> String? {
        let now = clock.now
        _ = try await store.deleteSigningKeys(expiredBefore: now)
        try await reload()
        guard let plan = Self.plan(Array(records.values), now: now, configuration: configuration, force: force) else { return nil }
        // Key generation is slow; do it outside the transaction and drop it if another replica won.
        let material = try SigningKeyMaterial.make(now: now, activatesAt: plan.activatesAt, retiresAt: Self.openEnded, expiresAt: Self.openEnded)
        let configuration = self.configuration
        let clock = self.clock
        let applied = try await store.updateSigningKeys { keys in
            // Decide on the key set as committed now, at the time as it is now: another replica may
            // have made a key since this one looked.
            guard let plan = Self.plan(keys, now: clock.now, configuration: configuration, force: force) else { return nil }
            var record = material
            record.activatesAt = plan.activatesAt
            return SigningKeyChange(insert: record, retire: plan.retire)
        }
        try await reload()
        guard let inserted = applied?.insert else { return nil }
        logger.notice("made a new token-signing key", metadata: ["kid": "\(inserted.kid)", "activatesAt": "\(inserted.activatesAt)"])
        await recordRotation(inserted, first: applied?.retire == nil, manual: force, actorID: actorID)
        return inserted.kid
    }

    /// Records a new key as a `keys.rotated` event (its kid, never the key); a failure is logged, not thrown.
    private func recordRotation(_ key: SigningKeyRecord, first: Bool, manual: Bool, actorID: String?) async {
        guard let auditStore else { return }
        let trigger = first ? "first" : manual ? "manual" : "scheduled"
        let event = AuditEvent(
            time: clock.now, kind: .keysRotated, actor: manual ? .administrator : .system, actorID: manual ? actorID : nil,
            details: ["kid": key.kid, "trigger": trigger, "activatesAt": String(Int64(key.activatesAt.timeIntervalSince1970))])
        do {
            try await auditStore.insertAuditEvent(event)
        } catch {
            logger.error("could not record an audit event", metadata: ["kind": "\(event.kind)", "error": "\(String(describing: type(of: error)))"])
        }
    }

    /// What a rotation at `now` should do with `keys`: nothing (nil), make the first key (active at once),
    /// or make a successor published `publishLead` before it signs and retire the current key then. With
    /// `force` a successor is made whatever the current key's age.
    static func plan(_ keys: [SigningKeyRecord], now: Date, configuration: Configuration, force: Bool = false) -> (
        activatesAt: Date, retire: SigningKeyChange.Retirement?
    )? {
        let live = keys.filter { $0.expiresAt > now }
        // No key at all: the first one signs at once.
        if live.isEmpty { return (now, nil) }
        // A successor is already published and waiting for its turn.
        if live.contains(where: { $0.activatesAt > now }) { return nil }
        guard let current = live.filter({ $0.retiresAt > now }).max(by: { $0.activatesAt < $1.activatesAt }) else { return (now, nil) }
        guard force || current.activatesAt.addingTimeInterval(configuration.rotationPeriod) <= now else { return nil }
        let activatesAt = now.addingTimeInterval(configuration.publishLead)
        // A retired key stays published while anything it signed may still be presented: ID tokens, pending
        // credentials (an hour, whatever the ID-token lifetime) and session cookies, plus five minutes for clocks
        // that differ.
        let lastUse = max(configuration.tokenLifetime, TokenService.pendingCredentialLifetime, configuration.sessionCookieLifetime) + 300
        return (activatesAt, .init(kid: current.kid, retiresAt: activatesAt, expiresAt: activatesAt.addingTimeInterval(lastUse)))
    }

    /// The id of the key that signs at `now`: the newest key already active and not yet retired.
    public func signingKid(at now: Date) -> String? { signingRecord(at: now)?.kid }

    /// When the key that signs at `now` was made (its age is a metric).
    public func signingKeyCreatedAt(at now: Date) -> Date? { signingRecord(at: now)?.createdAt }

    private func signingRecord(at now: Date) -> SigningKeyRecord? {
        Self.signingRecord(in: records.values, at: now)
    }

    private static func signingRecord(in records: some Collection<SigningKeyRecord>, at now: Date) -> SigningKeyRecord? {
        let usable = records.filter { $0.retiresAt > now && $0.expiresAt > now }
        if let active = usable.filter({ $0.activatesAt <= now }).max(by: { $0.activatesAt < $1.activatesAt }) { return active }
        // Only a key another replica made a moment ago, stamped by its clock: use it rather than nothing.
        return usable.min { $0.activatesAt < $1.activatesAt }
    }

    private var lastReloadForUnknownKid = Date.distantPast

    /// Reloads the key set when a token names a key this replica has not loaded yet (another replica may
    /// have just made it), at most once a second. Returns whether the key is known afterwards.
    public func learn(kid: String) async -> Bool {
        if records[kid] != nil { return true }
        let now = clock.now
        guard now.timeIntervalSince(lastReloadForUnknownKid) >= 1 else { return false }
        lastReloadForUnknownKid = now
        try? await reload()
        return records[kid] != nil
    }

    /// Keys a verifier needs at `now`: every key that is active, pending, or retired with tokens still valid.
    public func publishedKeys(at now: Date) -> [SigningKeyRecord] {
        Self.published(records.values, at: now)
    }

    static func published(_ records: some Collection<SigningKeyRecord>, at now: Date) -> [SigningKeyRecord] {
        records.filter { $0.expiresAt > now }.sorted { $0.activatesAt < $1.activatesAt }
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

    /// The published public keys at `now` as of the last ``reload()``, without an actor hop and without reading a
    /// key: each key's public half was computed when it was loaded. What the key-set documents serve.
    public nonisolated func currentPublicKeySet(at now: Date) -> PublicKeySet {
        signingState.withLock { state in
            let records = Self.published(state.records, at: now)
            return PublicKeySet(
                keys: records.compactMap { state.publicKeys[$0.kid] },
                certificates: Dictionary(uniqueKeysWithValues: records.map { ($0.kid, $0.certificatePEM) }))
        }
    }
}
