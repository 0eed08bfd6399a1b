import Foundation
import HearthCore
import Testing

@testable import HearthStorage

/// Phone sign-in's sessions and temporary proofs on both backends.
@Suite("Store conformance: phone verifications")
struct PhoneVerificationStoreTests {
    static func session(_ key: String, code: String = "h-code", attempts: Int = 5, createdAt: Date = epoch, lifetime: TimeInterval = 300)
        -> PhoneVerificationRecord
    {
        PhoneVerificationRecord(
            key: key, kind: .code, phoneNumber: "+919876543210", codeHash: code, attemptsLeft: attempts, createdAt: createdAt,
            expiresAt: createdAt.addingTimeInterval(lifetime))
    }

    static func proof(_ key: String, createdAt: Date = epoch) -> PhoneVerificationRecord {
        PhoneVerificationRecord(
            key: key, kind: .proof, phoneNumber: "+919876543210", codeHash: nil, attemptsLeft: 1, createdAt: createdAt,
            expiresAt: createdAt.addingTimeInterval(3_600))
    }

    @Test("a code: wrong ones take an attempt each, the right one spends the session once; unknown and spent told apart", arguments: StoreBackend.all)
    func codes(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            try await store.insertPhoneVerification(Self.session("s1", attempts: 3))
            #expect(
                try await store.checkPhoneCode(key: "s1", codeHash: "wrong") == .wrongCode(attemptsLeft: 2, expiresAt: epoch.addingTimeInterval(300)))
            #expect(
                try await store.checkPhoneCode(key: "s1", codeHash: "wrong") == .wrongCode(attemptsLeft: 1, expiresAt: epoch.addingTimeInterval(300)))
            var spent = Self.session("s1", attempts: 0)
            spent.attemptsLeft = 0
            #expect(try await store.checkPhoneCode(key: "s1", codeHash: "h-code") == .verified(spent))
            #expect(try await store.checkPhoneCode(key: "s1", codeHash: "h-code") == .spent)
            #expect(try await store.checkPhoneCode(key: "s1", codeHash: "wrong") == .spent)
            #expect(try await store.checkPhoneCode(key: "none", codeHash: "h-code") == .unknown)
            #expect(try await store.checkPhoneCode(key: "s1\0", codeHash: "h-code") == .unknown)

            // Wrong codes until none is left: the session is void, the right code no longer works.
            try await store.insertPhoneVerification(Self.session("s2", attempts: 2))
            _ = try await store.checkPhoneCode(key: "s2", codeHash: "wrong")
            #expect(
                try await store.checkPhoneCode(key: "s2", codeHash: "wrong") == .wrongCode(attemptsLeft: 0, expiresAt: epoch.addingTimeInterval(300)))
            #expect(try await store.checkPhoneCode(key: "s2", codeHash: "h-code") == .spent)

            // A proof is not a session, and a session not a proof.
            try await store.insertPhoneVerification(Self.proof("p1"))
            #expect(try await store.checkPhoneCode(key: "p1", codeHash: "h-code") == .unknown)
            try await store.insertPhoneVerification(Self.session("s3"))
            #expect(try await store.phoneProof(key: "s3") == nil)
            #expect(try await store.consumePhoneProof(key: "s3") == nil)
        }
    }

    @Test("a proof: peeked, consumed once, pruned when expired; a new verification prunes the expired", arguments: StoreBackend.all)
    func proofs(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            try await store.insertPhoneVerification(Self.proof("p1"))
            #expect(try await store.phoneProof(key: "p1") == Self.proof("p1"))
            #expect(try await store.phoneProof(key: "p1") == Self.proof("p1"))
            #expect(try await store.consumePhoneProof(key: "p1") == Self.proof("p1"))
            #expect(try await store.consumePhoneProof(key: "p1") == nil)
            #expect(try await store.phoneProof(key: "p1") == nil)
            #expect(try await store.phoneProof(key: "p1\0") == nil)

            try await store.insertPhoneVerification(Self.session("old", lifetime: 60))
            try await store.insertPhoneVerification(Self.proof("old-proof", createdAt: epoch.addingTimeInterval(-3_600)))
            #expect(try await store.deletePhoneVerifications(expiredBefore: epoch.addingTimeInterval(60)) == 1)
            #expect(try await count("phone_verifications", in: store) == 1)
            try await store.insertPhoneVerification(Self.session("new", createdAt: epoch.addingTimeInterval(61)))
            #expect(try await count("phone_verifications", in: store) == 1)
            #expect(try await store.checkPhoneCode(key: "old", codeHash: "h-code") == .unknown)
        }
    }

    @Test(
        "20 parallel checks of the right code: exactly one is verified; 20 parallel wrong ones take 5 attempts, no more", arguments: StoreBackend.all)
    func parallelChecks(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            try await store.insertPhoneVerification(Self.session("contested"))
            let results = try await withThrowingTaskGroup(of: PhoneCodeCheck.self) { group in
                for _ in 0..<20 { group.addTask { try await store.checkPhoneCode(key: "contested", codeHash: "h-code") } }
                return try await group.reduce(into: [PhoneCodeCheck]()) { $0.append($1) }
            }
            #expect(results.filter { if case .verified = $0 { true } else { false } }.count == 1)
            #expect(results.filter { $0 == .spent }.count == 19)

            try await store.insertPhoneVerification(Self.session("guessed"))
            let guesses = try await withThrowingTaskGroup(of: PhoneCodeCheck.self) { group in
                for index in 0..<20 { group.addTask { try await store.checkPhoneCode(key: "guessed", codeHash: "wrong-\(index)") } }
                return try await group.reduce(into: [PhoneCodeCheck]()) { $0.append($1) }
            }
            let lefts = guesses.compactMap { if case .wrongCode(let left, _) = $0 { left } else { nil } }.sorted()
            #expect(lefts == [0, 1, 2, 3, 4])
            #expect(guesses.filter { $0 == .spent }.count == 15)
            #expect(try await store.checkPhoneCode(key: "guessed", codeHash: "h-code") == .spent)
        }
    }

    @Test(
        "an external session: attempts reserved one by one, spent once of 20 parallel spends; unknown and spent told apart",
        arguments: StoreBackend.all)
    func externalSessions(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            var external = Self.session("e1", attempts: 2)
            external.kind = .external
            external.codeHash = nil
            try await store.insertPhoneVerification(external)
            var reserved = external
            reserved.attemptsLeft = 1
            #expect(try await store.reservePhoneAttempt(key: "e1") == .reserved(reserved))
            reserved.attemptsLeft = 0
            #expect(try await store.reservePhoneAttempt(key: "e1") == .reserved(reserved))
            #expect(try await store.reservePhoneAttempt(key: "e1") == .spent)
            #expect(try await store.reservePhoneAttempt(key: "none") == .unknown)
            #expect(try await store.reservePhoneAttempt(key: "e1\0") == .unknown)
            // A code session is not an external one, and the other way round.
            try await store.insertPhoneVerification(Self.session("c1"))
            #expect(try await store.reservePhoneAttempt(key: "c1") == .unknown)
            #expect(try await store.spendPhoneSession(key: "c1") == false)
            #expect(try await store.checkPhoneCode(key: "e1", codeHash: "h-code") == .unknown)

            // The last attempt's approved code still spends it; of 20 spends at once, one wins.
            var racing = external
            racing.key = "e2"
            try await store.insertPhoneVerification(racing)
            let wins = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<20 { group.addTask { try await store.spendPhoneSession(key: "e2") } }
                return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
            }
            #expect(wins == 1)
            #expect(try await store.reservePhoneAttempt(key: "e2") == .spent)
            #expect(try await store.spendPhoneSession(key: "e1") == true)
            #expect(try await store.spendPhoneSession(key: "e1") == false)
        }
    }

    @Test("NUL in a text is INVALID_ARGUMENT and nothing is stored", arguments: StoreBackend.all)
    func nul(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            var record = Self.session("s-nul")
            record.phoneNumber = "+91\0"
            await #expect(throws: HearthError(.invalidArgument)) { try await store.insertPhoneVerification(record) }
            let stored = try await count("phone_verifications", in: store)
            #expect(stored == 0)
        }
    }
}
