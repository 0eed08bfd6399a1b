import Foundation
import HearthCore
import Testing

@testable import HearthStorage

/// Multi-factor sessions (pending sign-ins and TOTP enrolments), second factors on accounts and on refresh sessions,
/// on both backends.
@Suite("Store conformance: second factors")
struct MultiFactorStoreTests {
    static func pending(_ key: String, uid: String = "u1", attempts: Int = 5, createdAt: Date = epoch) -> MultiFactorSessionRecord {
        MultiFactorSessionRecord(
            key: key, kind: .signIn, uid: uid, payload: #"{"method":"password","provider":"password"}"#, attemptsLeft: attempts,
            createdAt: createdAt, expiresAt: createdAt.addingTimeInterval(600))
    }

    @Test("a session: read without using it, attempts reserved down to none, spent once; expired ones pruned", arguments: StoreBackend.all)
    func sessions(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            try await store.insertMultiFactorSession(Self.pending("k1", attempts: 2))
            #expect(try await store.multiFactorSession(key: "k1") == Self.pending("k1", attempts: 2))
            #expect(try await store.multiFactorSession(key: "k1\0") == nil)
            #expect(try await store.reserveMultiFactorAttempt(key: "k1") == .reserved(Self.pending("k1", attempts: 1)))
            #expect(try await store.reserveMultiFactorAttempt(key: "k1") == .reserved(Self.pending("k1", attempts: 0)))
            #expect(try await store.reserveMultiFactorAttempt(key: "k1") == .spent)
            #expect(try await store.reserveMultiFactorAttempt(key: "nope") == .unknown)
            #expect(try await store.spendMultiFactorSession(key: "k1"))
            #expect(try await store.spendMultiFactorSession(key: "k1") == false)
            #expect(try await store.reserveMultiFactorAttempt(key: "k1") == .unknown)

            try await store.insertMultiFactorSession(Self.pending("old"))
            try await store.insertMultiFactorSession(Self.pending("new", createdAt: epoch.addingTimeInterval(601)))
            #expect(try await store.multiFactorSession(key: "old") == nil)
            #expect(try await count("mfa_sessions", in: store) == 1)
            await #expect(throws: HearthError.self) { try await store.insertMultiFactorSession(Self.pending("bad\0key")) }
        }
    }

    @Test("20 parallel attempts at a session of 5: five are reserved; 20 parallel spends: one wins", arguments: StoreBackend.all)
    func parallel(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            try await store.insertMultiFactorSession(Self.pending("race"))
            let reserved = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        if case .reserved = try await store.reserveMultiFactorAttempt(key: "race") { return true }
                        return false
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(reserved == 5)
            let spent = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<20 { group.addTask { try await store.spendMultiFactorSession(key: "race") } }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(spent == 1)
        }
    }

    @Test("an account's factors and recovery-code hashes, and a session's second factor, are written and read back", arguments: StoreBackend.all)
    func accountsAndSessions(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            let factors = [
                SecondFactorEnrollment(id: "e1", displayName: "Work phone", enrolledAt: epoch, factor: .phone("+919876543210")),
                SecondFactorEnrollment(
                    id: "e2", displayName: nil, enrolledAt: epoch.addingTimeInterval(1), factor: .totp(sealedSecret: "hearth-sealed:v1:k:abc")),
            ]
            let user = UserRecord(
                uid: "u1", email: "a@example.com", createdAt: epoch, validSince: epoch, secondFactors: factors, recoveryCodeHashes: ["h1", "h2"])
            let session = RefreshSessionRecord(
                tokenHash: "t1", uid: "u1", signInProvider: "password", authTime: epoch, createdAt: epoch,
                secondFactor: SecondFactorUse(kind: .totp, enrollmentID: "e2"))
            try await store.createUser(user, session: session)
            #expect(try await store.user(uid: "u1") == user)
            #expect(try await store.sessionWithUser(tokenHash: "t1")?.session == session)
            #expect(try await store.session(tokenHash: "t1") == session)
            let cleared = try await store.updateUser(uid: "u1", session: nil) {
                $0.secondFactors = []
                $0.recoveryCodeHashes = []
            }
            #expect(cleared.secondFactors.isEmpty)
            #expect(try await store.user(uid: "u1")?.secondFactors.isEmpty == true)
            // A display name with a NUL is refused whole.
            await #expect(throws: HearthError.self) {
                try await store.updateUser(uid: "u1", session: nil) {
                    $0.secondFactors = [SecondFactorEnrollment(id: "e3", displayName: "a\0b", enrolledAt: epoch, factor: .phone("+919876543210"))]
                }
            }
            // startsSession decides from the user as written.
            let skipped = RefreshSessionRecord(tokenHash: "t2", uid: "u1", signInProvider: "password", authTime: epoch, createdAt: epoch)
            try await store.updateUser(uid: "u1", session: skipped, startsSession: { _ in false }) { $0.displayName = "A" }
            #expect(try await store.session(tokenHash: "t2") == nil)
        }
    }
}
