import Foundation

/// Where the accounts' passkeys live, scoped to one tenant like the accounts they belong to. An account's
/// deletion deletes its passkeys.
public protocol PasskeyStore: Sendable {
    /// Stores a new passkey; `false` (and nothing stored) when its credential id is already registered in this
    /// tenant, to this account or another.
    func insertPasskey(_ credential: PasskeyCredential) async throws -> Bool

    /// The passkey with `credentialID`, whoever's it is.
    func passkey(credentialID: String) async throws -> PasskeyCredential?

    /// An account's passkeys, oldest first.
    func passkeys(uid: String) async throws -> [PasskeyCredential]

    /// Records a sign-in with the passkey: its new counter, backup state and time. `false` when it is gone.
    func recordPasskeyUse(credentialID: String, signCount: UInt32, backedUp: Bool, at time: Date) async throws -> Bool

    /// Deletes the passkey `credentialID` of account `uid`; `false` when the account has no such passkey.
    func deletePasskey(uid: String, credentialID: String) async throws -> Bool
}
