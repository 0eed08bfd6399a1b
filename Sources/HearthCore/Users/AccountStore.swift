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
    /// `startsSession` tells, from the user as written, whether `session` is stored (a sign-in that needs a second
    /// factor writes the account but starts no session).
    @discardableResult
    func updateUser(
        uid: String, session: RefreshSessionRecord?, startsSession: @escaping @Sendable (UserRecord) -> Bool,
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
    func user(phoneNumber: String) async throws -> UserRecord?
    /// Up to `limit` users in uid order (byte order), those after `uid` when given: one page of a listing.
    func users(after uid: String?, limit: Int) async throws -> [UserRecord]
    /// The page of users `query` asks for, in its order, with their links: sorted and paged by the
    /// database (an index per sort key), so a page never holds more than `query.limit` users in memory.
    func users(matching query: UserQuery) async throws -> [UserRecord]
    /// Up to `limit` users newest first by `key` (``UserQuery/SortKey/createdAt`` or ``UserQuery/SortKey/lastLoginAt``:
    /// never signed in last), ties by uid (byte order, descending), those after `cursor` when given: one page of the
    /// console's listing, read from the key's index.
    func users(newestBy key: UserQuery.SortKey, after cursor: UserListCursor?, limit: Int) async throws -> [UserRecord]
    /// Up to `limit` users whose e-mail starts with `prefix` (lower-cased), by e-mail: the console's search.
    func users(emailPrefix prefix: String, limit: Int) async throws -> [UserRecord]
    /// How many users `filter` matches; all users without one.
    func countUsers(matching filter: UserQuery.Filter?) async throws -> Int

    func insertSession(_ session: RefreshSessionRecord) async throws
    func session(tokenHash: String) async throws -> RefreshSessionRecord?
    /// The session of `tokenHash` and its user (`nil` when the user is gone), read together: one
    /// round trip for the refresh endpoint. The default asks ``session(tokenHash:)`` then ``user(uid:)``.
    func sessionWithUser(tokenHash: String) async throws -> (session: RefreshSessionRecord, user: UserRecord?)?

    /// Gives every anonymous user without a deletion date the date `max(createdAt + age, notBefore)`.
    /// Returns how many users were scheduled.
    func scheduleAnonymousDeletion(olderThan age: TimeInterval, notBefore: Date) async throws -> Int
    /// Deletes up to `limit` users whose deletion date has passed and who are still anonymous.
    func deleteScheduledAnonymousUsers(now: Date, limit: Int) async throws -> [String]

    func countUsers() async throws -> Int

    /// Records a refresh of user `uid`'s ID token at `time` (``UserRecord/lastRefreshAt``) unless a later one is
    /// recorded already; nothing when there is no such user. The default updates the user.
    func recordRefresh(uid: String, at time: Date) async throws
}

extension AccountStore {
    /// ``updateUser(uid:session:startsSession:_:)`` that stores `session` whatever the user.
    @discardableResult
    public func updateUser(
        uid: String, session: RefreshSessionRecord?, _ mutate: @escaping @Sendable (inout UserRecord) throws -> Void
    ) async throws -> UserRecord {
        try await updateUser(uid: uid, session: session, startsSession: { _ in true }, mutate)
    }
}

extension AccountStore {
    public func recordRefresh(uid: String, at time: Date) async throws {
        do {
            try await updateUser(uid: uid, session: nil) { user in
                if user.lastRefreshAt.map({ $0 < time }) ?? true { user.lastRefreshAt = time }
            }
        } catch let error as HearthError where error.code == .userNotFound {
            return
        }
    }

    public func sessionWithUser(tokenHash: String) async throws -> (session: RefreshSessionRecord, user: UserRecord?)? {
        guard let session = try await session(tokenHash: tokenHash) else { return nil }
        return (session, try await user(uid: session.uid))
    }
}

/// A uniqueness rule the store refused to break.
public enum StoreConflict: Error, Sendable, Equatable {
    case uid
    case email
    case phoneNumber
    case providerIdentity

    /// The error a client gets for the conflict: `EMAIL_EXISTS` for an e-mail of another account,
    /// `PHONE_NUMBER_EXISTS` for its phone number, `FEDERATED_USER_ID_ALREADY_LINKED` for a provider
    /// identity linked to another account. A uid taken is an internal error: new uids are random, and the
    /// callers that choose one (custom tokens, an administrator's create) check it first.
    public var error: HearthError {
        switch self {
        case .email: HearthError(.emailExists, reason: "e-mail taken in the write")
        case .phoneNumber: HearthError(.phoneNumberExists, reason: "phone number taken in the write")
        case .providerIdentity: HearthError(.federatedUserIDAlreadyLinked, reason: "identity taken in the write")
        case .uid: HearthError(.internalError, reason: "uid taken in the write")
        }
    }

    /// Runs `write`, a store write, with a conflict it meets thrown as its ``error``.
    public static func mapped<T>(_ write: () async throws -> T) async throws -> T {
        do {
            return try await write()
        } catch let conflict as StoreConflict {
            throw conflict.error
        }
    }
}

