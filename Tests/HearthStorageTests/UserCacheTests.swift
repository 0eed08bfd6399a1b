import Foundation
import HearthCore
import HearthStorage
import HearthStorageSQLite
import Logging
import Testing

/// The users and refresh sessions a server on SQLite keeps in memory (`storage.userCacheSize`): every
/// change is seen at once, a read racing a write never brings back the replaced row, memory is
/// bounded, and the file is held by one server at a time.
@Suite("User and session cache on SQLite")
struct UserCacheTests {
    private static let logger = Logger(label: "hearth.tests.user-cache")

    /// A fresh file in a directory of its own, removed afterwards.
    private func withCachingStore(
        capacity: Int = 64, _ body: (SQLStore, String) async throws -> Void
    ) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-user-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("hearth.sqlite").path
        let store = try await SQLiteStorage.open(path: path, logger: Self.logger, userCacheCapacity: capacity)
        do {
            try await body(store, path)
        } catch {
            try? await store.close()
            throw error
        }
        try await store.close()
    }

    private func user(_ uid: String, at date: Date = Date(timeIntervalSince1970: 1_800_000_000)) -> UserRecord {
        UserRecord(uid: uid, createdAt: date, validSince: date)
    }

    @Test("every change to a user is seen by the next read: update, link, delete, bulk schedule, import")
    func changesAreSeen() async throws {
        try await withCachingStore { store, _ in
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            try await store.createUser(user("u1", at: now), session: nil)
            #expect(try await store.user(uid: "u1")?.displayName == nil)
            #expect(store.cachedUserCount == 1)

            try await store.updateUser(uid: "u1", session: nil) { $0.displayName = "Ada" }
            #expect(try await store.user(uid: "u1")?.displayName == "Ada")

            try await store.updateUser(uid: "u1", session: nil) {
                $0.providers = [ProviderLink(providerID: "google.com", rawID: "g-1")]
                $0.validSince = now.addingTimeInterval(60)
            }
            let linked = try #require(try await store.user(uid: "u1"))
            #expect(linked.providers.map(\.providerID) == ["google.com"])
            #expect(linked.validSince == now.addingTimeInterval(60))

            // A bulk change by SQL (the anonymous clean-up's schedule) forgets everyone.
            try await store.createUser(user("anon", at: now), session: nil)
            #expect(try await store.user(uid: "anon")?.scheduledDeletionAt == nil)
            #expect(try await store.scheduleAnonymousDeletion(olderThan: 86_400, notBefore: now) == 1)
            #expect(try await store.user(uid: "anon")?.scheduledDeletionAt != nil)
            #expect(try await store.deleteScheduledAnonymousUsers(now: now.addingTimeInterval(2 * 86_400), limit: 10) == ["anon"])
            #expect(try await store.user(uid: "anon") == nil)

            var imported = linked
            imported.displayName = "Imported"
            try await store.importBatch(.users([imported]))
            #expect(try await store.user(uid: "u1")?.displayName == "Imported")

            #expect(try await store.deleteUser(uid: "u1"))
            #expect(try await store.user(uid: "u1") == nil)
        }
    }

    @Test("a user's passkeys are remembered with it, and every change to them is seen by the next read")
    func passkeysAreSeen() async throws {
        try await withCachingStore { store, _ in
            try await store.createUser(user("u1"), session: nil)
            #expect(try await store.passkeys(uid: "u1").isEmpty)
            #expect(try await store.insertPasskey(PasskeyStoreTests.passkey("cred-a")))
            #expect(try await store.passkeys(uid: "u1").map(\.credentialID) == ["cred-a"])
            let used = Date(timeIntervalSince1970: 1_800_000_100)
            #expect(try await store.recordPasskeyUse(credentialID: "cred-a", signCount: 7, backedUp: true, at: used))
            #expect(try await store.passkeys(uid: "u1").first?.signCount == 7)
            // A refused insert (the credential is taken) changes nothing and forgets nothing it need not.
            #expect(try await !store.insertPasskey(PasskeyStoreTests.passkey("cred-a")))
            #expect(try await store.passkeys(uid: "u1").first?.lastUsedAt == used)
            #expect(try await store.deletePasskey(uid: "u1", credentialID: "cred-a"))
            #expect(try await store.passkeys(uid: "u1").isEmpty)
            // The user's deletion takes its passkeys (ON DELETE CASCADE) and the remembered list.
            #expect(try await store.insertPasskey(PasskeyStoreTests.passkey("cred-b")))
            #expect(try await store.passkeys(uid: "u1").count == 1)
            #expect(try await store.deleteUser(uid: "u1"))
            #expect(try await store.passkeys(uid: "u1").isEmpty)
        }
    }

    @Test("a failed write is forgotten too: the next read comes from the database")
    func failedWriteForgets() async throws {
        try await withCachingStore { store, _ in
            try await store.createUser(user("u1"), session: nil)
            _ = try await store.user(uid: "u1")
            struct Refused: Error {}
            await #expect(throws: Refused.self) {
                try await store.updateUser(uid: "u1", session: nil) { record in
                    record.displayName = "never stored"
                    throw Refused()
                }
            }
            #expect(store.cachedUserCount == 0)
            #expect(try await store.user(uid: "u1")?.displayName == nil)
        }
    }

    @Test("reads racing writes end on the last write, never on a replaced row")
    func racingReadsAndWrites() async throws {
        try await withCachingStore { store, _ in
            try await store.createUser(user("u1"), session: nil)
            for round in 1...40 {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<6 {
                        group.addTask { _ = try await store.user(uid: "u1") }
                    }
                    group.addTask {
                        try await store.updateUser(uid: "u1", session: nil) { $0.displayName = "round \(round)" }
                    }
                    for _ in 0..<6 {
                        group.addTask { _ = try await store.user(uid: "u1") }
                    }
                    try await group.waitForAll()
                }
                // After the write returned, whatever the readers remembered, the next read is current.
                #expect(try await store.user(uid: "u1")?.displayName == "round \(round)")
            }
        }
    }

    @Test("a remembered session ends with its user: deletion, revocation, disabling and imports are seen at once")
    func sessionsFollowTheirUser() async throws {
        try await withCachingStore { store, _ in
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            let issued = RefreshSessionRecord.issue(uid: "u1", signInProvider: "anonymous", authTime: now, now: now)
            try await store.createUser(user("u1", at: now), session: issued.record)
            let hash = issued.record.tokenHash

            #expect(try await store.sessionWithUser(tokenHash: hash)?.user?.uid == "u1")
            #expect(store.cachedSessionCount == 1)
            // Served from memory now, and still the same answer.
            #expect(try await store.sessionWithUser(tokenHash: hash)?.session == issued.record)

            // Revocation moves validSince: the next read carries the new value.
            try await store.updateUser(uid: "u1", session: nil) { $0.validSince = now.addingTimeInterval(10) }
            #expect(try await store.sessionWithUser(tokenHash: hash)?.user?.validSince == now.addingTimeInterval(10))
            try await store.updateUser(uid: "u1", session: nil) { $0.disabled = true }
            #expect(try await store.sessionWithUser(tokenHash: hash)?.user?.disabled == true)

            // An import that replaces the session row is seen.
            var replaced = issued.record
            replaced.signInProvider = "password"
            try await store.importBatch(.sessions([replaced]))
            #expect(try await store.sessionWithUser(tokenHash: hash)?.session.signInProvider == "password")

            // Deleting the user deletes its sessions (ON DELETE CASCADE); memory must not outlive them,
            // not even when a user with the same uid comes back.
            #expect(try await store.deleteUser(uid: "u1"))
            #expect(try await store.sessionWithUser(tokenHash: hash) == nil)
            try await store.createUser(user("u1", at: now.addingTimeInterval(60)), session: nil)
            #expect(try await store.sessionWithUser(tokenHash: hash) == nil)
            #expect(store.cachedSessionCount == 0)
        }
    }

    @Test("sessions are bounded by the capacity too")
    func sessionsBounded() async throws {
        try await withCachingStore(capacity: 2) { store, _ in
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            var hashes: [String] = []
            for index in 0..<6 {
                let issued = RefreshSessionRecord.issue(uid: "u\(index)", signInProvider: "anonymous", authTime: now, now: now)
                try await store.createUser(user("u\(index)", at: now), session: issued.record)
                hashes.append(issued.record.tokenHash)
                _ = try await store.sessionWithUser(tokenHash: issued.record.tokenHash)
                #expect(store.cachedSessionCount <= 2)
                #expect(store.cachedUserCount <= 2)
            }
            for (index, hash) in hashes.enumerated() {
                #expect(try await store.sessionWithUser(tokenHash: hash)?.user?.uid == "u\(index)")
            }
        }
    }

    @Test("memory is bounded by the capacity")
    func bounded() async throws {
        try await withCachingStore(capacity: 3) { store, _ in
            for index in 0..<10 {
                try await store.createUser(user("u\(index)"), session: nil)
                _ = try await store.user(uid: "u\(index)")
                #expect(store.cachedUserCount <= 3)
            }
            // Every user is still read correctly, remembered or not.
            for index in 0..<10 {
                #expect(try await store.user(uid: "u\(index)")?.uid == "u\(index)")
            }
        }
    }

    @Test("one caching server per file: a second waits, then fails naming the file; tools open it anyway")
    func exclusiveFile() async throws {
        try await withCachingStore { store, path in
            try await store.createUser(user("u1"), session: nil)
            do {
                let second = try await SQLiteStorage.open(
                    path: path, logger: Self.logger, userCacheCapacity: 8, lockWait: .milliseconds(300))
                try? await second.close()
                Issue.record("a second caching store opened the same file")
            } catch let error as HearthError {
                #expect(error.code == .storageUnavailable)
                #expect("\(error.reason ?? "")".contains("another Hearth server is using the SQLite database \(path)"))
            }
            // Without a cache (hearth migrate, migrate-data) the file opens while the server holds it.
            let tool = try await SQLiteStorage.open(path: path, logger: Self.logger, migrate: false)
            #expect(try await tool.user(uid: "u1")?.uid == "u1")
            try await tool.close()
        }
    }

    @Test("the lock is released on close, and a waiting server gets the file")
    func lockReleasedOnClose() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-user-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("hearth.sqlite").path
        let first = try await SQLiteStorage.open(path: path, logger: Self.logger, userCacheCapacity: 8)
        async let second = SQLiteStorage.open(path: path, logger: Self.logger, userCacheCapacity: 8, lockWait: .seconds(300))
        try await Task.sleep(for: .milliseconds(300))
        try await first.close()
        let store = try await second
        try await store.createUser(user("u1"), session: nil)
        #expect(try await store.user(uid: "u1")?.uid == "u1")
        try await store.close()
    }
}
