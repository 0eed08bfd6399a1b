import Foundation
import HearthCore
@testable import HearthStorage
import HearthStoragePostgres
@testable import HearthStorageSQLite
import HearthTesting
import Logging
import SQLKit
import Testing

/// A storage backend the conformance suite runs against. Add a case to run the whole suite on
/// another database.
enum StoreBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    /// A fresh database on the shared throwaway cluster (``PostgresTestCluster``); fails loudly
    /// when PostgreSQL is not installed.
    case postgres

    static let all = allCases

    var testDescription: String { rawValue }
}

/// A fresh, private database of one backend. Every ``open(migrate:)`` reaches the same data.
final class StoreFixture: Sendable {
    let backend: StoreBackend
    let directory: URL
    /// The database of a `.postgres` fixture.
    let postgresURL: String?

    init(_ backend: StoreBackend) async throws {
        self.backend = backend
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("hearth-store-tests-\(UUID().uuidString)", isDirectory: true)
        switch backend {
        case .sqlite: postgresURL = nil
        case .postgres: postgresURL = try await PostgresTestCluster.shared().createDatabase()
        }
    }

    /// A file in a directory that does not exist yet: opening must create it.
    var sqlitePath: String { directory.appendingPathComponent("nested/hearth.sqlite").path }

    func open(migrate: Bool = true) async throws -> SQLStore {
        switch backend {
        case .sqlite:
            try await SQLiteStorage.open(path: sqlitePath, logger: Logger(label: "hearth.tests.store"), migrate: migrate)
        case .postgres:
            try await PostgresStorage.open(url: try #require(postgresURL), logger: Logger(label: "hearth.tests.store"), migrate: migrate)
        }
    }

    func removeFiles() {
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Runs `body` with a migrated store on a fresh database, closing it and deleting files afterwards.
func withStore(
    _ backend: StoreBackend, _ body: (SQLStore, StoreFixture) async throws -> Void
) async throws {
    let fixture = try await StoreFixture(backend)
    defer { fixture.removeFiles() }
    let store = try await fixture.open()
    do {
        try await body(store, fixture)
    } catch {
        try? await store.close()
        throw error
    }
    try await store.close()
}

/// A recognisable error for `mutate` to throw.
private struct MutationRefused: Error, Equatable {
    let marker: String
}

private let t0 = Date(timeIntervalSince1970: 1_800_000_000)
private let day: TimeInterval = 86_400

private func makeUser(
    _ uid: String, email: String? = nil, createdAt: Date = t0, passwordHash: String? = nil,
    phoneNumber: String? = nil, customAuth: Bool = false, scheduledDeletionAt: Date? = nil,
    providers: [ProviderLink] = []
) -> UserRecord {
    UserRecord(
        uid: uid, email: email, phoneNumber: phoneNumber, passwordHash: passwordHash, customAuth: customAuth,
        createdAt: createdAt, validSince: createdAt, scheduledDeletionAt: scheduledDeletionAt, providers: providers)
}

private func makeKey(_ kid: String, activates: Date) -> SigningKeyRecord {
    SigningKeyRecord(
        kid: kid, algorithm: "RS256", privateKeyPEM: "-----BEGIN PRIVATE KEY-----\n\(kid)\n",
        certificatePEM: "-----BEGIN CERTIFICATE-----\n\(kid)\n", createdAt: activates.addingTimeInterval(-60),
        activatesAt: activates, retiresAt: activates.addingTimeInterval(30 * day),
        expiresAt: activates.addingTimeInterval(31 * day))
}

private func makeSession(_ tokenHash: String, uid: String, extraClaims: String? = nil) -> RefreshSessionRecord {
    RefreshSessionRecord(
        tokenHash: tokenHash, uid: uid, signInProvider: "password", authTime: t0.addingTimeInterval(1.5),
        createdAt: t0.addingTimeInterval(2.25), extraClaims: extraClaims)
}

private func count(_ table: String, in store: SQLStore) async throws -> Int {
    try await store.transactor.read { database in
        let row = try await database.raw("SELECT COUNT(*) AS n FROM \(ident: table)").first()
        return Int(try row?.decode(column: "n", as: Int64.self) ?? -1)
    }
}

@Suite("Store conformance")
struct StoreConformanceTests {
    @Test("creates a user and reads it back by uid, e-mail and provider identity", arguments: StoreBackend.all)
    func createAndRead(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            let google = ProviderLink(
                providerID: "google.com", rawID: "g-1", email: "Ada@Example.COM", displayName: "Ada L",
                photoURL: "https://photos/ada", phoneNumber: "+15550002", screenName: "ada")
            let apple = ProviderLink(providerID: "apple.com", rawID: "a-1")
            let user = UserRecord(
                uid: "u1", email: "ada@example.com", emailVerified: true, displayName: "Ada",
                photoURL: "https://p/ada", phoneNumber: "+15550001", passwordHash: "scrypt$abc",
                passwordUpdatedAt: Date(timeIntervalSince1970: 1_800_000_000.123), disabled: true,
                customAttributes: #"{"admin":true}"#, customAuth: true, createdAt: t0,
                lastLoginAt: t0.addingTimeInterval(60.5), validSince: t0.addingTimeInterval(1),
                scheduledDeletionAt: t0.addingTimeInterval(day), providers: [google, apple])
            let session = makeSession("hash-1", uid: "u1", extraClaims: #"{"tier":"gold"}"#)
            try await store.createUser(user, session: session)

            var expected = user
            expected.providers = [apple, google]  // stable order: by provider id
            #expect(try await store.user(uid: "u1") == expected)
            #expect(try await store.user(email: "ada@example.com") == expected)
            #expect(try await store.user(providerID: "google.com", rawID: "g-1") == expected)
            #expect(try await store.user(providerID: "apple.com", rawID: "a-1") == expected)
            #expect(try await store.session(tokenHash: "hash-1") == session)
            // The refresh endpoint's single read: the session with its user and links.
            let both = try await store.sessionWithUser(tokenHash: "hash-1")
            #expect(both?.session == session)
            #expect(both?.user == expected)

            #expect(try await store.user(uid: "nobody") == nil)
            #expect(try await store.user(email: "nobody@example.com") == nil)
            #expect(try await store.user(providerID: "google.com", rawID: "a-1") == nil)
            #expect(try await store.session(tokenHash: "unknown") == nil)
            #expect(try await store.sessionWithUser(tokenHash: "unknown") == nil)

            // Instants are kept to the millisecond.
            try await store.updateUser(uid: "u1", session: nil) { $0.lastLoginAt = t0.addingTimeInterval(0.1234567) }
            let stored = try #require(try await store.user(uid: "u1")?.lastLoginAt)
            #expect(abs(stored.timeIntervalSince1970 - (t0.timeIntervalSince1970 + 0.123)) < 0.000_001)

            let minimal = makeUser("u0", createdAt: t0.addingTimeInterval(-10))
            try await store.createUser(minimal, session: nil)
            #expect(try await store.user(uid: "u0") == minimal)
            #expect(try await store.countUsers() == 2)
        }
    }

    @Test("finds users by top-level or provider e-mail", arguments: StoreBackend.all)
    func anyEmail(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            let first = makeUser("u1", email: "ada@example.com", createdAt: t0)
            let second = makeUser(
                "u2", createdAt: t0.addingTimeInterval(1),
                providers: [ProviderLink(providerID: "github.com", rawID: "gh-2", email: "ADA@example.com")])
            let other = makeUser("u3", email: "bob@example.com", createdAt: t0.addingTimeInterval(2))
            for user in [other, second, first] { try await store.createUser(user, session: nil) }

            #expect(try await store.users(anyEmail: "ada@example.com") == [first, second])
            #expect(try await store.users(anyEmail: "bob@example.com") == [other])
            #expect(try await store.users(anyEmail: "carol@example.com") == [])
        }
    }

    @Test("refuses a second user with the same e-mail or uid", arguments: StoreBackend.all)
    func emailAndUIDConflicts(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            try await store.createUser(makeUser("u1", email: "ada@example.com"), session: nil)
            await #expect(throws: StoreConflict.email) {
                try await store.createUser(makeUser("u2", email: "ada@example.com"), session: makeSession("s2", uid: "u2"))
            }
            await #expect(throws: StoreConflict.uid) {
                try await store.createUser(makeUser("u1", email: "other@example.com"), session: nil)
            }
            #expect(try await store.countUsers() == 1)
            #expect(try await store.session(tokenHash: "s2") == nil)

            let bob = makeUser("u3", email: "bob@example.com")
            try await store.createUser(bob, session: nil)
            await #expect(throws: StoreConflict.email) {
                try await store.updateUser(uid: "u3", session: makeSession("s3", uid: "u3")) { $0.email = "ada@example.com" }
            }
            #expect(try await store.user(uid: "u3") == bob)
            #expect(try await store.session(tokenHash: "s3") == nil)

