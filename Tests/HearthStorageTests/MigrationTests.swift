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
