import Foundation

/// A passkey (a WebAuthn credential) registered to an account, as the store keeps it. The credential id is
/// unique within its tenant (the store's scope): one authenticator's key never signs in two accounts.
public struct PasskeyCredential: Sendable, Equatable {
    /// The credential id as base64url (what `passkeyInfo.credentialId` and the browser's `id` carry).
    public var credentialID: String
    public var uid: String
    /// The name the user gave it (`passkeyEnrollment:finalize`'s `name`), or the default one.
    public var name: String
    /// The credential public key as the authenticator encoded it (a COSE_Key).
    public var publicKey: [UInt8]
    /// The COSE algorithm of `publicKey` (-7, -8 or -257).
    public var algorithm: Int
    /// The last signature counter seen; 0 for authenticators that keep none.
    public var signCount: UInt32
    /// What the browser said the authenticator is reachable by (`internal`, `hybrid`, `usb`, …).
    public var transports: [String]
    /// The BE flag at registration: the credential may be synced between devices.
    public var backupEligible: Bool
    /// The BS flag when last seen: the credential is synced now.
    public var backedUp: Bool
    public var createdAt: Date
    public var lastUsedAt: Date?
    /// The tenant (`nil`: the project's), as ``TransferStore/exportBatch(_:after:limit:)`` reads it; a store's other
    /// calls work in their own scope and leave it `nil`.
    public var tenantID: String?

    public init(
        credentialID: String, uid: String, name: String, publicKey: [UInt8], algorithm: Int, signCount: UInt32,
        transports: [String], backupEligible: Bool, backedUp: Bool, createdAt: Date, lastUsedAt: Date? = nil
    ) {
        self.credentialID = credentialID
        self.uid = uid
        self.name = name
        self.publicKey = publicKey
        self.algorithm = algorithm
        self.signCount = signCount
        self.transports = transports
        self.backupEligible = backupEligible
        self.backedUp = backedUp
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}