            // Keeping one's own e-mail is not a conflict; freeing it lets another user take it.
            try await store.updateUser(uid: "u1", session: nil) { $0.displayName = "Ada" }
            try await store.updateUser(uid: "u1", session: nil) { $0.email = nil }
            try await store.updateUser(uid: "u3", session: nil) { $0.email = "ada@example.com" }
            #expect(try await store.user(email: "ada@example.com")?.uid == "u3")

            // Phone numbers are unique too.
            try await store.updateUser(uid: "u1", session: nil) { $0.phoneNumber = "+15550001" }
            await #expect(throws: SQLStoreError.phoneNumberExists) {
                try await store.updateUser(uid: "u3", session: nil) { $0.phoneNumber = "+15550001" }
            }
        }
    }

    @Test("refuses a provider identity that belongs to another user", arguments: StoreBackend.all)
    func providerIdentityConflict(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            let link = ProviderLink(providerID: "google.com", rawID: "g-1")
            try await store.createUser(makeUser("u1", providers: [link]), session: nil)
            await #expect(throws: StoreConflict.providerIdentity) {
                try await store.createUser(makeUser("u2", providers: [link]), session: nil)
            }
            #expect(try await store.user(uid: "u2") == nil)

            try await store.createUser(makeUser("u2"), session: nil)
            await #expect(throws: StoreConflict.providerIdentity) {
                try await store.updateUser(uid: "u2", session: nil) { $0.providers.append(link) }
            }
            #expect(try await store.user(uid: "u2")?.providers == [])

            // One link per provider and user.
            await #expect(throws: StoreConflict.providerIdentity) {
                try await store.updateUser(uid: "u1", session: nil) {
                    $0.providers.append(ProviderLink(providerID: "google.com", rawID: "g-other"))
                }
            }

            // Once unlinked, the identity may move to another user.
            try await store.updateUser(uid: "u1", session: nil) { $0.providers = [] }
            try await store.updateUser(uid: "u2", session: nil) { $0.providers = [link] }
            #expect(try await store.user(providerID: "google.com", rawID: "g-1")?.uid == "u2")
        }
    }

    @Test("maps the database's own unique-constraint errors when the pre-checks are bypassed", arguments: StoreBackend.all)
    func driverConstraintErrorsAreMapped(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            try await store.createUser(
                makeUser("u1", email: "ada@example.com", phoneNumber: "+1555",
                         providers: [ProviderLink(providerID: "google.com", rawID: "g-1")]),
                session: nil)
            let ms = StoredTime.milliseconds(t0)
            await #expect(throws: StoreConflict.uid) {
                try await store.transactor.write { database in
                    try await SQLStore.exec(
                        database,
                        "INSERT INTO users (uid, created_at, valid_since) VALUES (\(bind: "u1"), \(bind: ms), \(bind: ms))")
                }
            }
            await #expect(throws: StoreConflict.email) {
                try await store.transactor.write { database in
                    try await SQLStore.exec(
                        database,
                        """
                        INSERT INTO users (uid, email, created_at, valid_since)
                        VALUES (\(bind: "u2"), \(bind: "ada@example.com"), \(bind: ms), \(bind: ms))
                        """)
                }
            }
            await #expect(throws: SQLStoreError.phoneNumberExists) {
                try await store.transactor.write { database in
                    try await SQLStore.exec(
                        database,
                        """
                        INSERT INTO users (uid, phone_number, created_at, valid_since)
                        VALUES (\(bind: "u2"), \(bind: "+1555"), \(bind: ms), \(bind: ms))
                        """)
                }
            }
            await #expect(throws: StoreConflict.providerIdentity) {
                try await store.transactor.write { database in
                    try await SQLStore.exec(
                        database,
                        "INSERT INTO users (uid, created_at, valid_since) VALUES (\(bind: "u2"), \(bind: ms), \(bind: ms))")
                    try await SQLStore.exec(
                        database,
                        "INSERT INTO provider_links (uid, provider_id, raw_id) VALUES (\(bind: "u2"), \(bind: "google.com"), \(bind: "g-1"))")
                }
            }
            // The failed transaction left nothing behind.
            #expect(try await store.user(uid: "u2") == nil)
            #expect(try await store.countUsers() == 1)
        }
    }

    @Test("updateUser writes user, links and session together, or nothing", arguments: StoreBackend.all)
    func updateUserAtomicity(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            let link = ProviderLink(providerID: "google.com", rawID: "g-1")
            let original = makeUser("u1", email: "ada@example.com", providers: [link])
            try await store.createUser(original, session: nil)

            let thrown = await #expect(throws: MutationRefused.self) {
                try await store.updateUser(uid: "u1", session: makeSession("s-fail", uid: "u1")) { user in
                    user.displayName = "changed"
                    user.email = "changed@example.com"
                    user.providers = []
                    throw MutationRefused(marker: "exactly this error")
                }
            }
            #expect(thrown == MutationRefused(marker: "exactly this error"))
            #expect(try await store.user(uid: "u1") == original)
            #expect(try await store.session(tokenHash: "s-fail") == nil)

            let session = makeSession("s-ok", uid: "u1")
            let apple = ProviderLink(providerID: "apple.com", rawID: "a-1", email: "ada@icloud.com")
            let written = try await store.updateUser(uid: "u1", session: session) { user in
                user.displayName = "Ada"
                user.passwordHash = "hash"
                user.lastLoginAt = t0.addingTimeInterval(5)
                user.providers.append(apple)
            }
            #expect(written.displayName == "Ada")
            #expect(written.providers == [apple, link])
            #expect(try await store.user(uid: "u1") == written)
            #expect(try await store.session(tokenHash: "s-ok") == session)

            await #expect(throws: HearthError(.userNotFound)) {
                try await store.updateUser(uid: "nobody", session: nil) { $0.displayName = "x" }
            }
        }
    }

    @Test("a write transaction that throws leaves nothing behind", arguments: StoreBackend.all)
    func transactionRollsBack(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            await #expect(throws: MutationRefused.self) {
                try await store.transactor.write { database in
                    let ms = StoredTime.milliseconds(t0)
                    try await SQLStore.exec(
                        database,
                        "INSERT INTO users (uid, created_at, valid_since) VALUES (\(bind: "u1"), \(bind: ms), \(bind: ms))")
                    throw MutationRefused(marker: "rollback")
                }
            }
            #expect(try await store.user(uid: "u1") == nil)
            // The writer is usable again afterwards.
            try await store.createUser(makeUser("u1"), session: nil)
            #expect(try await store.countUsers() == 1)
        }
    }

    @Test("deleteUser removes the user with its links and sessions", arguments: StoreBackend.all)
    func deleteUserCascades(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            let link = ProviderLink(providerID: "google.com", rawID: "g-1")
            try await store.createUser(makeUser("u1", providers: [link]), session: makeSession("s1", uid: "u1"))
            try await store.insertSession(makeSession("s2", uid: "u1"))
            try await store.createUser(makeUser("u2"), session: makeSession("s3", uid: "u2"))

            #expect(try await store.deleteUser(uid: "u1"))
            #expect(try await store.user(uid: "u1") == nil)
            #expect(try await store.user(providerID: "google.com", rawID: "g-1") == nil)
            #expect(try await store.session(tokenHash: "s1") == nil)
            #expect(try await store.session(tokenHash: "s2") == nil)
            #expect(try await count("provider_links", in: store) == 0)
            #expect(try await count("refresh_sessions", in: store) == 1)
            #expect(try await store.session(tokenHash: "s3") != nil)
            #expect(try await !store.deleteUser(uid: "u1"))

            // The identity is free again.
            try await store.createUser(makeUser("u3", providers: [link]), session: nil)
            #expect(try await store.user(providerID: "google.com", rawID: "g-1")?.uid == "u3")
        }
    }

    @Test("stores sessions by token hash, only for existing users", arguments: StoreBackend.all)
    func sessions(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            try await store.createUser(makeUser("u1"), session: nil)
            let plain = makeSession("h-plain", uid: "u1")
            let custom = makeSession("h-custom", uid: "u1", extraClaims: #"{"role":"admin"}"#)
            try await store.insertSession(plain)
            try await store.insertSession(custom)
            #expect(try await store.session(tokenHash: "h-plain") == plain)
            #expect(try await store.session(tokenHash: "h-custom") == custom)
            #expect(try await store.session(tokenHash: "h-none") == nil)
            await #expect(throws: HearthError(.userNotFound)) {
                try await store.insertSession(makeSession("h-orphan", uid: "nobody"))
            }
            #expect(try await store.session(tokenHash: "h-orphan") == nil)
        }
    }

    @Test("signing keys: insert, list, retire, delete expired", arguments: StoreBackend.all)
    func signingKeys(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            func key(_ kid: String, activates: Date) -> SigningKeyRecord {
                SigningKeyRecord(
                    kid: kid, algorithm: "RS256", privateKeyPEM: "-----BEGIN PRIVATE KEY-----\n\(kid)\n",
                    certificatePEM: "-----BEGIN CERTIFICATE-----\n\(kid)\n", createdAt: activates.addingTimeInterval(-60),
                    activatesAt: activates, retiresAt: activates.addingTimeInterval(30 * day),
                    expiresAt: activates.addingTimeInterval(31 * day))
            }
            let newer = key("bbbb", activates: t0.addingTimeInterval(day))
            var older = key("aaaa", activates: t0)
            try await store.insertSigningKey(newer)
            try await store.insertSigningKey(older)
            #expect(try await store.signingKeys() == [older, newer])
            await #expect(throws: (any Error).self) { try await store.insertSigningKey(older) }

            try await store.retireSigningKey(
                kid: "aaaa", retiresAt: t0.addingTimeInterval(2 * day), expiresAt: t0.addingTimeInterval(3 * day))
            older.retiresAt = t0.addingTimeInterval(2 * day)
            older.expiresAt = t0.addingTimeInterval(3 * day)
            #expect(try await store.signingKeys() == [older, newer])
            try await store.retireSigningKey(kid: "missing", retiresAt: t0, expiresAt: t0)

            #expect(try await store.deleteSigningKeys(expiredBefore: t0.addingTimeInterval(3 * day)) == 0)
            #expect(try await store.deleteSigningKeys(expiredBefore: t0.addingTimeInterval(4 * day)) == 1)
            #expect(try await store.signingKeys() == [newer])
        }
    }

    @Test("settings: get, set, overwrite, clear", arguments: StoreBackend.all)
    func settings(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            #expect(try await store.setting("cleanup.enabledAt") == nil)
            try await store.setSetting("cleanup.enabledAt", to: "1800000000")
            try await store.setSetting("other", to: "x")
            #expect(try await store.setting("cleanup.enabledAt") == "1800000000")
            try await store.setSetting("cleanup.enabledAt", to: "")
            #expect(try await store.setting("cleanup.enabledAt") == "")
            try await store.setSetting("cleanup.enabledAt", to: nil)
            #expect(try await store.setting("cleanup.enabledAt") == nil)
            try await store.setSetting("cleanup.enabledAt", to: nil)
            #expect(try await store.setting("other") == "x")
        }
    }

    @Test("auth sessions: consumed once, by key and kind, atomically; expired ones pruned", arguments: StoreBackend.all)
    func authSessions(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            let pending = AuthSessionRecord(
                id: "state-1", kind: .pending, sessionID: "session-1", providerID: "google.com",
                continueURI: "com.example.app:/oauth", createdAt: t0, expiresAt: t0.addingTimeInterval(600),
                values: ["code_verifier": "v", "nonce": "n é \"quoted\""])
            try await store.insertAuthSession(pending)
            #expect(try await store.consumeAuthSession(id: "state-1", kind: .completed) == nil)
            let consumed = try await store.consumeAuthSession(id: "state-1", kind: .pending)
            #expect(consumed == pending)
            #expect(try await store.consumeAuthSession(id: "state-1", kind: .pending) == nil)
            #expect(try await count("auth_sessions", in: store) == 0)

            // Of many concurrent consumers of one row, exactly one gets it.
            let contested = AuthSessionRecord(
                id: "result-1", kind: .completed, sessionID: "session-1", providerID: "twitter.com",
                continueURI: "http://127.0.0.1:9000/", createdAt: t0, expiresAt: t0.addingTimeInterval(600),
                values: ["access_token": "t", "oauth_token_secret": "s"])
            try await store.insertAuthSession(contested)
            let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<20 { group.addTask { try await store.consumeAuthSession(id: "result-1", kind: .completed) != nil } }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(winners == 1)

            // Expired rows go when a new one is written, or when asked.
            var old = pending
            old.id = "state-old"
            old.expiresAt = t0.addingTimeInterval(60)
            try await store.insertAuthSession(old)
            var fresh = pending
            fresh.id = "state-2"
            fresh.createdAt = t0.addingTimeInterval(120)
            fresh.expiresAt = t0.addingTimeInterval(720)
            try await store.insertAuthSession(fresh)
            #expect(try await store.consumeAuthSession(id: "state-old", kind: .pending) == nil)
            #expect(try await store.deleteAuthSessions(expiredBefore: t0.addingTimeInterval(721)) == 1)
            #expect(try await count("auth_sessions", in: store) == 0)
        }
    }

    @Test("anonymous clean-up schedules and deletes only users that are still anonymous", arguments: StoreBackend.all)
    func anonymousCleanup(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            let age = 30 * day
            let notBefore = t0.addingTimeInterval(7 * day)
            let users = [
                makeUser("anon-old", createdAt: t0.addingTimeInterval(-40 * day)),
                makeUser("anon-new", createdAt: t0.addingTimeInterval(-1 * day)),
                makeUser("anon-to-password", createdAt: t0.addingTimeInterval(-40 * day)),
                makeUser("anon-to-link", createdAt: t0.addingTimeInterval(-40 * day)),
                makeUser("anon-scheduled", createdAt: t0, scheduledDeletionAt: t0.addingTimeInterval(100 * day)),
                makeUser("password", email: "p@example.com", createdAt: t0.addingTimeInterval(-90 * day), passwordHash: "h"),
                makeUser("hash-without-email", createdAt: t0.addingTimeInterval(-90 * day), passwordHash: "h"),
                makeUser("linked", createdAt: t0.addingTimeInterval(-90 * day),
                         providers: [ProviderLink(providerID: "google.com", rawID: "g-linked")]),
                makeUser("phone", createdAt: t0.addingTimeInterval(-90 * day), phoneNumber: "+15550001"),
                makeUser("custom", createdAt: t0.addingTimeInterval(-90 * day), customAuth: true),
            ]
            for user in users { try await store.createUser(user, session: nil) }

            #expect(try await store.scheduleAnonymousDeletion(olderThan: age, notBefore: notBefore) == 4)
            #expect(try await store.scheduleAnonymousDeletion(olderThan: age, notBefore: notBefore) == 0)
            // max(createdAt + age, notBefore)
            #expect(try await store.user(uid: "anon-old")?.scheduledDeletionAt == notBefore)
            #expect(try await store.user(uid: "anon-new")?.scheduledDeletionAt == t0.addingTimeInterval(29 * day))
            #expect(try await store.user(uid: "anon-scheduled")?.scheduledDeletionAt == t0.addingTimeInterval(100 * day))
            for uid in ["password", "hash-without-email", "linked", "phone", "custom"] {
                #expect(try await store.user(uid: uid)?.scheduledDeletionAt == nil, "\(uid)")
            }

            // Upgraded after scheduling (the deletion date stays set): never deleted.
            try await store.updateUser(uid: "anon-to-password", session: nil) {
                $0.email = "up@example.com"
                $0.passwordHash = "h"
            }
            try await store.updateUser(uid: "anon-to-link", session: nil) {
                $0.providers = [ProviderLink(providerID: "apple.com", rawID: "a-up")]
            }

            // notBefore respected.
            #expect(try await store.deleteScheduledAnonymousUsers(now: t0.addingTimeInterval(6 * day), limit: 100) == [])
            #expect(try await store.deleteScheduledAnonymousUsers(now: notBefore, limit: 100) == ["anon-old"])
            #expect(try await store.deleteScheduledAnonymousUsers(now: t0.addingTimeInterval(30 * day), limit: 100) == ["anon-new"])

            // limit respected.
            try await store.createUser(makeUser("anon-late-1", createdAt: t0), session: nil)
            try await store.createUser(makeUser("anon-late-2", createdAt: t0), session: nil)
            #expect(try await store.scheduleAnonymousDeletion(olderThan: age, notBefore: notBefore) == 2)
            let later = t0.addingTimeInterval(200 * day)
            let firstBatch = try await store.deleteScheduledAnonymousUsers(now: later, limit: 2)
            #expect(firstBatch == ["anon-late-1", "anon-late-2"])
            #expect(try await store.deleteScheduledAnonymousUsers(now: later, limit: 2) == ["anon-scheduled"])
            #expect(try await store.deleteScheduledAnonymousUsers(now: later, limit: 2) == [])
            #expect(try await store.deleteScheduledAnonymousUsers(now: later, limit: 0) == [])

            let remaining = Set(try await store.transactor.read { database in
                try await database.raw("SELECT uid FROM users").all().map { try $0.decode(column: "uid", as: String.self) }
            })
            #expect(remaining == ["anon-to-password", "anon-to-link", "password", "hash-without-email", "linked", "phone", "custom"])
        }
    }

    @Test("migrations are idempotent and data survives reopening", arguments: StoreBackend.all)
    func migrationsAndReopen(backend: StoreBackend) async throws {
        let fixture = try await StoreFixture(backend)
        defer { fixture.removeFiles() }

        let fresh = try await fixture.open(migrate: false)
        #expect(try await fresh.pendingMigrations() == SQLStore.knownMigrations)
        let bookkeeping = try await fresh.transactor.read { try await SQLDialectQuirks.tableExists("schema_migrations", on: $0) }
        #expect(!bookkeeping, "pendingMigrations() only reads: it made schema_migrations")
        try await fresh.migrate()
        #expect(try await fresh.pendingMigrations() == [])
        try await fresh.migrate()
        #expect(try await count("schema_migrations", in: fresh) == SQLStore.knownMigrations.count)
        let user = makeUser("u1", email: "ada@example.com", providers: [ProviderLink(providerID: "google.com", rawID: "g-1")])
        try await fresh.createUser(user, session: makeSession("s1", uid: "u1"))
        try await fresh.setSetting("k", to: "v")
        try await fresh.close()

        let reopened = try await fixture.open()
        do {
            #expect(try await reopened.pendingMigrations() == [])
            #expect(try await count("schema_migrations", in: reopened) == SQLStore.knownMigrations.count)
            #expect(try await reopened.user(uid: "u1") == user)
            #expect(try await reopened.session(tokenHash: "s1") != nil)
            #expect(try await reopened.setting("k") == "v")
        } catch {
            try? await reopened.close()
            throw error
        }
        try await reopened.close()
    }

    @Test("a database with a migration this binary does not know is refused", arguments: StoreBackend.all)
    func unknownMigrationIsRefused(backend: StoreBackend) async throws {
        let fixture = try await StoreFixture(backend)
        defer { fixture.removeFiles() }
        let store = try await fixture.open()
        try await store.transactor.write { database in
            try await database.raw(
                "INSERT INTO schema_migrations (name, applied_at) VALUES (\(bind: "2099-01-01-from-the-future"), \(bind: Int64(0)))"
            ).run()
        }
        await #expect(throws: SQLStoreError.unknownMigration("2099-01-01-from-the-future")) {
            try await store.pendingMigrations()
        }
        try await store.close()

        let error = await #expect(throws: SQLStoreError.self) { _ = try await fixture.open() }
        #expect(error == .unknownMigration("2099-01-01-from-the-future"))
        #expect(
            error?.description
                == "database schema is newer than this binary: unknown migration 2099-01-01-from-the-future")
    }

    @Test("concurrent writes from 50 tasks all land", arguments: StoreBackend.all)
    func concurrentWrites(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<50 {
                    group.addTask {
                        let uid = "user-\(index)"
                        try await store.createUser(
                            makeUser(uid, email: "\(uid)@example.com"), session: makeSession("s-\(index)", uid: uid))
                        try await store.updateUser(uid: uid, session: makeSession("s-\(index)-b", uid: uid)) {
                            $0.displayName = "User \(index)"
                        }
                        _ = try await store.user(uid: uid)
                        _ = try await store.countUsers()
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await store.countUsers() == 50)
            #expect(try await count("refresh_sessions", in: store) == 100)
            for index in [0, 17, 49] {
                #expect(try await store.user(uid: "user-\(index)")?.displayName == "User \(index)")
            }
        }
    }

    // MARK: - Signing-key updates, counters, leader locks, transfer

    @Test("updateSigningKeys applies an insert and a retirement together, or nothing", arguments: StoreBackend.all)
    func updateSigningKeys(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            let first = makeKey("k1", activates: t0)
            let seen = LockedBox<[SigningKeyRecord]?>(nil)
            let nothing = try await store.updateSigningKeys { keys in
                seen.withLock { $0 = keys }
                return nil
            }
            #expect(nothing == nil)
            #expect(seen.withLock { $0 } == [])
            #expect(try await store.updateSigningKeys { _ in SigningKeyChange() } == nil)
            #expect(try await store.updateSigningKeys { _ in SigningKeyChange(insert: first) } == SigningKeyChange(insert: first))
            #expect(try await store.signingKeys() == [first])

            // Rotation: the next key and the retirement of the current one in one transaction.
            let second = makeKey("k2", activates: t0.addingTimeInterval(day))
            let retirement = SigningKeyChange.Retirement(
                kid: "k1", retiresAt: t0.addingTimeInterval(day), expiresAt: t0.addingTimeInterval(2 * day))
            let applied = try await store.updateSigningKeys { keys in
                #expect(keys == [first])
                return SigningKeyChange(insert: second, retire: retirement)
            }
            #expect(applied == SigningKeyChange(insert: second, retire: retirement))
            var retired = first
            retired.retiresAt = retirement.retiresAt
            retired.expiresAt = retirement.expiresAt
            #expect(try await store.signingKeys() == [retired, second])

            // A failing insert (duplicate kid) undoes the retirement of the same change.
            await #expect(throws: (any Error).self) {
                try await store.updateSigningKeys { _ in
                    SigningKeyChange(
                        insert: first,
                        retire: .init(kid: "k2", retiresAt: t0, expiresAt: t0))
                }
            }
            // An error thrown by the closure is rethrown unchanged and nothing is written.
            let thrown = await #expect(throws: MutationRefused.self) {
                try await store.updateSigningKeys { _ in throw MutationRefused(marker: "keys") }
            }
            #expect(thrown == MutationRefused(marker: "keys"))
            #expect(try await store.signingKeys() == [retired, second])
        }
    }

    @Test("concurrent \"create if none pending\" key updates insert exactly one key", arguments: StoreBackend.all)
    func updateSigningKeysIsExclusive(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            let inserted = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        try await store.updateSigningKeys { keys in
                            keys.isEmpty ? SigningKeyChange(insert: makeKey("kid-\(index)", activates: t0)) : nil
                        } != nil
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(inserted == 1)
            #expect(try await store.signingKeys().count == 1)
        }
    }

    @Test("rate counters count per key and fixed window, and prune ended windows", arguments: StoreBackend.all)
    func rateCounters(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            let minute: TimeInterval = 60
            let start = Date(timeIntervalSince1970: 1_800_000_000)  // a multiple of 60 s
            #expect(try await store.counter("ip:1", window: minute, now: start) == 0)
            #expect(try await store.incrementCounter("ip:1", window: minute, now: start) == 1)
            #expect(try await store.incrementCounter("ip:1", window: minute, now: start.addingTimeInterval(30)) == 2)
            #expect(try await store.incrementCounter("ip:1", window: minute, now: start.addingTimeInterval(59.999)) == 3)
            #expect(try await store.incrementCounter("ip:2", window: minute, now: start) == 1)
            #expect(try await store.counter("ip:1", window: minute, now: start.addingTimeInterval(10)) == 3)
            // The next window starts from zero.
            #expect(try await store.counter("ip:1", window: minute, now: start.addingTimeInterval(60)) == 0)
            #expect(try await store.incrementCounter("ip:1", window: minute, now: start.addingTimeInterval(61)) == 1)
            // Windows before 1970 are floored too.
            #expect(try await store.incrementCounter("old", window: minute, now: Date(timeIntervalSince1970: -30)) == 1)
            #expect(try await store.counter("old", window: minute, now: Date(timeIntervalSince1970: -59)) == 1)

            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<25 {
                    group.addTask { _ = try await store.incrementCounter("burst", window: minute, now: start) }
                }
                try await group.waitForAll()
            }
            #expect(try await store.counter("burst", window: minute, now: start) == 25)

            // Pruning removes windows that ended at or before the instant.
            try await store.pruneCounters(before: start.addingTimeInterval(60))
            #expect(try await store.counter("ip:1", window: minute, now: start) == 0)
            #expect(try await store.counter("burst", window: minute, now: start) == 0)
            #expect(try await store.counter("ip:1", window: minute, now: start.addingTimeInterval(61)) == 1)
            #expect(try await store.counts()["rate_counters"] == 1)

            await #expect(throws: HearthError(.internalError)) {
                try await store.incrementCounter("bad", window: 0, now: start)
            }
        }
    }

    @Test("withLeaderLock runs the body, returns its value, rethrows its errors and releases the lock", arguments: StoreBackend.all)
    func leaderLock(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            #expect(try await store.withLeaderLock("cleanup") { 42 } == 42)
            let thrown = await #expect(throws: MutationRefused.self) {
                try await store.withLeaderLock("cleanup") { () async throws -> Int in throw MutationRefused(marker: "leader") }
            }
            #expect(thrown == MutationRefused(marker: "leader"))
            // Released after an error: available again, and the body may use the store.
            let count = try await store.withLeaderLock("cleanup") { try await store.countUsers() }
            #expect(count == 0)
        }
    }

    @Test("copy(to:) copies every row idempotently, page by page, and counts agree", arguments: StoreBackend.all)
    func copyToAnotherStore(backend: StoreBackend) async throws {
        let targetFixture = try await StoreFixture(backend)
        defer { targetFixture.removeFiles() }
        try await withStore(backend) { source, _ in
            let users = (0..<5).map { index in
                makeUser(
                    "u\(index)", email: "u\(index)@example.com", createdAt: t0.addingTimeInterval(Double(index)),
                    passwordHash: index.isMultiple(of: 2) ? "hash-\(index)" : nil,
                    providers: index == 3
                        ? [ProviderLink(providerID: "google.com", rawID: "g3", email: "U3@Example.com"),
                           ProviderLink(providerID: "apple.com", rawID: "a3")]
                        : [])
            }
            for user in users {
                try await source.createUser(user, session: makeSession("s-\(user.uid)", uid: user.uid, extraClaims: #"{"n":1}"#))
            }
            try await source.insertSession(makeSession("s-extra", uid: "u1"))
            let keys = [makeKey("k1", activates: t0), makeKey("k2", activates: t0.addingTimeInterval(day))]
            for key in keys { try await source.insertSigningKey(key) }
            try await source.setSetting("cleanup.enabledAt", to: "1800000000")
            try await source.setSetting("other", to: "")
            _ = try await source.incrementCounter("not-copied", window: 60, now: t0)

            let sourceCounts = try await source.counts()
            #expect(sourceCounts == [
                "users": 5, "provider_links": 2, "refresh_sessions": 6, "signing_keys": 2, "settings": 2, "rate_counters": 1,
            ])

            let target = try await targetFixture.open()
            do {
                let progressLog = LockedBox<[String]>([])
                let copied = try await source.copy(to: target, batchSize: 2) { table, done, total in
                    progressLog.withLock { $0.append("\(table) \(done)/\(total)") }
                }
                #expect(copied == ["users": 5, "provider_links": 2, "refresh_sessions": 6, "signing_keys": 2, "settings": 2])
                #expect(progressLog.withLock { $0 }.contains("users 5/5"))
                #expect(progressLog.withLock { $0 }.contains("refresh_sessions 6/6"))

                // Twice: upserts, nothing duplicated, the same counts.
                let again = try await source.copy(to: target, batchSize: 4)
                #expect(again == copied)
                let targetCounts = try await target.counts()
                for key in TransferTable.copiedCountKeys {
                    #expect(targetCounts[key] == sourceCounts[key], "\(key)")
                }
                #expect(targetCounts["rate_counters"] == 0)

                for user in users {
                    #expect(try await target.user(uid: user.uid) == (try await source.user(uid: user.uid)))
                }
                #expect(try await target.user(providerID: "google.com", rawID: "g3")?.uid == "u3")
                #expect(try await target.session(tokenHash: "s-extra") == makeSession("s-extra", uid: "u1"))
                #expect(try await target.session(tokenHash: "s-u4") == (try await source.session(tokenHash: "s-u4")))
                #expect(try await target.signingKeys() == keys)
                #expect(try await target.setting("cleanup.enabledAt") == "1800000000")
                #expect(try await target.setting("other") == "")

                // A changed source row replaces the target's on the next run; links follow.
                try await source.updateUser(uid: "u3", session: nil) { user in
                    user.displayName = "Three"
                    user.providers.removeAll { $0.providerID == "apple.com" }
                }
                _ = try await source.copy(to: target)
                #expect(try await target.user(uid: "u3") == (try await source.user(uid: "u3")))
                #expect(try await target.counts()["provider_links"] == 1)
            } catch {
                try? await target.close()
                throw error
            }
            try await target.close()
        }
    }

    @Test("exportBatch pages in key order; importBatch refuses to break uniqueness", arguments: StoreBackend.all)
    func exportAndImport(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            for uid in ["c", "a", "b"] {
                try await store.createUser(makeUser(uid, email: "\(uid)@example.com"), session: nil)
            }
            let first = try await store.exportBatch(.users, after: nil, limit: 2)
            #expect(first.count == 2)
            #expect(first.lastKey == "b")
            let second = try await store.exportBatch(.users, after: first.lastKey, limit: 2)
            #expect(second.lastKey == "c")
            #expect(try await store.exportBatch(.users, after: "c", limit: 2) == .users([]))
            #expect(try await store.exportBatch(.settings, after: nil, limit: 10) == .settings([]))

            // A different user with an existing e-mail is a conflict, and the batch is not applied.
            await #expect(throws: StoreConflict.email) {
                try await store.importBatch(.users([makeUser("d"), makeUser("e", email: "a@example.com")]))
            }
            #expect(try await store.user(uid: "d") == nil)
            await #expect(throws: (any Error).self) {
                try await store.importBatch(.sessions([makeSession("orphan", uid: "nobody")]))
            }
            #expect(try await store.session(tokenHash: "orphan") == nil)
        }
    }
}

