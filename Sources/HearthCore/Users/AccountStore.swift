import Foundation

/// Users, their provider links and their refresh sessions.
///
/// Every method is one transaction: it happens whole or not at all. Implementations enforce that
/// e-mails are unique (``HearthError/Code/emailExists``) and that a provider identity belongs to at
/// most one user (``HearthError/Code/federatedUserIDAlreadyLinked`` is the caller's check; the store
/// reports a conflict as ``StoreConflict``).
public protocol AccountStore: Sendable {
    /// Inserts a new user, and the session of its first sign-in when given.
    func createUser(_ user: UserRecord, session: RefreshSessionRecord?) async throws

    /// Reads the user, lets `mutate` change it, and writes the result back, all in one transaction.
    /// `session` (if any) is stored in the same transaction. Returns the user as written.
    /// Throws ``HearthError/Code/userNotFound`` when there is no such user; errors thrown by
    /// `mutate` abort the transaction.
    @discardableResult
    func updateUser(
        uid: String, session: RefreshSessionRecord?,
        _ mutate: @escaping @Sendable (inout UserRecord) throws -> Void
    ) async throws -> UserRecord

    /// Deletes the user with its links and sessions. Returns whether there was such a user.
    @discardableResult
    func deleteUser(uid: String) async throws -> Bool

    func user(uid: String) async throws -> UserRecord?
    func user(email: String) async throws -> UserRecord?
    func user(providerID: String, rawID: String) async throws -> UserRecord?
    /// Users whose top-level e-mail or any provider e-mail is `email`.
    func users(anyEmail email: String) async throws -> [UserRecord]

    func insertSession(_ session: RefreshSessionRecord) async throws
    func session(tokenHash: String) async throws -> RefreshSessionRecord?

    /// Gives every anonymous user without a deletion date the date `max(createdAt + age, notBefore)`.
    /// Returns how many users were scheduled.
    func scheduleAnonymousDeletion(olderThan age: TimeInterval, notBefore: Date) async throws -> Int
    /// Deletes up to `limit` users whose deletion date has passed and who are still anonymous.
    func deleteScheduledAnonymousUsers(now: Date, limit: Int) async throws -> [String]

    func countUsers() async throws -> Int
}

/// A uniqueness rule the store refused to break.
public enum StoreConflict: Error, Sendable, Equatable {
    case uid
    case email
    case providerIdentity
}

/// Token-signing keys.
public protocol SigningKeyStore: Sendable {
    func signingKeys() async throws -> [SigningKeyRecord]
    func insertSigningKey(_ key: SigningKeyRecord) async throws
    /// Changes when an existing key stops signing (and so when it expires).
    func retireSigningKey(kid: String, retiresAt: Date, expiresAt: Date) async throws
    func deleteSigningKeys(expiredBefore: Date) async throws -> Int
}

/// Small named values the server keeps across restarts (for example when clean-up was switched on).
public protocol SettingStore: Sendable {
    func setting(_ name: String) async throws -> String?
    func setSetting(_ name: String, to value: String?) async throws
}

/// Everything the server keeps, behind one value.
public protocol HearthStore: AccountStore, SigningKeyStore, SettingStore {
    func close() async throws
}
