import Foundation
import HearthConfiguration
import HearthConsole
import HearthCore
import Logging
import ServiceLifecycle

/// Deletes records nobody needs any more, once an hour: per-address counters of windows that ended, lockout
/// records whose failures are forgotten and whose wait is over, e-mail action codes and phone verifications past
/// their expiry, mails sent or given up more than a week ago, and console sessions past their time-outs (in this pass
/// rather than a chore of its own: each chore holds a pooled connection for its leader lock while it runs).
public struct AbusePruningService: Service {
    private let services: HearthServices
    private let interval: TimeInterval

    public init(services: HearthServices, interval: TimeInterval = 3_600) {
        self.services = services
        self.interval = interval
    }

    public func run() async throws {
        let chore = PeriodicChore(
            lockName: "abuse-pruning", title: "abuse record pruning", interval: interval, store: services.store, logger: services.logger)
        await chore.run {
            _ = try await runOnce()
        }
    }

    /// One pass. Returns how many lockout records it deleted.
    @discardableResult
    public func runOnce() async throws -> Int {
        let (store, now, lockout) = (services.store, services.clock.now, services.configuration.abuse.lockout)
        try await store.pruneCounters(before: now)
        try await store.deleteActionCodes(expiredBefore: now)
        try await store.deletePhoneVerifications(expiredBefore: now)
        try await store.deleteMails(finishedBefore: now.addingTimeInterval(-7 * 86_400))
        try await store.deleteSMS(finishedBefore: now.addingTimeInterval(-7 * 86_400))
        try await services.consoleSignIn.pruneSessions()
        let forgetAfter = max(lockout.account.failureReset, lockout.address.failureReset)
        return try await store.pruneLoginFailures(lastFailureBefore: now.addingTimeInterval(-forgetAfter), now: now)
    }
}
