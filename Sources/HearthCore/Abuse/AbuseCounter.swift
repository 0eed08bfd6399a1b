import Foundation

/// Counts the per-address limits (``AbuseLimits``) and keeps the password lockout's records (``PasswordLockout``)
/// in the store every replica shares. Where the address comes from is the server's business; this is the rule.
public struct AbuseCounter: Sendable {
    public typealias Store = RateCounterStore & LoginFailureStore

    public let store: any Store
    public let clock: WallClock
    /// Whether the per-address ``limits`` apply (off in development mode, as the Firebase emulator has no quotas).
    public let limitsEnabled: Bool
    public let limits: AbuseLimits
    public let lockout: PasswordLockout

    public init(store: any Store, clock: WallClock, limitsEnabled: Bool, limits: AbuseLimits, lockout: PasswordLockout) {
        self.store = store
        self.clock = clock
        self.limitsEnabled = limitsEnabled
        self.limits = limits
        self.lockout = lockout
    }

    /// Counts one hit of `limit` for `address`; throws `TOO_MANY_ATTEMPTS_TRY_LATER` (or `refusal`) with
    /// `Retry-After` (the seconds until the window ends) once the window's count passes the limit.
    /// The hit is counted before anything else happens, so parallel requests cannot all slip under it.
    /// `address` is the counter's subject: a client address, or what else the limit counts per (a phone number).
    /// Returns the window's count so far, this hit included; `nil` when the limit is off.
    @discardableResult
    public func count(_ limit: KeyPath<AbuseLimits, RateLimit>, address: String, refusal: HearthError.Code = .tooManyAttempts) async throws
        -> Int?
    {
        let limit = limits[keyPath: limit]
        guard limitsEnabled, limit.isEnabled else { return nil }
        let now = clock.now
        let count = try await store.incrementCounter(limit.counterKey(address: address), window: limit.window, now: now)
        if limit.refuses(count: count) {
            throw HearthError(refusal, reason: "per-address limit \(limit.name)", retryAfter: limit.secondsUntilWindowEnds(now: now))
        }
        return count
    }

    /// Counts a password attempt against the account and the address before the password is checked,
    /// or refuses it: `TOO_MANY_ATTEMPTS_TRY_LATER : Access to this account has been temporarily
    /// disabled…` while the account waits, plain `TOO_MANY_ATTEMPTS_TRY_LATER` while the address waits,
    /// both with `Retry-After`.
    public func reservePasswordAttempt(email: String, address: String) async throws -> PasswordLockout.Reservation {
        let lockout = lockout
        let now = clock.now
        let (accountSubject, addressSubject) = (PasswordLockout.accountSubject(email: email), PasswordLockout.addressSubject(address))
        let countsAddress = self.countsAddress
        let decision = try await store.updateLoginFailures(countsAddress ? [accountSubject, addressSubject] : [accountSubject]) { records in
            let outcome = lockout.attempt(
                account: records[accountSubject], address: records[addressSubject], hasAddress: countsAddress, now: now)
            guard case .allowed = outcome.decision else { return ([:], outcome.decision) }
            var changes: [String: LoginFailureRecord?] = [accountSubject: outcome.account]
            if countsAddress { changes[addressSubject] = outcome.address }
            return (changes, outcome.decision)
        }
        switch decision {
        case .allowed(let reservation):
            return reservation
        case .accountLocked(let until):
            throw HearthError(.accountTemporarilyDisabled, reason: "account lockout", retryAfter: Self.seconds(from: now, to: until))
        case .addressLocked(let until):
            throw HearthError(.tooManyAttempts, reason: "address lockout", retryAfter: Self.seconds(from: now, to: until))
        }
    }

    /// Takes back the failures a successful attempt forgives (see ``LockoutPolicy/succeeded(_:ticket:)``).
    public func passwordAttemptSucceeded(_ reservation: PasswordLockout.Reservation, email: String, address: String) async throws {
        let lockout = lockout
        let (accountSubject, addressSubject) = (PasswordLockout.accountSubject(email: email), PasswordLockout.addressSubject(address))
        let countsAddress = self.countsAddress
        try await store.updateLoginFailures(countsAddress ? [accountSubject, addressSubject] : [accountSubject]) { records in
            let settled = lockout.succeeded(reservation, account: records[accountSubject], address: records[addressSubject])
            var changes: [String: LoginFailureRecord?] = [accountSubject: settled.account]
            if countsAddress { changes[addressSubject] = settled.address }
            return (changes, ())
        }
    }

    /// Whether failures are counted per address at all (`abuse.lockout.addressFailures` 0: not, and then
    /// no address is new to an account that waits).
    private var countsAddress: Bool { lockout.address.failuresBeforeWait > 0 }

    private static func seconds(from now: Date, to until: Date) -> Int {
        max(1, Int(until.timeIntervalSince(now).rounded(.up)))
    }
}
