import Crypto
import Foundation

/// Signing in to the console and keeping the operator signed in: e-mail and password, then an authenticator code or
/// a recovery code (each taken once); a session in a cookie with an idle and an absolute time-out.
///
/// Wrong passwords and wrong codes count against the operator and the client's address as a user's wrong passwords do
/// (``AbuseCounter``: the lockout of `abuse.lockout.*`, subjects of their own for operators).
public struct ConsoleSignIn: Sendable {
    public let store: any OperatorStore
    public let passwords: any PasswordChecking
    public let totp: TOTPCodes
    public let secrets: OperatorSecrets
    public let abuse: AbuseCounter
    public let audit: any AuditRecording
    public let clock: WallClock
    public var timeouts: Timeouts

    /// How long sessions last.
    public struct Timeouts: Sendable, Equatable {
        /// Without a request for this long a session ends.
        public var idle: TimeInterval
        /// A session ends this long after it began, however busy.
        public var absolute: TimeInterval
        /// How long the code may take after the password.
        public var code: TimeInterval

        public init(idle: TimeInterval = 30 * 60, absolute: TimeInterval = 12 * 3_600, code: TimeInterval = 5 * 60) {
            self.idle = idle
            self.absolute = absolute
            self.code = code
        }
    }

    public init(
        store: any OperatorStore, passwords: any PasswordChecking, totp: TOTPCodes, secrets: OperatorSecrets, abuse: AbuseCounter,
        audit: any AuditRecording, clock: WallClock, timeouts: Timeouts = Timeouts()
    ) {
        self.store = store
        self.passwords = passwords
        self.totp = totp
        self.secrets = secrets
        self.abuse = abuse
        self.audit = audit
        self.clock = clock
        self.timeouts = timeouts
    }

    /// Why a step of signing in was refused. Locked-out attempts throw the lockout's `HearthError` instead
    /// (`TOO_MANY_ATTEMPTS_TRY_LATER`, `retryAfter` set).
    public enum Refusal: Error, Sendable, Equatable {
        /// No operator with that e-mail, or a wrong password: the two are not told apart.
        case wrongCredentials
        /// Neither the authenticator's current code nor an unused recovery code.
        case wrongCode
        /// The step before was too long ago, or never happened: start again.
        case expired
    }

    /// A signed-in operator's session as a request sees it.
    public struct Session: Sendable, Equatable {
        public let record: ConsoleSessionRecord
        public let `operator`: OperatorRecord
        /// The token every form of the session carries (``csrfToken(for:)``).
        public let csrfToken: String
    }

    /// The password step: a new session awaiting the code, as the token for the cookie.
    public func checkPassword(email: String, password: String, address: String?) async throws -> String {
        let normalized = EmailAddress.normalize(email)
        let subject = Self.lockoutSubject(normalized ?? "invalid")
        let reservation = try await abuse.reservePasswordAttempt(email: subject, address: address ?? "unknown")
        guard let normalized, UserText.isStorable(password), let record = try await store.consoleOperator(email: normalized) else {
            try await passwords.verifyDecoy(password)
            await failed(nil, reason: "unknown-operator", address: address)
            throw Refusal.wrongCredentials
        }
        guard try await passwords.verify(password, against: record.passwordHash) else {
            await failed(record, reason: "wrong-password", address: address)
            throw Refusal.wrongCredentials
        }
        try await abuse.passwordAttemptSucceeded(reservation, email: subject, address: address ?? "unknown")
        let now = clock.now
        let token = Self.makeToken()
        try await store.insertConsoleSession(
            ConsoleSessionRecord(tokenHash: Self.hash(token), operatorID: record.id, stage: .awaitingCode, createdAt: now, lastSeenAt: now))
        return token
    }

