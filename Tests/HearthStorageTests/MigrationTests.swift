import Foundation
import HearthCore
import HearthStoragePostgres
import HearthTesting
import Logging
import SQLKit
import Testing

@testable import HearthStorage
@testable import HearthStorageSQLite

/// The schema's versioned migrations, and many writers at once, on both backends.
@Suite("Store conformance: migrations and concurrent writers")
struct MigrationTests {
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

    @Test(
        "a database filled before tenants migrates: every row is the project's, and keys, e-mails and identities become per tenant",
        arguments: StoreBackend.all)
    func upgradeThroughTenants(backend: StoreBackend) async throws {
        let fixture = try await StoreFixture(backend)
        defer { fixture.removeFiles() }
        let old = try await fixture.open(migrate: false)
        try await old.migrate(through: "2026-11-30-add-refresh-and-initial-email")
        #expect(try await old.pendingMigrations().first == "2026-12-01-add-tenants")
        // The rows an older server wrote, in its own columns.
        try await old.transactor.write { database in
            for statement: SQLQueryString in [
                """
                INSERT INTO users (uid, email, email_verified, phone_number, password_hash, custom_attributes, created_at, valid_since,
                    last_refresh_at, initial_email)
                VALUES ('u1', 'ada@example.com', TRUE, '+16505550100', 'hash', '{"role":"admin"}', 1000, 1000, 5000, 'first@example.com')
                """,
                "INSERT INTO users (uid, created_at, valid_since, scheduled_deletion_at) VALUES ('anon', 2000, 2000, 9000)",
                "INSERT INTO provider_links (uid, provider_id, raw_id, email) VALUES ('u1', 'google.com', 'g-1', 'ada@gmail.com')",
                "INSERT INTO refresh_sessions (token_hash, uid, sign_in_provider, auth_time, created_at) VALUES ('h1', 'u1', 'password', 1500, 1500)",
                """
                INSERT INTO action_codes (code_hash, kind, uid, email, created_at, expires_at)
                VALUES ('c1', 'PASSWORD_RESET', 'u1', 'ada@example.com', 1000, 99999999999999)
                """,
                "INSERT INTO settings (name, value) VALUES ('project.config', '{\"anonymousEnabled\":false}')",
            ] {
                try await database.raw(statement).run()
            }
        }
        try await old.close()

        let store = try await fixture.open()
        do {
            try await checkUpgraded(store)
        } catch {
            try? await store.close()
            throw error
        }
        try await store.close()
    }

    /// What ``upgradeThroughTenants(backend:)`` expects of the migrated database.
    private func checkUpgraded(_ store: SQLStore) async throws {
        let ada = try #require(try await store.user(uid: "u1"))
        #expect(ada.tenantID == nil && ada.email == "ada@example.com" && ada.emailVerified && ada.phoneNumber == "+16505550100")
        #expect(ada.passwordHash == "hash" && ada.customAttributes == #"{"role":"admin"}"# && ada.initialEmail == "first@example.com")
        #expect(ada.lastRefreshAt == Date(timeIntervalSince1970: 5) && ada.providers.map(\.rawID) == ["g-1"])
        #expect(try await store.user(email: "ada@example.com")?.uid == "u1")
        #expect(try await store.user(phoneNumber: "+16505550100")?.uid == "u1")
        #expect(try await store.user(providerID: "google.com", rawID: "g-1")?.uid == "u1")
        #expect(try await store.user(uid: "anon")?.scheduledDeletionAt == Date(timeIntervalSince1970: 9))
        #expect(try await store.session(tokenHash: "h1")?.uid == "u1")
        #expect(try await store.actionCode(hash: "c1")?.uid == "u1")
        #expect(try await store.setting("project.config") == #"{"anonymousEnabled":false}"#)

        // After the migration the same uid, e-mail, phone and Google account can be another tenant's account …
        try await store.createTenant(TenantRecord(id: "acme-1", displayName: "acme", createdAt: epoch))
        let acme = store.scoped(toTenant: "acme-1")
        #expect(try await acme.user(uid: "u1") == nil)
        #expect(try await acme.session(tokenHash: "h1") == nil)
        #expect(try await acme.actionCode(hash: "c1") == nil)
        let twin = makeUser(
            "u1", email: "ada@example.com", phoneNumber: "+16505550100", providers: [ProviderLink(providerID: "google.com", rawID: "g-1")])
        try await acme.createUser(twin, session: makeSession("h2", uid: "u1"))
        #expect(try await acme.user(uid: "u1")?.tenantID == "acme-1")
        // … while in the project they stay taken.
        await #expect(throws: StoreConflict.self) {
            try await store.createUser(makeUser("u3", email: "ada@example.com"), session: nil)
        }
        // Deleting the project's account leaves the tenant's, its links and its session.
        #expect(try await store.deleteUser(uid: "u1"))
        #expect(try await store.session(tokenHash: "h1") == nil)
        #expect(try await acme.user(providerID: "google.com", rawID: "g-1")?.uid == "u1")
        #expect(try await acme.session(tokenHash: "h2")?.uid == "u1")
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

}
