import Foundation
import HearthCore
import Testing

@testable import HearthStorage

/// Passkeys and their challenges, on both backends.
@Suite("Store conformance: passkeys")
struct PasskeyStoreTests {
    static func passkey(_ id: String, uid: String = "u1", createdAt: Date = epoch) -> PasskeyCredential {
        PasskeyCredential(
            credentialID: id, uid: uid, name: "Laptop", publicKey: [0xA5, 0x01, 0x02, 0x00, 0xFF], algorithm: -7, signCount: 0,
            transports: ["internal", "hybrid"], backupEligible: true, backedUp: false, createdAt: createdAt)
    }

    @Test("a passkey: stored, read by id and by account, its use recorded, deleted by its own account only", arguments: StoreBackend.all)
    func lifecycle(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            try await store.createUser(makeUser("u1"), session: nil)
            try await store.createUser(makeUser("u2"), session: nil)
            #expect(try await store.insertPasskey(Self.passkey("cred-b", createdAt: epoch.addingTimeInterval(1))))
            #expect(try await store.insertPasskey(Self.passkey("cred-a")))
            #expect(try await store.passkey(credentialID: "cred-a") == Self.passkey("cred-a"))
            #expect(try await store.passkey(credentialID: "cred-a\0") == nil)
            #expect(try await store.passkeys(uid: "u1").map(\.credentialID) == ["cred-a", "cred-b"])
            #expect(try await store.passkeys(uid: "u2") == [])

            let used = epoch.addingTimeInterval(60)
            #expect(try await store.recordPasskeyUse(credentialID: "cred-a", signCount: UInt32.max, backedUp: true, at: used))
            var expected = Self.passkey("cred-a")
            expected.signCount = UInt32.max
            expected.backedUp = true
            expected.lastUsedAt = used
            #expect(try await store.passkey(credentialID: "cred-a") == expected)
            #expect(try await store.recordPasskeyUse(credentialID: "gone", signCount: 1, backedUp: false, at: used) == false)

            #expect(try await store.deletePasskey(uid: "u2", credentialID: "cred-a") == false)
            #expect(try await store.deletePasskey(uid: "u1", credentialID: "cred-a"))
            #expect(try await store.deletePasskey(uid: "u1", credentialID: "cred-a") == false)
            await #expect(throws: HearthError.self) { try await store.insertPasskey(Self.passkey("bad\0id")) }
        }
    }

    @Test("a credential id is registered once per tenant: to another account, or in parallel, it is refused", arguments: StoreBackend.all)
    func uniqueCredentialIDs(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            try await store.createUser(makeUser("u1"), session: nil)
            try await store.createUser(makeUser("u2"), session: nil)
            #expect(try await store.insertPasskey(Self.passkey("taken")))
            #expect(try await store.insertPasskey(Self.passkey("taken", uid: "u2")) == false)
            #expect(try await store.passkey(credentialID: "taken")?.uid == "u1")
            let stored = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<10 { group.addTask { try await store.insertPasskey(Self.passkey("race", uid: index % 2 == 0 ? "u1" : "u2")) } }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(stored == 1)
        }
    }

    @Test("a tenant's passkeys and passkey challenges are not another's; an account's deletion deletes its passkeys", arguments: StoreBackend.all)
    func tenants(backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            let acme = store.scoped(toTenant: "acme-1")
            let other = store.scoped(toTenant: "other-2")
            try await acme.createUser(makeUser("u1"), session: nil)
            try await other.createUser(makeUser("u1"), session: nil)
            #expect(try await acme.insertPasskey(Self.passkey("shared-id")))
            #expect(try await other.passkey(credentialID: "shared-id") == nil)
            #expect(try await store.passkey(credentialID: "shared-id") == nil)
            // The same authenticator may register in two tenants: they are separate projects to it.
            #expect(try await other.insertPasskey(Self.passkey("shared-id")))
            #expect(try await other.deletePasskey(uid: "u1", credentialID: "shared-id"))
            #expect(try await acme.passkey(credentialID: "shared-id") != nil)

            let challenge = MultiFactorSessionRecord(
                key: "challenge-key", kind: .passkeySignIn, uid: "", payload: #"{"challenge":"AAAA"}"#, attemptsLeft: 1,
                createdAt: epoch, expiresAt: epoch.addingTimeInterval(300))
            try await acme.insertMultiFactorSession(challenge)
            #expect(try await other.multiFactorSession(key: "challenge-key") == nil)
            #expect(try await other.spendMultiFactorSession(key: "challenge-key") == false)
            #expect(try await acme.multiFactorSession(key: "challenge-key") == challenge)
            #expect(try await acme.spendMultiFactorSession(key: "challenge-key"))
            #expect(try await acme.spendMultiFactorSession(key: "challenge-key") == false)

            #expect(try await acme.deleteUser(uid: "u1"))
            #expect(try await acme.passkey(credentialID: "shared-id") == nil)
            #expect(try await count("passkeys", in: store) == 0)
        }
    }
}
