import Foundation
import Logging

/// Firebase's automatic clean-up of anonymous accounts: with clean-up on, an anonymous account is deleted `maxAge`
/// after it was created, and one that existed before clean-up was switched on is deleted `maxAge` after that moment.
/// Switching clean-up off schedules no new accounts but keeps those already scheduled. An account that gains a
/// password, a provider or a phone is never deleted.
///
/// The switch and the age are the server's; the accounts are each pool's: the project's and every tenant's.
public struct AnonymousCleanup: Sendable {
    /// The setting that remembers when clean-up was switched on.
    public static let enabledAtSetting = "anonymousCleanup.enabledAt"

    public let store: any SettingStore & TenantStore
    /// The store of one pool of users, seeing that pool alone: `nil` names the project's.
    public let pool: @Sendable (_ tenantID: String?) -> any AccountStore
    /// Whether clean-up is on now (the configuration, or an administrator's `autodeleteAnonymousUsers`).
    public let isEnabled: @Sendable () async throws -> Bool
    public let maxAge: TimeInterval
    public let clock: WallClock
    public let logger: Logger

    public init(
        store: any SettingStore & TenantStore, pool: @escaping @Sendable (String?) -> any AccountStore,
        isEnabled: @escaping @Sendable () async throws -> Bool, maxAge: TimeInterval, clock: WallClock, logger: Logger
    ) {
        self.store = store
        self.pool = pool
        self.isEnabled = isEnabled
        self.maxAge = maxAge
        self.clock = clock
        self.logger = logger
    }

    /// One pass: schedule what the rules say, delete what is due. Returns the deleted uids.
    public func runOnce() async throws -> [String] {
        let now = clock.now
        if try await isEnabled() {
            let enabledAt: Date
            if let text = try await store.setting(Self.enabledAtSetting), let seconds = Double(text) {
                enabledAt = Date(timeIntervalSince1970: seconds)
            } else {
                enabledAt = now
                try await store.setSetting(Self.enabledAtSetting, to: String(now.timeIntervalSince1970))
                logger.notice("anonymous clean-up switched on; existing anonymous accounts will be deleted after \(Int(maxAge / 86_400)) days")
            }
            var scheduled = 0
            for store in try await pools() {
                scheduled += try await store.scheduleAnonymousDeletion(olderThan: maxAge, notBefore: enabledAt.addingTimeInterval(maxAge))
            }
            if scheduled > 0 { logger.info("scheduled anonymous accounts for clean-up", metadata: ["count": "\(scheduled)"]) }
        } else if try await store.setting(Self.enabledAtSetting) != nil {
            try await store.setSetting(Self.enabledAtSetting, to: nil)
            logger.notice("anonymous clean-up switched off; accounts already scheduled stay scheduled")
        }
        var deleted: [String] = []
        for store in try await pools() {
            while true {
                let batch = try await store.deleteScheduledAnonymousUsers(now: now, limit: 500)
                deleted += batch
                if batch.count < 500 { break }
            }
        }
        if !deleted.isEmpty { logger.info("deleted anonymous accounts", metadata: ["count": "\(deleted.count)"]) }
        return deleted
    }

    /// The project's pool and each tenant's.
    private func pools() async throws -> [any AccountStore] {
        try await store.poolIDs().map(pool)
    }
}