@Suite("SQLite storage")
struct SQLiteStorageTests {
    @Test("an in-memory store works on its single connection")
    func inMemory() async throws {
        let store = try await SQLiteStorage.openInMemory(logger: Logger(label: "hearth.tests.store"))
        do {
            #expect(try await store.pendingMigrations() == [])
            try await store.createUser(makeUser("u1", email: "ada@example.com"), session: makeSession("s1", uid: "u1"))
            #expect(try await store.user(email: "ada@example.com")?.uid == "u1")
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<20 {
                    group.addTask { try await store.createUser(makeUser("m\(index)"), session: nil) }
                    group.addTask { _ = try await store.countUsers() }
                }
                try await group.waitForAll()
            }
            #expect(try await store.countUsers() == 21)
        } catch {
            try? await store.close()
            throw error
        }
        try await store.close()
        await #expect(throws: HearthError(.storageUnavailable)) { try await store.countUsers() }
    }

    @Test("the writer lock admits waiters first come, first served, and drops cancelled ones")
    func asyncMutexOrder() async throws {
        let mutex = AsyncMutex()
        let order = LockedBox<[String]>([])
        func waitUntil(_ count: Int) async throws {
            for _ in 0..<2_000 where mutex.waitingCount != count {
                try await Task.sleep(for: .milliseconds(1))
            }
            try #require(mutex.waitingCount == count)
        }

        try await mutex.lock()
        let first = Task { try await mutex.withLock { order.withLock { $0.append("first") } } }
        try await waitUntil(1)
        let cancelled = Task { try await mutex.withLock { order.withLock { $0.append("cancelled") } } }
        try await waitUntil(2)
        let second = Task { try await mutex.withLock { order.withLock { $0.append("second") } } }
        try await waitUntil(3)
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(mutex.waitingCount == 2)
        mutex.unlock()
        try await first.value
        try await second.value
        #expect(order.withLock { $0 } == ["first", "second"])
        #expect(mutex.waitingCount == 0)
    }

    // MARK: Group commit

    /// Runs `writes` while the writer is held, so that they all queue, then lets them go: they run
    /// in one transaction. Returns each write's outcome, in the order of `writes`.
    private func queuedTogether(
        _ transactor: SQLiteTransactor, _ writes: [@Sendable (any SQLDatabase) async throws -> String]
    ) async throws -> [Result<String, any Error>] {
        try await transactor.writerMutex.lock()
        let tasks = writes.map { write in
            Task { () -> Result<String, any Error> in
                do { return .success(try await transactor.write(write)) } catch { return .failure(error) }
            }
        }
        for _ in 0..<5_000 where transactor.queuedWriteCount != writes.count {
            try await Task.sleep(for: .milliseconds(1))
        }
        transactor.writerMutex.unlock()
        try #require(transactor.queuedWriteCount <= writes.count)
        var outcomes: [Result<String, any Error>] = []
        for task in tasks { outcomes.append(await task.value) }
        return outcomes
    }

    private static func insertUser(_ uid: String) -> @Sendable (any SQLDatabase) async throws -> String {
        { database in
            let ms = StoredTime.milliseconds(t0)
            try await SQLStore.exec(
                database, "INSERT INTO users (uid, created_at, valid_since) VALUES (\(bind: uid), \(bind: ms), \(bind: ms))")
            return uid
        }
    }

    @Test("queued writes commit together, and a write that throws is undone alone")
    func groupCommit() async throws {
        try await withStore(.sqlite) { store, _ in
            let transactor = try #require(store.transactor as? SQLiteTransactor)
            let commitsBefore = transactor.commitCount
            let outcomes = try await queuedTogether(transactor, [
                Self.insertUser("a"),
                Self.insertUser("b"),
                { database in
                    // Its own insert must vanish with it; the others' must not.
                    _ = try await Self.insertUser("c")(database)
                    throw MutationRefused(marker: "c")
                },
                Self.insertUser("a"),  // the uid "a" got earlier in the same transaction
                { database in
                    // Sees the earlier writes of its transaction, as if run after them.
                    let row = try await database.raw("SELECT COUNT(*) AS n FROM users").first()
                    let seen = try row?.decode(column: "n", as: Int64.self) ?? -1
                    _ = try await Self.insertUser("e")(database)
                    return "e saw \(seen)"
                },
            ])
            #expect(try outcomes[0].get() == "a")
            #expect(try outcomes[1].get() == "b")
            #expect(throws: MutationRefused(marker: "c")) { try outcomes[2].get() }
            #expect(throws: (any Error).self) { try outcomes[3].get() }
            #expect(try outcomes[4].get() == "e saw 2")
            #expect(transactor.commitCount == commitsBefore + 1)
            #expect(try await store.countUsers() == 3)
            #expect(try await store.user(uid: "c") == nil)
            #expect(try await store.user(uid: "e") != nil)
        }
    }

    @Test("when the shared COMMIT fails, every write of the transaction fails and nothing is written")
    func groupCommitFailure() async throws {
        try await withStore(.sqlite) { store, _ in
            let transactor = try #require(store.transactor as? SQLiteTransactor)
            let outcomes = try await queuedTogether(transactor, [
                Self.insertUser("a"),
                { database in
                    // A deferred foreign-key violation is only noticed by COMMIT.
                    try await database.raw("PRAGMA defer_foreign_keys = ON").run()
                    try await SQLStore.insertSessionRow(makeSession("orphan", uid: "nobody"), on: database)
                    return "orphan"
                },
                Self.insertUser("c"),
            ])
            for outcome in outcomes {
                #expect(throws: (any Error).self) { try outcome.get() }
            }
            #expect(try await store.countUsers() == 0)
            #expect(try await count("refresh_sessions", in: store) == 0)
            // The writer is usable again afterwards.
            try await store.createUser(makeUser("after"), session: nil)
            #expect(try await store.countUsers() == 1)
        }
    }

    @Test("when the shared transaction is lost midway, the writes before fail and the writes after run again")
    func groupCommitLostTransaction() async throws {
        try await withStore(.sqlite) { store, _ in
            let transactor = try #require(store.transactor as? SQLiteTransactor)
            let outcomes = try await queuedTogether(transactor, [
                Self.insertUser("a"),
                { database in
                    // Ends the shared transaction under everyone's feet, then fails.
                    try await database.raw("ROLLBACK").run()
                    throw MutationRefused(marker: "b")
                },
                Self.insertUser("c"),
            ])
            #expect(throws: HearthError(.storageUnavailable)) { try outcomes[0].get() }
            #expect(throws: MutationRefused(marker: "b")) { try outcomes[1].get() }
            #expect(try outcomes[2].get() == "c")
            #expect(try await store.user(uid: "a") == nil)
            #expect(try await store.user(uid: "c") != nil)
        }
    }

    @Test("under concurrent sign-ups that fight over e-mails, exactly one user per e-mail is created")
    func groupCommitUnderContention() async throws {
        try await withStore(.sqlite) { store, _ in
            let created = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<200 {
                    group.addTask {
                        let uid = "user-\(index)"
                        do {
                            try await store.createUser(
                                makeUser(uid, email: "e\(index % 50)@example.com"), session: makeSession("s-\(index)", uid: uid))
                            return true
                        } catch StoreConflict.email {
                            return false
                        }
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(created == 50)
            #expect(try await store.countUsers() == 50)
            #expect(try await count("refresh_sessions", in: store) == 50)
            for index in 0..<50 {
                #expect(try await store.user(email: "e\(index)@example.com") != nil)
            }
        }
    }

    @Test("the database file uses WAL and enforces foreign keys")
    func pragmas() async throws {
        try await withStore(.sqlite) { store, _ in
            let (journal, foreignKeys) = try await store.transactor.write { database in
                let journal = try await database.raw("PRAGMA journal_mode").first()?.decode(column: "journal_mode", as: String.self)
                let foreignKeys = try await database.raw("PRAGMA foreign_keys").first()?.decode(column: "foreign_keys", as: Int64.self)
                return (journal, foreignKeys)
            }
            #expect(journal == "wal")
            #expect(foreignKeys == 1)
        }
    }
}
