import Foundation
import HearthCore

/// The accounts, counters and action codes of the use-case tests, kept in memory with the store's rules: one lock
/// makes each call one transaction, e-mails, phone numbers and provider identities are unique (``StoreConflict``).
final class MemoryAccounts: AccountStore, RateCounterStore, LoginFailureStore, ActionCodeStore, PhoneVerificationStore, MultiFactorSessionStore,
    PasskeyStore, @unchecked Sendable
{
    private struct State {
        var users: [String: UserRecord] = [:]
        var sessions: [String: RefreshSessionRecord] = [:]
        var counters: [String: Int] = [:]
        var failures: [String: LoginFailureRecord] = [:]
        var codes: [String: ActionCodeRecord] = [:]
        var phoneVerifications: [String: PhoneVerificationRecord] = [:]
        var multiFactorSessions: [String: MultiFactorSessionRecord] = [:]
        var passkeys: [String: PasskeyCredential] = [:]
    }
    private let state = LockedBox(State())
    /// Runs inside ``updateUser(uid:session:_:)`` before the change, once: a test's way to change the account between
    /// a use case's reads and its write.
    let beforeNextUpdate = LockedBox<(@Sendable (inout UserRecord) -> Void)?>(nil)

    private static func check(_ user: UserRecord, against others: some Sequence<UserRecord>) throws {
        for other in others where other.uid != user.uid {
            if let email = user.email, other.email == email { throw StoreConflict.email }
            if let phone = user.phoneNumber, other.phoneNumber == phone { throw StoreConflict.phoneNumber }
            for link in user.providers where other.providers.contains(where: { $0.providerID == link.providerID && $0.rawID == link.rawID }) {
                throw StoreConflict.providerIdentity
            }
        }
    }

    func createUser(_ user: UserRecord, session: RefreshSessionRecord?) async throws {
        try state.withLock { state in
            if state.users[user.uid] != nil { throw StoreConflict.uid }
            try Self.check(user, against: state.users.values)
            state.users[user.uid] = user
            if let session { state.sessions[session.tokenHash] = session }
        }
    }

    func updateUser(
        uid: String, session: RefreshSessionRecord?, startsSession: @escaping @Sendable (UserRecord) -> Bool,
        _ mutate: @escaping @Sendable (inout UserRecord) throws -> Void
    ) async throws -> UserRecord {
        let meddle = beforeNextUpdate.withLock { hook in
            defer { hook = nil }
            return hook
        }
        return try state.withLock { state in
            guard var user = state.users[uid] else { throw HearthError(.userNotFound) }
            meddle?(&user)
            state.users[uid] = user
            try mutate(&user)
            try Self.check(user, against: state.users.values)
            state.users[uid] = user
            if let session, startsSession(user) { state.sessions[session.tokenHash] = session }
            return user
        }
    }

    func insertMultiFactorSession(_ record: MultiFactorSessionRecord) async throws {
        state.withLock { $0.multiFactorSessions[record.key] = record }
    }
    func multiFactorSession(key: String) async throws -> MultiFactorSessionRecord? { state.withLock { $0.multiFactorSessions[key] } }
    func reserveMultiFactorAttempt(key: String) async throws -> MultiFactorAttempt {
        state.withLock { state in
            guard var record = state.multiFactorSessions[key] else { return .unknown }
            guard record.attemptsLeft > 0 else { return .spent }
            record.attemptsLeft -= 1
            state.multiFactorSessions[key] = record
            return .reserved(record)
        }
    }
    func spendMultiFactorSession(key: String) async throws -> Bool { state.withLock { $0.multiFactorSessions.removeValue(forKey: key) != nil } }

    func deleteUser(uid: String) async throws -> Bool { state.withLock { $0.users.removeValue(forKey: uid) != nil } }
    func user(uid: String) async throws -> UserRecord? { state.withLock { $0.users[uid] } }
    func user(email: String) async throws -> UserRecord? { state.withLock { $0.users.values.first { $0.email == email } } }
    func user(providerID: String, rawID: String) async throws -> UserRecord? {
        state.withLock { $0.users.values.first { $0.providers.contains { $0.providerID == providerID && $0.rawID == rawID } } }
    }
    func users(anyEmail email: String) async throws -> [UserRecord] {
        state.withLock { $0.users.values.filter { $0.email == email || $0.providers.contains { $0.email == email } } }
    }
    func user(phoneNumber: String) async throws -> UserRecord? { state.withLock { $0.users.values.first { $0.phoneNumber == phoneNumber } } }
    func users(after uid: String?, limit: Int) async throws -> [UserRecord] {
        state.withLock { Array($0.users.values.filter { uid == nil || $0.uid > uid! }.sorted { $0.uid < $1.uid }.prefix(limit)) }
    }
    func users(matching query: UserQuery) async throws -> [UserRecord] {
        let matching = state.withLock { state in state.users.values.filter { Self.matches($0, query.filter) } }
        func key(_ user: UserRecord) -> String {
            switch query.sortKey {
            case .uid: user.uid
            case .displayName: user.displayName ?? ""
            case .email: user.email ?? ""
            case .createdAt: String(format: "%020.3f", user.createdAt.timeIntervalSince1970)
            case .lastLoginAt: String(format: "%020.3f", user.lastLoginAt?.timeIntervalSince1970 ?? 0)
            }
        }
        let sorted = matching.sorted { (key($0), $0.uid) < (key($1), $1.uid) }
        return Array((query.descending ? sorted.reversed() : sorted).dropFirst(query.offset).prefix(query.limit))
    }
    func users(newestBy key: UserQuery.SortKey, after cursor: UserListCursor?, limit: Int) async throws -> [UserRecord] {
        let all = state.withLock { Array($0.users.values) }
        func time(_ user: UserRecord) -> Date { (key == .lastLoginAt ? user.lastLoginAt : user.createdAt) ?? .distantPast }
        let sorted = all.sorted { time($0) != time($1) ? time($0) > time($1) : $0.uid > $1.uid }
        guard let cursor, let index = sorted.firstIndex(where: { $0.uid == cursor.uid }) else { return Array(sorted.prefix(limit)) }
        return Array(sorted.dropFirst(index + 1).prefix(limit))
    }
    func users(emailPrefix prefix: String, limit: Int) async throws -> [UserRecord] {
        let all = state.withLock { Array($0.users.values) }
        return Array(all.filter { $0.email?.hasPrefix(prefix) ?? false }.sorted { ($0.email ?? "") < ($1.email ?? "") }.prefix(limit))
    }
    func countUsers(matching filter: UserQuery.Filter?) async throws -> Int {
        state.withLock { state in state.users.values.filter { Self.matches($0, filter) }.count }
    }
    private static func matches(_ user: UserRecord, _ filter: UserQuery.Filter?) -> Bool {
        switch filter {
        case nil: true
        case .uid(let uid): user.uid == uid
        case .email(let email): user.email == email
        case .phoneNumber(let phone): user.phoneNumber == phone
        }
    }
    func insertSession(_ session: RefreshSessionRecord) async throws { state.withLock { $0.sessions[session.tokenHash] = session } }
    func session(tokenHash: String) async throws -> RefreshSessionRecord? { state.withLock { $0.sessions[tokenHash] } }
    func scheduleAnonymousDeletion(olderThan age: TimeInterval, notBefore: Date) async throws -> Int { 0 }
    func deleteScheduledAnonymousUsers(now: Date, limit: Int) async throws -> [String] { [] }
    func countUsers() async throws -> Int { state.withLock { $0.users.count } }
    var sessionCount: Int { state.withLock { $0.sessions.count } }

    func incrementCounter(_ key: String, window: TimeInterval, now: Date) async throws -> Int {
        let start = (now.timeIntervalSince1970 / window).rounded(.down)
        return state.withLock { state in
            state.counters["\(key)@\(start)", default: 0] += 1
            return state.counters["\(key)@\(start)"]!
        }
    }
    func counter(_ key: String, window: TimeInterval, now: Date) async throws -> Int {
        let start = (now.timeIntervalSince1970 / window).rounded(.down)
        return state.withLock { $0.counters["\(key)@\(start)"] ?? 0 }
    }
    func pruneCounters(before: Date) async throws {}

    func updateLoginFailures<T: Sendable>(
        _ subjects: [String],
        _ change: @escaping @Sendable ([String: LoginFailureRecord]) throws -> (records: [String: LoginFailureRecord?], result: T)
    ) async throws -> T {
        try state.withLock { state in
            let (records, result) = try change(state.failures.filter { subjects.contains($0.key) })
            for (subject, record) in records { state.failures[subject] = record }
            return result
        }
    }
    func loginFailures(_ subjects: [String]) async throws -> [String: LoginFailureRecord] {
        state.withLock { $0.failures.filter { subjects.contains($0.key) } }
    }
    func deleteLoginFailures(_ subjects: [String]) async throws -> Int {
        state.withLock { state in subjects.filter { state.failures.removeValue(forKey: $0) != nil }.count }
    }
    func pruneLoginFailures(lastFailureBefore before: Date, now: Date) async throws -> Int { 0 }

    func insertActionCode(_ record: ActionCodeRecord) async throws { state.withLock { $0.codes[record.codeHash] = record } }
    func actionCode(hash: String) async throws -> ActionCodeRecord? { state.withLock { $0.codes[hash] } }
    func consumeActionCode(hash: String) async throws -> ActionCodeRecord? { state.withLock { $0.codes.removeValue(forKey: hash) } }
    func deleteActionCodes(uid: String, kinds: Set<ActionCodeKind>) async throws -> Int { 0 }
    func deleteActionCodes(expiredBefore date: Date) async throws -> Int { 0 }

    func insertPasskey(_ credential: PasskeyCredential) async throws -> Bool {
        state.withLock { state in
            guard state.passkeys[credential.credentialID] == nil else { return false }
            state.passkeys[credential.credentialID] = credential
            return true
        }
    }
    func passkey(credentialID: String) async throws -> PasskeyCredential? { state.withLock { $0.passkeys[credentialID] } }
    func passkeys(uid: String) async throws -> [PasskeyCredential] {
        state.withLock { $0.passkeys.values.filter { $0.uid == uid }.sorted { $0.createdAt < $1.createdAt } }
    }
    func recordPasskeyUse(credentialID: String, signCount: UInt32, backedUp: Bool, at time: Date) async throws -> Bool {
        state.withLock { state in
            guard var passkey = state.passkeys[credentialID] else { return false }
            (passkey.signCount, passkey.backedUp, passkey.lastUsedAt) = (signCount, backedUp, time)
            state.passkeys[credentialID] = passkey
            return true
        }
    }
    func deletePasskey(uid: String, credentialID: String) async throws -> Bool {
        state.withLock { state in
            guard state.passkeys[credentialID]?.uid == uid else { return false }
            return state.passkeys.removeValue(forKey: credentialID) != nil
        }
    }

    func insertPhoneVerification(_ record: PhoneVerificationRecord) async throws {
        state.withLock { state in
            state.phoneVerifications = state.phoneVerifications.filter { $0.value.expiresAt >= record.createdAt }
            state.phoneVerifications[record.key] = record
        }
    }
    func checkPhoneCode(key: String, codeHash: String) async throws -> PhoneCodeCheck {
        state.withLock { state in
            guard var record = state.phoneVerifications[key], record.kind == .code else { return .unknown }
            guard record.attemptsLeft > 0 else { return .spent }
            record.attemptsLeft = record.codeHash == codeHash ? 0 : record.attemptsLeft - 1
            state.phoneVerifications[key] = record
            return record.codeHash == codeHash ? .verified(record) : .wrongCode(attemptsLeft: record.attemptsLeft, expiresAt: record.expiresAt)
        }
    }
    func reservePhoneAttempt(key: String) async throws -> PhoneAttemptReservation {
        state.withLock { state in
            guard var record = state.phoneVerifications[key], record.kind == .external else { return .unknown }
            guard record.attemptsLeft > 0 else { return .spent }
            record.attemptsLeft -= 1
            state.phoneVerifications[key] = record
            return .reserved(record)
        }
    }
    func spendPhoneSession(key: String) async throws -> Bool {
        state.withLock { state in
            guard var record = state.phoneVerifications[key], record.kind == .external, record.attemptsLeft >= 0 else { return false }
            record.attemptsLeft = -1
            state.phoneVerifications[key] = record
            return true
        }
    }
    func phoneProof(key: String) async throws -> PhoneVerificationRecord? {
        state.withLock { state in state.phoneVerifications[key].flatMap { $0.kind == .proof ? $0 : nil } }
    }
    func consumePhoneProof(key: String) async throws -> PhoneVerificationRecord? {
        state.withLock { state in
            guard state.phoneVerifications[key]?.kind == .proof else { return nil }
            return state.phoneVerifications.removeValue(forKey: key)
        }
    }
    func deletePhoneVerifications(expiredBefore date: Date) async throws -> Int { 0 }
    var phoneVerificationCount: Int { state.withLock { $0.phoneVerifications.count } }
}

