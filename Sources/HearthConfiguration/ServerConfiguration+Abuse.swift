import Foundation
import HearthCore

extension ServerConfiguration {
    /// Abuse protection: per-address limits, the password lockout, and which proxies to believe.
    public struct Abuse: Sendable {
        /// Whether the per-address ``limits`` apply. Read from `abuse.limits.enabled`; on by default in
        /// production mode, off in development mode (as the Firebase emulator has no quotas).
        public var limitsEnabled = false
        public var limits = AbuseLimits()
        /// Proxies whose `X-Forwarded-For` is believed (CIDR blocks or single addresses).
        public var trustedProxies: [String] = []
        /// The password lockout, always on.
        public var lockout = PasswordLockout(
            account: LockoutPolicy(failuresBeforeWait: 10),
            address: LockoutPolicy(failuresBeforeWait: 100, successForgivesEarlierFailures: false),
            ownerFromNewAddress: true)
        public init() {}
    }

    /// Reads `abuse.*` (and refuses the renamed `security.passwordFailure*` keys).
    static func readAbuse(_ r: ConfigValues, mode: Mode) throws -> Abuse {
        for old in ["security.passwordFailureLimit", "security.passwordFailureWindowSeconds"] where try r.string(old) != nil {
            throw ConfigurationError(key: old, problem: "replaced by the abuse.lockout.* keys (see docs/configuration.md)")
        }
        var abuse = Abuse()
        abuse.limitsEnabled = try r.bool("abuse.limits.enabled") ?? (mode == .production)
        func limit(_ name: String, _ current: RateLimit) throws -> RateLimit {
            var limit = current
            limit.limit = try r.int("abuse.limits.\(name).limit", in: 0...1_000_000) ?? limit.limit
            limit.window = TimeInterval(try r.int("abuse.limits.\(name).windowSeconds", in: 1...(31 * 86_400)) ?? Int(limit.window))
            return limit
        }
        abuse.limits.newAccounts = try limit("newAccounts", abuse.limits.newAccounts)
        abuse.limits.anonymousSignUps = try limit("anonymousSignUps", abuse.limits.anonymousSignUps)
        abuse.limits.passwordSignIns = try limit("passwordSignIns", abuse.limits.passwordSignIns)
        abuse.limits.createAuthUri = try limit("createAuthUri", abuse.limits.createAuthUri)
        abuse.limits.mailSending = try limit("mailSending", abuse.limits.mailSending)
        abuse.limits.phoneCodes = try limit("phoneCodes", abuse.limits.phoneCodes)
        abuse.limits.phoneCodesPerNumber = try limit("phoneCodesPerNumber", abuse.limits.phoneCodesPerNumber)
        abuse.limits.phoneCodesPerPrefix = try limit("phoneCodesPerPrefix", abuse.limits.phoneCodesPerPrefix)
        abuse.limits.phoneCodesPerProject = try limit("phoneCodesPerProject", abuse.limits.phoneCodesPerProject)
        abuse.limits.secondFactorAttempts = try limit("secondFactorAttempts", abuse.limits.secondFactorAttempts)
        abuse.limits.passkeyChallenges = try limit("passkeyChallenges", abuse.limits.passkeyChallenges)
        abuse.limits.passkeyEnrollments = try limit("passkeyEnrollments", abuse.limits.passkeyEnrollments)
        abuse.limits.passkeyEnrollmentsPerAccount = try limit("passkeyEnrollmentsPerAccount", abuse.limits.passkeyEnrollmentsPerAccount)
        abuse.trustedProxies = try r.stringArray("abuse.trustedProxies") ?? []
        for proxy in abuse.trustedProxies where IPAddressRange(proxy) == nil {
            throw ConfigurationError(key: "abuse.trustedProxies", problem: "\(proxy) is not an IP address or CIDR block (e.g. 10.0.0.0/8, fd00::/8)")
        }

        var account = abuse.lockout.account
        var address = abuse.lockout.address
        account.failuresBeforeWait = try r.int("abuse.lockout.accountFailures", in: 1...10_000) ?? account.failuresBeforeWait
        address.failuresBeforeWait = try r.int("abuse.lockout.addressFailures", in: 0...1_000_000) ?? address.failuresBeforeWait
        let increment = TimeInterval(try r.int("abuse.lockout.waitIncrementSeconds", in: 1...86_400) ?? Int(account.waitIncrement))
        let maxWait = TimeInterval(try r.int("abuse.lockout.maxWaitSeconds", in: 1...(31 * 86_400)) ?? Int(account.maxWait))
        guard maxWait >= increment else {
            throw ConfigurationError(
                key: "abuse.lockout.maxWaitSeconds", problem: "must be at least abuse.lockout.waitIncrementSeconds (\(Int(increment)))")
        }
        let reset = TimeInterval(try r.int("abuse.lockout.failureResetSeconds", in: 1...(366 * 86_400)) ?? Int(account.failureReset))
        let quick = TimeInterval(try r.int("abuse.lockout.quickFailureMilliseconds", in: 0...60_000) ?? 0) / 1_000
        let quickWait = TimeInterval(try r.int("abuse.lockout.quickFailureWaitSeconds", in: 1...86_400) ?? Int(account.quickFailureWait))
        for index in 0..<2 {
            var policy = index == 0 ? account : address
            policy.waitIncrement = increment
            policy.maxWait = maxWait
            policy.failureReset = reset
            policy.quickFailureInterval = quick
            policy.quickFailureWait = quickWait
            if index == 0 { account = policy } else { address = policy }
        }
        abuse.lockout = PasswordLockout(
            account: account, address: address,
            ownerFromNewAddress: try r.bool("abuse.lockout.ownerFromNewIP") ?? abuse.lockout.ownerFromNewAddress)
        return abuse
    }
}
