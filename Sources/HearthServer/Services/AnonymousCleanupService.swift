import Foundation
import HearthConfiguration
import HearthCore
import HearthStorage
import HearthTelemetry
import Logging
import ServiceLifecycle

/// Deletes anonymous accounts whose clean-up date has passed.
///
/// The rules are those of Firebase's automatic clean-up: with clean-up on, an anonymous account is
/// deleted `maxAge` after it was created, and one that existed before clean-up was switched on is
/// deleted `maxAge` after that moment. Switching clean-up off schedules no new accounts but keeps those
/// already scheduled. An account that gains a password, a provider or a phone is never deleted.
public struct AnonymousCleanupService: Service {
    static let enabledAtSetting = "anonymousCleanup.enabledAt"

    private let services: HearthServices
    private let store: any HearthStore
    private let configuration: ServerConfiguration.AnonymousCleanup
    private let clock: WallClock
    private let logger: Logger

    public init(services: HearthServices) {
        self.services = services
        self.store = services.store
        self.configuration = services.configuration.anonymousCleanup
        self.clock = services.clock
        self.logger = services.logger
    }

    public func run() async throws {
        await PeriodicChore(
            lockName: "anonymous-cleanup", title: "anonymous clean-up", interval: configuration.checkInterval, store: store, logger: logger
        ).run {
            _ = try await runOnce()
        }
    }

    /// One pass: schedule what the rules say, delete what is due. Returns the deleted uids.
    @discardableResult
    public func runOnce() async throws -> [String] {
        let now = clock.now
        // Switched on and off in the configuration or, later, through the admin API (`autodeleteAnonymousUsers`).
        if try await services.projectSettings.projectSettings().anonymousCleanupEnabled {
            let enabledAt: Date
            if let text = try await store.setting(Self.enabledAtSetting), let seconds = Double(text) {
                enabledAt = Date(timeIntervalSince1970: seconds)
            } else {
                enabledAt = now
                try await store.setSetting(Self.enabledAtSetting, to: String(now.timeIntervalSince1970))
                logger.notice(
                    "anonymous clean-up switched on; existing anonymous accounts will be deleted after \(Int(configuration.maxAge / 86_400)) days")
            }
            var scheduled = 0
            for store in try await userPools() {
                scheduled += try await store.scheduleAnonymousDeletion(
                    olderThan: configuration.maxAge, notBefore: enabledAt.addingTimeInterval(configuration.maxAge))
            }
            if scheduled > 0 { logger.info("scheduled anonymous accounts for clean-up", metadata: ["count": "\(scheduled)"]) }
        } else if try await store.setting(Self.enabledAtSetting) != nil {
            try await store.setSetting(Self.enabledAtSetting, to: nil)
            logger.notice("anonymous clean-up switched off; accounts already scheduled stay scheduled")
        }
        var deleted: [String] = []
        for store in try await userPools() {
            while true {
                let batch = try await store.deleteScheduledAnonymousUsers(now: now, limit: 500)
                deleted += batch
                if batch.count < 500 { break }
            }
        }
        if !deleted.isEmpty { logger.info("deleted anonymous accounts", metadata: ["count": "\(deleted.count)"]) }
        services.metrics.count(.anonymousCleanupDeletions, by: deleted.count)
        return deleted
    }

    /// The project's users and each tenant's, each through a store that sees that pool alone: the clean-up is the
    /// server's (one switch, one age), the accounts it deletes are each pool's.
    private func userPools() async throws -> [SQLStore] {
        var pools = [services.database]
        var after: String?
        while true {
            let page = try await store.tenants(after: after, limit: 1_000)
            pools += page.map { services.database.scoped(toTenant: $0.id) }
            guard page.count == 1_000 else { return pools }
            after = page.last?.id
        }
    }
}