    /// The code step, for the session of `pendingToken`: an authenticator code of now (or the period before or after)
    /// that was not used before, or a recovery code not used before. Returns the signed-in session's token: a new
    /// one, so that the token of the half-way session is worth nothing.
    public func checkCode(pendingToken: String, code: String, address: String?) async throws -> String {
        let now = clock.now
        guard let (pending, record) = try await store.consoleSession(tokenHash: Self.hash(pendingToken)), pending.stage == .awaitingCode,
            now.timeIntervalSince(pending.createdAt) <= timeouts.code
        else { throw Refusal.expired }
        let subject = Self.lockoutSubject(record.email)
        let reservation = try await abuse.reservePasswordAttempt(email: subject, address: address ?? "unknown")
        let typed = code.trimmingCharacters(in: .whitespaces)
        let method: String
        if typed.utf8.count == TOTPCodes.digits, typed.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            let secret = try secrets.open(record.totpSecret, operatorID: record.id)
            guard let step = totp.matchingStep(typed, secret: secret, at: now, adjacentIntervals: 1),
                try await take(
                    { record in
                        guard record.lastCodeStep.map({ step > $0 }) ?? true else { return false }
                        record.lastCodeStep = step
                        return true
                    }, operatorID: record.id)
            else {
                await failed(record, reason: "wrong-code", address: address)
                throw Refusal.wrongCode
            }
            method = "totp"
        } else {
            guard let hash = RecoveryCodes.matchingHash(typed, uid: record.recoveryCodeSubject, in: record.recoveryCodeHashes),
                try await take(
                    { record in
                        guard let index = record.recoveryCodeHashes.firstIndex(of: hash) else { return false }
                        record.recoveryCodeHashes.remove(at: index)
                        return true
                    }, operatorID: record.id)
            else {
                await failed(record, reason: "wrong-code", address: address)
                throw Refusal.wrongCode
            }
            method = "recovery-code"
        }
        try await abuse.passwordAttemptSucceeded(reservation, email: subject, address: address ?? "unknown")
        try await store.deleteConsoleSession(tokenHash: pending.tokenHash)
        let token = Self.makeToken()
        try await store.insertConsoleSession(
            ConsoleSessionRecord(tokenHash: Self.hash(token), operatorID: record.id, stage: .signedIn, createdAt: now, lastSeenAt: now))
        try await store.updateConsoleOperator(id: record.id) { $0.lastSignInAt = now }
        try await pruneSessions()
        var details = ["operator": record.email]
        if method == "recovery-code" { details["recoveryCodesLeft"] = String(record.recoveryCodeHashes.count - 1) }
        await audit.record(
            AuditEvent(
                time: now, kind: .consoleSignedIn, actor: .administrator, actorID: record.actorID, method: method, clientAddress: address,
                details: details))
        return token
    }

    /// The signed-in session of `token`, its last request moved to now; `nil` when there is none, it is half-way, or
    /// it timed out (then it is deleted).
    public func session(token: String) async throws -> Session? {
        guard Self.isToken(token) else { return nil }
        let hash = Self.hash(token)
        guard let (record, holder) = try await store.consoleSession(tokenHash: hash), record.stage == .signedIn else { return nil }
        let now = clock.now
        guard now.timeIntervalSince(record.lastSeenAt) <= timeouts.idle, now.timeIntervalSince(record.createdAt) <= timeouts.absolute else {
            try await store.deleteConsoleSession(tokenHash: hash)
            return nil
        }
        // One write a minute at most: the idle time-out is counted in minutes.
        if now.timeIntervalSince(record.lastSeenAt) >= 60 { try await store.touchConsoleSession(tokenHash: hash, at: now) }
        return Session(record: record, operator: holder, csrfToken: Self.csrfToken(for: token))
    }

    /// Whether `token` is a session awaiting its code (the sign-in page's second step).
    public func isAwaitingCode(_ token: String) async throws -> Bool {
        guard Self.isToken(token), let (record, _) = try await store.consoleSession(tokenHash: Self.hash(token)) else { return false }
        return record.stage == .awaitingCode && clock.now.timeIntervalSince(record.createdAt) <= timeouts.code
    }

    /// Ends the session of `token`.
    public func signOut(token: String) async throws {
        guard Self.isToken(token) else { return }
        try await store.deleteConsoleSession(tokenHash: Self.hash(token))
    }

    // MARK: Tokens

    /// A new session token: 32 random bytes as 64 lower-case hex digits.
    public static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let digits = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
    }

    /// Whether `text` has the form of a token.
    public static func isToken(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// What the store keeps of `token`.
    public static func hash(_ token: String) -> String {
        HexDigits.lowercase(SHA256.hash(data: Data(token.utf8)))
    }

    /// The form token of the session of `token`: bound to it, and worth nothing to find the token with.
    public static func csrfToken(for token: String) -> String {
        HexDigits.lowercase(SHA256.hash(data: Data("hearth-console-csrf:\(token)".utf8)))
    }

    /// Whether `presented` is the form token of `expected`, compared in full.
    public static func csrfMatches(_ presented: String, _ expected: String) -> Bool {
        constantTimeEqual(presented.utf8, expected.utf8)
    }

    /// The lockout's subject for an operator: apart from a user with the same e-mail.
    static func lockoutSubject(_ email: String) -> String { "console-operator/\(email)" }

    // MARK: Steps

    /// Changes the operator in one transaction when `change` says so; whether it did.
    private func take(_ change: @escaping @Sendable (inout OperatorRecord) -> Bool, operatorID: String) async throws -> Bool {
        let taken = LockedBox(false)
        try await store.updateConsoleOperator(id: operatorID) { record in
            taken.withLock { $0 = false }
            if change(&record) { taken.withLock { $0 = true } }
        }
        return taken.withLock { $0 }
    }

    private func failed(_ record: OperatorRecord?, reason: String, address: String?) async {
        var details = ["reason": reason]
        if let record { details["operator"] = record.email }
        await audit.record(
            AuditEvent(
                time: clock.now, kind: .consoleSignInFailed, actor: .administrator, actorID: record?.actorID, clientAddress: address,
                details: details))
    }
}
