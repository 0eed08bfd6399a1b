import Foundation
import HearthConfiguration
import HearthCore
import HearthStorage
import HearthTelemetry
import Logging
import ServiceLifecycle

/// Deletes anonymous accounts whose clean-up date has passed (``AnonymousCleanup``), every
/// `anonymousCleanup.checkInterval`, on one replica at a time.
public struct AnonymousCleanupService: Service {
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

    /// One pass (``AnonymousCleanup/runOnce()``). Returns the deleted uids.
    @discardableResult
    public func runOnce() async throws -> [String] {
        let (database, settings) = (services.database, services.projectSettings)
        let deleted = try await AnonymousCleanup(
            store: store, pool: { tenantID in tenantID.map(database.scoped(toTenant:)) ?? database },
            isEnabled: { try await settings.projectSettings().anonymousCleanupEnabled }, maxAge: configuration.maxAge, clock: clock,
            logger: logger
        ).runOnce()
        services.metrics.count(.anonymousCleanupDeletions, by: deleted.count)
        return deleted
    }
}