/// The codes a phone sign-in sent, as an SMS gateway would have received them.
final class RecordedTexts: VerificationCodeSending, @unchecked Sendable {
    let sent = LockedBox<[VerificationCodeMessage]>([])
    func send(_ message: VerificationCodeMessage) async throws { sent.withLock { $0.append(message) } }
    var last: VerificationCodeMessage? { sent.withLock { $0.last } }
    var count: Int { sent.withLock { $0.count } }
}

/// Tokens of the use-case tests: an ID token names its user (`token:<uid>:<auth_time>`). Signing is HearthTokens'
/// (and tested there); here only which user a token stands for matters.
struct PlainTokens: IDTokenMinting, IDTokenAuthenticating {
    let store: MemoryAccounts
    var idTokenLifetime: TimeInterval { 3_600 }

    func mintIDToken(
        for user: UserRecord, signInProvider: String, authTime: Date, sessionClaims: [String: JSONValue], secondFactor: SecondFactorUse?
    ) async throws -> String {
        "token:\(user.uid):\(Int64(authTime.timeIntervalSince1970))"
    }

    func authenticate(_ idToken: String) async throws -> AuthenticatedUser {
        let parts = idToken.split(separator: ":")
        guard parts.count == 3, parts[0] == "token", let authTime = Int64(parts[2]) else { throw HearthError(.invalidIDToken) }
        guard let user = try await store.user(uid: String(parts[1])) else { throw HearthError(.userNotFound) }
        if user.disabled { throw HearthError(.userDisabled) }
        return AuthenticatedUser(user: user, authTime: authTime, signInProvider: "password")
    }
}

