import Foundation
import HearthCore
import HearthWire
import Hummingbird

/// The server side of abuse protection: finds the client's address, counts the per-address limits in
/// the shared store, and keeps the password lockout's records. The rules themselves are plain values
/// of HearthCore (``RateLimit``, ``PasswordLockout``).
struct AbuseGuard: Sendable {
    let services: HearthServices

    private var abuse: ServerConfiguration.Abuse { services.configuration.abuse }
    private var resolver: ClientAddressResolver {
        ClientAddressResolver(trustedProxies: abuse.trustedProxies.compactMap(IPAddressRange.init))
    }

    /// The client's address as a counter key (see ``ClientAddressResolver``).
    func clientAddress(_ request: Request, context: some RequestContext) -> String {
        resolver.resolve(request, context: context)
    }

    /// The client's full address for audit events; `nil` when the peer is unknown.
    func auditAddress(_ request: Request, context: some RequestContext) -> String? {
        resolver.client(request, context: context)
    }

    /// Counts one hit of `limit` for `address`; throws `TOO_MANY_ATTEMPTS_TRY_LATER` with
    /// `Retry-After` (the seconds until the window ends) once the window's count passes the limit.
    /// The hit is counted before anything else happens, so parallel requests cannot all slip under it.
    func count(_ limit: KeyPath<AbuseLimits, RateLimit>, address: String) async throws {
        let limit = abuse.limits[keyPath: limit]
        guard abuse.limitsEnabled, limit.isEnabled else { return }
        let now = services.clock.now
        let count = try await services.store.incrementCounter(limit.counterKey(address: address), window: limit.window, now: now)
        if limit.refuses(count: count) {
            throw HearthError(.tooManyAttempts, reason: "per-address limit \(limit.name)", retryAfter: limit.secondsUntilWindowEnds(now: now))
        }
    }

    /// Counts a password attempt against the account and the address before the password is checked,
    /// or refuses it: `TOO_MANY_ATTEMPTS_TRY_LATER : Access to this account has been temporarily
    /// disabled…` while the account waits, plain `TOO_MANY_ATTEMPTS_TRY_LATER` while the address waits,
    /// both with `Retry-After`.
    func reservePasswordAttempt(email: String, address: String) async throws -> PasswordLockout.Reservation {
        let lockout = abuse.lockout
        let now = services.clock.now
        let accountSubject = PasswordLockout.accountSubject(email: email)
        let addressSubject = PasswordLockout.addressSubject(address)
        let countsAddress = Self.countsAddress(lockout)
        let subjects = countsAddress ? [accountSubject, addressSubject] : [accountSubject]
        let decision = try await services.store.updateLoginFailures(subjects) { records in
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
            throw HearthError(
                .tooManyAttempts, detail: WireErrorMessage.accountTemporarilyDisabled, reason: "account lockout",
                retryAfter: Self.seconds(from: now, to: until))
        case .addressLocked(let until):
            throw HearthError(.tooManyAttempts, reason: "address lockout", retryAfter: Self.seconds(from: now, to: until))
        }
    }

    /// Takes back the failures a successful attempt forgives (see ``LockoutPolicy/succeeded(_:ticket:)``).
    func passwordAttemptSucceeded(_ reservation: PasswordLockout.Reservation, email: String, address: String) async throws {
        let lockout = abuse.lockout
        let accountSubject = PasswordLockout.accountSubject(email: email)
        let addressSubject = PasswordLockout.addressSubject(address)
        let countsAddress = Self.countsAddress(lockout)
        try await services.store.updateLoginFailures(countsAddress ? [accountSubject, addressSubject] : [accountSubject]) { records in
            let settled = lockout.succeeded(reservation, account: records[accountSubject], address: records[addressSubject])
            var changes: [String: LoginFailureRecord?] = [accountSubject: settled.account]
            if countsAddress { changes[addressSubject] = settled.address }
            return (changes, ())
        }
    }

    /// Whether failures are counted per address at all (`abuse.lockout.addressFailures` 0: not, and then
    /// no address is new to an account that waits).
    private static func countsAddress(_ lockout: PasswordLockout) -> Bool {
        lockout.address.failuresBeforeWait > 0
    }

    private static func seconds(from now: Date, to until: Date) -> Int {
        max(1, Int(until.timeIntervalSince(now).rounded(.up)))
    }
}
