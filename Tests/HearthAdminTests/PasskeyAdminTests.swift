import Foundation
import HearthAdmin
import HearthCore
import HearthTesting
import Testing

/// HearthAdmin's passkey calls over loopback: list a user's passkeys (names and credential ids, no key material) and
/// remove some, all or none, with the exact error codes for a passkey or user that is not there.
@Suite("HearthAdmin passkeys")
struct PasskeyAdminTests {
    /// Stores a passkey for `uid` as an enrolment would (the key bytes are not checked by these calls).
    static func store(_ live: LiveHearth, uid: String, id: String, name: String) async throws {
        let credential = PasskeyCredential(
            credentialID: id, uid: uid, name: name, publicKey: [0xA5, 0x01, 0x02], algorithm: -7, signCount: 0, transports: ["internal"],
            backupEligible: false, backedUp: false, createdAt: live.clock.now)
        #expect(try await live.services.store.insertPasskey(credential))
    }

    @Test("list a user's passkeys, remove one, and the errors for an unknown passkey, user or an empty list")
    func listAndRemove() async throws {
        try await withLiveHearth { live in
            let admin = try makeAdmin(live)
            let ada = try await signUp(live, email: "ada@example.com")
            let grace = try await signUp(live, email: "grace@example.com")
            #expect(try await admin.passkeys(uid: ada.uid).isEmpty)
            try await Self.store(live, uid: ada.uid, id: "cred-laptop", name: "Laptop")
            try await Self.store(live, uid: ada.uid, id: "cred-phone", name: "Phone")
            try await Self.store(live, uid: grace.uid, id: "cred-grace", name: "Grace's key")

            let listed = try await admin.passkeys(uid: ada.uid)
            #expect(listed.map(\.credentialID) == ["cred-laptop", "cred-phone"])
            #expect(listed.map(\.name) == ["Laptop", "Phone"])

            try await admin.deletePasskeys(uid: ada.uid, credentialIDs: ["cred-laptop"])
            #expect(try await admin.passkeys(uid: ada.uid).map(\.credentialID) == ["cred-phone"])
            // Another user's passkey, or one already removed: nothing is removed.
            #expect(
                await adminError { try await admin.deletePasskeys(uid: ada.uid, credentialIDs: ["cred-phone", "cred-grace"]) } == .passkeyNotFound)
            #expect(await adminError { try await admin.deletePasskeys(uid: ada.uid, credentialIDs: ["cred-laptop"]) } == .passkeyNotFound)
            #expect(try await admin.passkeys(uid: ada.uid).map(\.credentialID) == ["cred-phone"])
            #expect(try await admin.passkeys(uid: grace.uid).map(\.credentialID) == ["cred-grace"])

            #expect(await adminError { try await admin.deletePasskeys(uid: ada.uid, credentialIDs: []) } == .argumentError)
            #expect(await adminError { _ = try await admin.passkeys(uid: "nobody") } == .userNotFound)
            #expect(await adminError { _ = try await admin.passkeys(uid: "") } == .invalidUID)
        }
    }
}