/// The project's settings, changed by a test.
final class TestSettings: ProjectSettingsReading, @unchecked Sendable {
    let box = LockedBox(
        ProjectSettings(
            anonymousEnabled: true, passwordEnabled: true, emailEnumerationProtection: true, oneAccountPerEmail: true,
            anonymousCleanupEnabled: false, emailLinkEnabled: true, phoneEnabled: true, testPhoneNumbers: ["+16505551234": "123456"]))
    func projectSettings() async throws -> ProjectSettings { box.withLock { $0 } }
    func change(_ body: (inout ProjectSettings) -> Void) { box.withLock(body) }
}

/// Real scrypt at a test cost, with the checks counted.
final class CountedPasswords: PasswordChecking, @unchecked Sendable {
    let hasher = PasswordHasher.fastForTesting
    let counts = LockedBox((real: 0, decoy: 0))
    func hash(_ password: String) async throws -> String { try hasher.hash(password) }
    func verify(_ password: String, against hash: String) async throws -> Bool {
        counts.withLock { $0.real += 1 }
        return hasher.verify(password, against: hash)
    }
    func verifyDecoy(_ password: String) async throws {
        counts.withLock { $0.decoy += 1 }
        _ = hasher.verify(password, against: try hasher.hash("decoy"))
    }
    func needsRehash(_ hash: String) -> Bool { hasher.needsRehash(hash) }
}

