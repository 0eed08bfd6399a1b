import Foundation
import HearthCore
import HearthStoragePostgres
import HearthTesting
import Logging
import SQLKit
import Testing

@testable import HearthStorage
@testable import HearthStorageSQLite

/// What replicas share besides users: settings, the anonymous clean-up schedule, rate counters, leader locks.
@Suite("Store conformance: settings, clean-up, counters and leader locks")
struct CoordinationStoreTests {
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

    @Test("anonymous clean-up schedules and deletes only users that are still anonymous", arguments: StoreBackend.all)
    func anonymousCleanup(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            let age = 30 * oneDay
            let notBefore = epoch.addingTimeInterval(7 * oneDay)
            let users = [
                makeUser("anon-old", createdAt: epoch.addingTimeInterval(-40 * oneDay)),
                makeUser("anon-new", createdAt: epoch.addingTimeInterval(-1 * oneDay)),
                makeUser("anon-to-password", createdAt: epoch.addingTimeInterval(-40 * oneDay)),
                makeUser("anon-to-link", createdAt: epoch.addingTimeInterval(-40 * oneDay)),
                makeUser("anon-scheduled", createdAt: epoch, scheduledDeletionAt: epoch.addingTimeInterval(100 * oneDay)),
                makeUser("password", email: "p@example.com", createdAt: epoch.addingTimeInterval(-90 * oneDay), passwordHash: "h"),
                makeUser("hash-without-email", createdAt: epoch.addingTimeInterval(-90 * oneDay), passwordHash: "h"),
                makeUser(
                    "linked", createdAt: epoch.addingTimeInterval(-90 * oneDay),
                    providers: [ProviderLink(providerID: "google.com", rawID: "g-linked")]),
                makeUser("phone", createdAt: epoch.addingTimeInterval(-90 * oneDay), phoneNumber: "+15550001"),
                makeUser("custom", createdAt: epoch.addingTimeInterval(-90 * oneDay), customAuth: true),
            ]
            for user in users { try await store.createUser(user, session: nil) }

            #expect(try await store.scheduleAnonymousDeletion(olderThan: age, notBefore: notBefore) == 4)
            #expect(try await store.scheduleAnonymousDeletion(olderThan: age, notBefore: notBefore) == 0)
            // max(createdAt + age, notBefore)
            #expect(try await store.user(uid: "anon-old")?.scheduledDeletionAt == notBefore)
            #expect(try await store.user(uid: "anon-new")?.scheduledDeletionAt == epoch.addingTimeInterval(29 * oneDay))
            #expect(try await store.user(uid: "anon-scheduled")?.scheduledDeletionAt == epoch.addingTimeInterval(100 * oneDay))
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
            #expect(try await store.deleteScheduledAnonymousUsers(now: epoch.addingTimeInterval(6 * oneDay), limit: 100) == [])
            #expect(try await store.deleteScheduledAnonymousUsers(now: notBefore, limit: 100) == ["anon-old"])
            #expect(try await store.deleteScheduledAnonymousUsers(now: epoch.addingTimeInterval(30 * oneDay), limit: 100) == ["anon-new"])

            // limit respected.
            try await store.createUser(makeUser("anon-late-1", createdAt: epoch), session: nil)
            try await store.createUser(makeUser("anon-late-2", createdAt: epoch), session: nil)
            #expect(try await store.scheduleAnonymousDeletion(olderThan: age, notBefore: notBefore) == 2)
            let later = epoch.addingTimeInterval(200 * oneDay)
            let firstBatch = try await store.deleteScheduledAnonymousUsers(now: later, limit: 2)
            #expect(firstBatch == ["anon-late-1", "anon-late-2"])
            #expect(try await store.deleteScheduledAnonymousUsers(now: later, limit: 2) == ["anon-scheduled"])
            #expect(try await store.deleteScheduledAnonymousUsers(now: later, limit: 2) == [])
            #expect(try await store.deleteScheduledAnonymousUsers(now: later, limit: 0) == [])

            let remaining = Set(
                try await store.transactor.read { database in
                    try await database.raw("SELECT uid FROM users").all().map { try $0.decode(column: "uid", as: String.self) }
                })
            #expect(remaining == ["anon-to-password", "anon-to-link", "password", "hash-without-email", "linked", "phone", "custom"])
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
}
