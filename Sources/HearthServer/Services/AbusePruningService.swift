import Foundation
import HearthConfiguration
import HearthCore
import Logging
import ServiceLifecycle

/// Deletes records nobody needs any more, once an hour: per-address counters of windows that ended, lockout
/// records whose failures are forgotten and whose wait is over, e-mail action codes and phone verifications past
/// their expiry, and mails sent or given up more than a week ago.
public struct AbusePruningService: Service {
    private let store: any HearthStore
    private let lockout: PasswordLockout
    private let clock: WallClock
    private let logger: Logger
    private let interval: TimeInterval

    public init(services: HearthServices, interval: TimeInterval = 3_600) {
        self.store = services.store
        self.lockout = services.configuration.abuse.lockout
        self.clock = services.clock
        self.logger = services.logger
        self.interval = interval
    }

    public func run() async throws {
        await PeriodicChore(lockName: "abuse-pruning", title: "abuse record pruning", interval: interval, store: store, logger: logger).run {
            _ = try await runOnce()
        }
    }

    /// One pass. Returns how many lockout records it deleted.
    @discardableResult
    public func runOnce() async throws -> Int {
        let now = clock.now
        try await store.pruneCounters(before: now)
        try await store.deleteActionCodes(expiredBefore: now)
        try await store.deletePhoneVerifications(expiredBefore: now)
        try await store.deleteMails(finishedBefore: now.addingTimeInterval(-7 * 86_400))
        try await store.deleteSMS(finishedBefore: now.addingTimeInterval(-7 * 86_400))
        let forgetAfter = max(lockout.account.failureReset, lockout.address.failureReset)
        return try await store.pruneLoginFailures(lastFailureBefore: now.addingTimeInterval(-forgetAfter), now: now)
    }
}
