import Foundation

/// Removing passkeys from an account: by its user (`accounts:update`'s `deletePasskey` with an ID token,
/// ``OwnAccountUpdate``) or by an administrator (with `localId`, ``AdministeredAccounts``). Every id named must be
/// one of the account's passkeys, or none is removed (`PASSKEY_CREDENTIAL_NOT_FOUND`); each removal is recorded
/// (`user.passkey_removed`).
struct PasskeyRemoval: Sendable {
    let store: any PasskeyStore
    let audit: any AuditRecording
    let clock: WallClock

    func remove(_ credentialIDs: [String], uid: String, actor: AuditEvent.Actor, from origin: AuditOrigin) async throws {
        guard !credentialIDs.isEmpty else { return }
        let held = Dictionary(try await store.passkeys(uid: uid).map { ($0.credentialID, $0) }) { first, _ in first }
        guard credentialIDs.allSatisfy({ held[$0] != nil }) else {
            throw HearthError(.passkeyCredentialNotFound, reason: "deletePasskey names no passkey of the account")
        }
        var removed = Set<String>()
        for id in credentialIDs where !removed.contains(id) {
            removed.insert(id)
            // A parallel removal of the same passkey: gone either way, recorded once.
            guard try await store.deletePasskey(uid: uid, credentialID: id), let passkey = held[id] else { continue }
            await audit.record(
                AuditEvent(
                    time: clock.now, kind: .passkeyRemoved, uid: uid, actor: actor, actorID: origin.actorID, method: "passkey",
                    clientAddress: origin.address, details: ["credential": String(id.prefix(16)), "name": passkey.name]))
        }
    }
}