/// Token-signing keys. Records come and go with their private keys in plain text; a store given a
/// ``SecretSealer`` keeps them sealed at rest.
public protocol SigningKeyStore: Sendable {
    func signingKeys() async throws -> [SigningKeyRecord]
    func insertSigningKey(_ key: SigningKeyRecord) async throws
    /// Changes when an existing key stops signing (and so when it expires).
    func retireSigningKey(kid: String, retiresAt: Date, expiresAt: Date) async throws
    func deleteSigningKeys(expiredBefore: Date) async throws -> Int

    /// Reads all keys, lets `change` decide, and applies what it returns, in ONE write transaction
    /// that is exclusive across every process sharing the database (PostgreSQL: an advisory
    /// transaction lock; SQLite: the single writer). Replicas that call this at the same time run one
    /// after the other, each seeing what the previous one committed, so they never race to create
    /// competing current keys.
    ///
    /// `change` may run again if the database asks for a retry, so it must not have side effects.
    /// Errors it throws abort the transaction and are rethrown.
    ///
    /// - Returns: the change as applied; `nil` when `change` returned `nil` or an empty change.
    @discardableResult
    func updateSigningKeys(
        _ change: @escaping @Sendable ([SigningKeyRecord]) throws -> SigningKeyChange?
    ) async throws -> SigningKeyChange?
}

/// Small named values the server keeps across restarts (for example when clean-up was switched on).
/// Values named by ``SecretSealer/sealedSettingPrefixes`` hold secrets: a store given a ``SecretSealer``
/// keeps them sealed at rest, and callers always see plain text.
public protocol SettingStore: Sendable {
    func setting(_ name: String) async throws -> String?
    func setSetting(_ name: String, to value: String?) async throws
    /// Stores `value` under `name` unless the name is taken; returns whether it stored it. Atomic across replicas.
    func insertSetting(_ name: String, value: String) async throws -> Bool
    /// Every setting whose name starts with `prefix`, by name.
    func settings(withPrefix prefix: String) async throws -> [String: String]
}

/// Counters for abuse limits, shared by every replica on the same database.
///
/// Windows are fixed: a window of length `window` starts at a multiple of `window` since 1970, and
/// every call whose `now` falls into it counts against the same row `(key, windowStart)`. Use one
/// window length per key (include it in the key when a limit has several).
public protocol RateCounterStore: Sendable {
    /// Adds one to the counter of `key` in the window containing `now` and returns the new count
    /// (1 for the first hit). Atomic across replicas.
    func incrementCounter(_ key: String, window: TimeInterval, now: Date) async throws -> Int

    /// The count of `key` in the window containing `now` (0 when nothing was counted).
    func counter(_ key: String, window: TimeInterval, now: Date) async throws -> Int

    /// Deletes the counters of windows that ended at or before `before`.
    func pruneCounters(before: Date) async throws
}

/// Leadership for work only one replica should do at a time (clean-up, key rotation, …).
public protocol LeaderLockStore: Sendable {
    /// Runs `body` while holding the lock `name`, or returns `nil` at once when another holder
    /// (another replica, or another call in this process) has it. The lock is released when `body`
    /// returns or throws.
    ///
    /// PostgreSQL: a session advisory lock on one dedicated pooled connection for the duration
    /// (if that connection is lost meanwhile, the database releases the lock). SQLite: one process
    /// owns the file, so `body` simply runs.
    func withLeaderLock<T: Sendable>(_ name: String, _ body: @Sendable () async throws -> T) async throws -> T?
}

/// Bulk access for copying a whole store into another (the `migrate-data` command) and checking
/// the result. See ``copy(to:batchSize:progress:)`` for the copy itself.
public protocol TransferStore: Sendable {
    /// Rows per table: `users`, `provider_links`, `refresh_sessions`, `signing_keys`, `settings`,
    /// `action_codes`, `mail_queue` and `rate_counters`, read from one snapshot.
    func counts() async throws -> [String: Int]

    /// Up to `limit` rows of `table` whose primary key sorts after `cursor` (all rows from the first
    /// when `nil`), in primary-key order. Users come with all their provider links.
    func exportBatch(_ table: TransferTable, after cursor: String?, limit: Int) async throws -> TransferBatch

    /// Inserts or replaces every row of `batch` by primary key, in one transaction. A user's links
    /// are replaced by the batch's. Uniqueness rules still hold (a different user with the same
    /// e-mail throws ``StoreConflict``), and sessions need their user to exist.
    func importBatch(_ batch: TransferBatch) async throws
}

/// Everything the server keeps, behind one value.
public protocol HearthStore: AccountStore, SigningKeyStore, SettingStore, RateCounterStore, CredentialReplayGuard, LeaderLockStore,
    TransferStore, AuthSessionStore, LoginFailureStore, ActionCodeStore, MailQueueStore, AuditStore, PhoneVerificationStore,
    SMSQueueStore, MultiFactorSessionStore, TenantStore, OperatorStore, PasskeyStore, ConsoleImportJobStore
{
    func close() async throws
}