/// The audit events recorded.
final class RecordedAudit: AuditRecording, @unchecked Sendable {
    let events = LockedBox<[AuditEvent]>([])
    func record(_ event: AuditEvent) async { events.withLock { $0.append(event) } }
    var kinds: [AuditEvent.Kind] { events.withLock { $0.map(\.kind) } }
}

/// Every use case on one memory store.
struct SignInKit {
    let store = MemoryAccounts()
    let clock = ManualClock()
    let settings = TestSettings()
    let passwords = CountedPasswords()
    let audit = RecordedAudit()
    let texts = RecordedTexts()
    /// Whether the phone sign-in has ``texts`` to send codes with.
    var sendsTexts = true
    let origin = ClientOrigin(counterAddress: "203.0.113.7", audit: AuditOrigin(address: "203.0.113.7"))
    var limitsEnabled = true
    var limits = AbuseLimits()

    var tokens: PlainTokens { PlainTokens(store: store) }
    var abuse: AbuseCounter {
        AbuseCounter(
            store: store, clock: clock.wallClock, limitsEnabled: limitsEnabled, limits: limits,
            lockout: PasswordLockout(
                account: LockoutPolicy(failuresBeforeWait: 3), address: LockoutPolicy(failuresBeforeWait: 100, successForgivesEarlierFailures: false),
                ownerFromNewAddress: true))
    }
    var completion: SignInCompletion { SignInCompletion(store: store, tokens: tokens, audit: audit, clock: clock.wallClock) }
    var signUp: SignUp {
        SignUp(
            settings: settings, store: store, passwords: passwords, abuse: abuse, idTokens: tokens, completion: completion,
            anonymousMaxAge: 30 * 86_400, recentLoginWindow: 300)
    }
    var passwordSignIn: PasswordSignIn {
        PasswordSignIn(settings: settings, store: store, passwords: passwords, abuse: abuse, audit: audit, completion: completion)
    }
    var federated: FederatedSignIn {
        FederatedSignIn(settings: settings, store: store, abuse: abuse, idTokens: tokens, completion: completion)
    }
    var phone: PhoneSignIn {
        PhoneSignIn(settings: settings, store: store, sender: sendsTexts ? texts : nil, abuse: abuse, idTokens: tokens, completion: completion)
    }
    var emailLink: EmailLinkSignIn {
        EmailLinkSignIn(
            settings: settings, store: store, codes: ActionCodes(store: store, clock: clock.wallClock), abuse: abuse, idTokens: tokens,
            completion: completion)
    }
}

/// The code of the HearthError `body` throws; `nil` when it throws none.
func errorCode(_ body: () async throws -> some Any) async -> HearthError.Code? {
    do {
        _ = try await body()
        return nil
    } catch let error as HearthError {
        return error.code
    } catch {
        return .internalError
    }
}

/// The HearthError `body` throws; `nil` when it throws none or another error.
func hearthError(_ body: () async throws -> some Any) async -> HearthError? {
    do {
        _ = try await body()
        return nil
    } catch let error as HearthError {
        return error
    } catch {
        return nil
    }
}
