import Foundation

/// At most `limit` hits per fixed window of `window` seconds, counted per client address.
///
/// Windows are fixed like those of ``RateCounterStore``: one starts at every multiple of `window` since
/// 1970. A `limit` of 0 switches the limit off.
public struct RateLimit: Sendable, Equatable {
    /// Names the counter (part of its key), e.g. `new-accounts`.
    public let name: String
    public var limit: Int
    public var window: TimeInterval

    public init(_ name: String, limit: Int, window: TimeInterval) {
        self.name = name
        self.limit = limit
        self.window = window
    }

    public var isEnabled: Bool { limit > 0 && window > 0 }

    /// The counter key for `address` (the window length is part of it, as ``RateCounterStore`` asks).
    public func counterKey(address: String) -> String {
        "ip-limit:\(name):\(Int64(window)):\(address)"
    }

    /// Whether the `count`th hit of a window is refused.
    public func refuses(count: Int) -> Bool { isEnabled && count > limit }

    /// Seconds from `now` until the window containing it ends (at least 1): what `Retry-After` says.
    public func secondsUntilWindowEnds(now: Date) -> Int {
        let length = Int64((window * 1_000).rounded())
        guard length > 0 else { return 1 }
        let instant = Int64((now.timeIntervalSince1970 * 1_000).rounded(.down))
        let offset = ((instant % length) + length) % length
        let remaining = length - offset
        return max(1, Int((Double(remaining) / 1_000).rounded(.up)))
    }
}

/// The per-address limits of the actions an abuser would repeat. Plain values, read from the
/// configuration; the server counts them in the shared store so that every replica sees one count.
public struct AbuseLimits: Sendable, Equatable {
    /// New accounts of any kind (Firebase: 100 accounts/hour for each IP address).
    public var newAccounts = RateLimit("new-accounts", limit: 100, window: 3_600)
    /// Anonymous sign-ups, counted in addition to ``newAccounts``.
    public var anonymousSignUps = RateLimit("anonymous-sign-ups", limit: 100, window: 3_600)
    /// Password sign-in attempts, across all accounts.
    public var passwordSignIns = RateLimit("password-sign-ins", limit: 600, window: 3_600)
    /// `createAuthUri` for an e-mail (what `fetchSignInMethodsForEmail` calls).
    public var createAuthUri = RateLimit("create-auth-uri", limit: 300, window: 3_600)
    /// Actions that send an e-mail (password reset, verification, sign-in link). No such action
    /// exists yet; each one will check this limit when it is added.
    public var mailSending = RateLimit("mail-sending", limit: 20, window: 3_600)
    /// Verification codes sent by SMS, per client address (test phone numbers are not counted).
    public var phoneCodes = RateLimit("phone-codes", limit: 10, window: 3_600)
    /// Verification codes sent to one phone number, whoever asks (the counter's key is the number).
    public var phoneCodesPerNumber = RateLimit("phone-codes-per-number", limit: 5, window: 3_600)
    /// Verification codes sent to one range of numbers (a number without its last 3 digits: a block of 1,000), the
    /// shape of SMS pumping, which walks through a range an accomplice carrier is paid for.
    public var phoneCodesPerPrefix = RateLimit("phone-codes-per-prefix", limit: 20, window: 3_600)
    /// Verification codes the whole project sends: the SMS budget (`QUOTA_EXCEEDED` once spent).
    public var phoneCodesPerProject = RateLimit("phone-codes-per-project", limit: 1_000, window: 3_600)
    /// Second factors tried at sign-in, per account (the counter's key is the uid), across its pending credentials:
    /// with a password known, a 6-digit code is all that is left to guess.
    public var secondFactorAttempts = RateLimit("second-factor-attempts", limit: 10, window: 900)
    /// Passkey sign-in challenges (`passkeySignIn:start`, which anyone may call: each is a row until it expires).
    public var passkeyChallenges = RateLimit("passkey-challenges", limit: 600, window: 3_600)
    /// Passkey enrolment challenges (`passkeyEnrollment:start`: each is a row until it expires), per client address.
    public var passkeyEnrollments = RateLimit("passkey-enrollments", limit: 100, window: 3_600)
    /// Passkey enrolment challenges per account (the counter's key is the uid), from whatever addresses: one signed-in
    /// user cannot fill the table (an account holds at most ``PasskeyEnrollment/limit`` passkeys anyway).
    public var passkeyEnrollmentsPerAccount = RateLimit("passkey-enrollments-per-account", limit: 30, window: 3_600)

    public init() {}
}
