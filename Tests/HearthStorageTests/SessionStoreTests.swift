import Foundation
import HearthCore
import HearthStoragePostgres
import HearthTesting
import Logging
import SQLKit
import Testing

@testable import HearthStorage
@testable import HearthStorageSQLite

/// Refresh sessions and the browser flow's single-use rows on both backends.
@Suite("Store conformance: refresh sessions and browser sign-in sessions")
struct SessionStoreTests {
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

    @Test("auth sessions: consumed once, by key and kind, atomically; expired ones pruned", arguments: StoreBackend.all)
    func authSessions(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            let pending = AuthSessionRecord(
                id: "state-1", kind: .pending, sessionID: "session-1", providerID: "google.com",
                continueURI: "com.example.app:/oauth", createdAt: epoch, expiresAt: epoch.addingTimeInterval(600),
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
                continueURI: "http://127.0.0.1:9000/", createdAt: epoch, expiresAt: epoch.addingTimeInterval(600),
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
            old.expiresAt = epoch.addingTimeInterval(60)
            try await store.insertAuthSession(old)
            var fresh = pending
            fresh.id = "state-2"
            fresh.createdAt = epoch.addingTimeInterval(120)
            fresh.expiresAt = epoch.addingTimeInterval(720)
            try await store.insertAuthSession(fresh)
            #expect(try await store.consumeAuthSession(id: "state-old", kind: .pending) == nil)
            #expect(try await store.deleteAuthSessions(expiredBefore: epoch.addingTimeInterval(721)) == 1)
            #expect(try await count("auth_sessions", in: store) == 0)
        }
    }
}
