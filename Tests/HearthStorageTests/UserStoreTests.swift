import Foundation
import HearthCore
import HearthStoragePostgres
import HearthTesting
import Logging
import SQLKit
import Testing

@testable import HearthStorage
@testable import HearthStorageSQLite

/// Users and their links on both backends: reads by every key, the uniqueness rules, atomic updates.
@Suite("Store conformance: users, e-mails, provider identities")
struct UserStoreTests {
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
                customAttributes: #"{"admin":true}"#, customAuth: true, createdAt: epoch,
                lastLoginAt: epoch.addingTimeInterval(60.5), validSince: epoch.addingTimeInterval(1),
                scheduledDeletionAt: epoch.addingTimeInterval(oneDay), providers: [google, apple])
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
            try await store.updateUser(uid: "u1", session: nil) { $0.lastLoginAt = epoch.addingTimeInterval(0.1234567) }
            let stored = try #require(try await store.user(uid: "u1")?.lastLoginAt)
            #expect(abs(stored.timeIntervalSince1970 - (epoch.timeIntervalSince1970 + 0.123)) < 0.000_001)

            let minimal = makeUser("u0", createdAt: epoch.addingTimeInterval(-10))
            try await store.createUser(minimal, session: nil)
            #expect(try await store.user(uid: "u0") == minimal)
            #expect(try await store.countUsers() == 2)
        }
    }

    @Test("lists users a page at a time in byte order of uid, with their links; finds a user by phone number", arguments: StoreBackend.all)
    func pagesAndPhones(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            // Upper case sorts before lower case, and "é" (two bytes, 0xC3…) after "z", in byte order.
            let uids = ["B", "a", "a-2", "a_1", "z", "é", "Z9", "0"]
            for (index, uid) in uids.enumerated() {
                var user = makeUser(uid, createdAt: epoch.addingTimeInterval(Double(-index)))
                if index == 3 {
                    user.providers = [ProviderLink(providerID: "github.com", rawID: "gh-1"), ProviderLink(providerID: "apple.com", rawID: "ap-1")]
                }
                if index == 4 { user.phoneNumber = "+15555550104" }
                try await store.createUser(user, session: nil)
            }
            let expected = uids.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            var listed: [String] = []
            var after: String?
            while true {
                let page = try await store.users(after: after, limit: 3)
                #expect(page.count <= 3)
                listed += page.map(\.uid)
                guard page.count == 3, let last = page.last else { break }
                after = last.uid
            }
            #expect(listed == expected)
            // A user with two links is one entry, links and all (LIMIT counts users, not joined rows).
            let withLinks = try await store.users(after: "Z9", limit: 1)
            #expect(withLinks.map(\.uid) == ["a"])
            let linked = try await store.users(after: "a-2", limit: 1)
            #expect(linked.first?.uid == "a_1" && linked.first?.providers.count == 2)
            #expect(try await store.users(after: "é", limit: 5) == [])
            #expect(try await store.users(after: nil, limit: 0) == [])

            #expect(try await store.user(phoneNumber: "+15555550104")?.uid == "z")
            #expect(try await store.user(phoneNumber: "+15555550199") == nil)
        }
    }

    @Test("finds users by top-level or provider e-mail", arguments: StoreBackend.all)
    func anyEmail(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            let first = makeUser("u1", email: "ada@example.com", createdAt: epoch)
            let second = makeUser(
                "u2", createdAt: epoch.addingTimeInterval(1),
                providers: [ProviderLink(providerID: "github.com", rawID: "gh-2", email: "ADA@example.com")])
            let other = makeUser("u3", email: "bob@example.com", createdAt: epoch.addingTimeInterval(2))
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
            await #expect(throws: StoreConflict.phoneNumber) {
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
                makeUser(
                    "u1", email: "ada@example.com", phoneNumber: "+1555",
                    providers: [ProviderLink(providerID: "google.com", rawID: "g-1")]),
                session: nil)
            let ms = StoredTime.milliseconds(epoch)
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
            await #expect(throws: StoreConflict.phoneNumber) {
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

    @Test("keeps lastRefreshAt and initialEmail; recordRefresh writes only a later time, and nothing for an unknown uid", arguments: StoreBackend.all)
    func refreshAndInitialEmail(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            var user = makeUser("u1", email: "first@example.com")
            user.lastRefreshAt = epoch.addingTimeInterval(10)
            try await store.createUser(user, session: makeSession("h1", uid: "u1"))
            #expect(try await store.user(uid: "u1") == user)

            try await store.updateUser(uid: "u1", session: nil) { $0.changeEmail(to: "second@example.com") }
            try await store.updateUser(uid: "u1", session: nil) { $0.changeEmail(to: "third@example.com") }
            var stored = try #require(try await store.user(uid: "u1"))
            #expect(stored.email == "third@example.com" && stored.initialEmail == "first@example.com")

            try await store.recordRefresh(uid: "u1", at: epoch.addingTimeInterval(70.25))
            #expect(try await store.user(uid: "u1")?.lastRefreshAt == epoch.addingTimeInterval(70.25))
            // The refresh endpoint's read sees it (the cache forgot the user).
            #expect(try await store.sessionWithUser(tokenHash: "h1")?.user?.lastRefreshAt == epoch.addingTimeInterval(70.25))
            // An earlier time (another replica, late) leaves the later one.
            try await store.recordRefresh(uid: "u1", at: epoch.addingTimeInterval(20))
            stored = try #require(try await store.user(uid: "u1"))
            #expect(stored.lastRefreshAt == epoch.addingTimeInterval(70.25))
            try await store.recordRefresh(uid: "nobody", at: epoch)
            #expect(try await store.user(uid: "nobody") == nil)
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
                user.lastLoginAt = epoch.addingTimeInterval(5)
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
                    let ms = StoredTime.milliseconds(epoch)
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

    @Test("the store refuses any text with a NUL instead of keeping a value it would read back cut", arguments: StoreBackend.all)
    func storeRefusesNUL(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            let victim = UserRecord(uid: "victim", displayName: "Victim", createdAt: now, lastLoginAt: now, validSince: now)
            try await store.createUser(victim, session: nil)
            let forged = UserRecord(uid: "victim\u{0000}x", createdAt: now, lastLoginAt: now, validSince: now)
            await #expect(throws: HearthError(.invalidArgument)) { try await store.createUser(forged, session: nil) }
            let named = UserRecord(uid: "other", displayName: "a\u{0000}b", createdAt: now, lastLoginAt: now, validSince: now)
            await #expect(throws: HearthError(.invalidArgument)) { try await store.createUser(named, session: nil) }
            await #expect(throws: HearthError(.invalidArgument)) {
                try await store.updateUser(uid: "victim", session: nil) { $0.displayName = "a\u{0000}b" }
            }
            await #expect(throws: HearthError(.invalidArgument)) {
                try await store.updateUser(uid: "victim", session: nil) {
                    $0.providers.append(ProviderLink(providerID: "oidc.x", rawID: "id\u{0000}1"))
                }
            }
            #expect(try await store.user(uid: "victim")?.displayName == "Victim")
            #expect(try await store.user(uid: "victim")?.providers.isEmpty == true)
            #expect(try await store.countUsers() == 1)
        }
    }
}
