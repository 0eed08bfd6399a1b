import Foundation
import HearthConfiguration
import HearthCore
import HearthStorage
import Logging
import ServiceLifecycle

/// The audit trail's hourly chore, on one replica at a time: deletes the events older than `audit.retentionDays`, and
/// counts the console's charts' completed days ahead of any visit (``AuditDayCounts/countPastDays(store:now:)``).
public struct AuditPruningService: Service {
    private let services: HearthServices
    private let interval: TimeInterval
    private var retentionDays: Int { services.configuration.auditRetentionDays }

    public init(services: HearthServices, interval: TimeInterval = 3_600) {
        self.services = services
        self.interval = interval
    }

    public func run() async throws {
        await PeriodicChore(
            lockName: "audit-pruning", title: "audit event pruning", interval: interval, store: services.store, logger: services.logger
        ).run { _ = try await runOnce() }
    }

    /// One pass: deletes the events older than the retention (none with a retention of 0, which keeps every event), then
    /// counts the charts' days not kept yet in the project's trail and each tenant's. Returns how many were deleted.
    @discardableResult
    public func runOnce() async throws -> Int {
        var deleted = 0
        if retentionDays > 0 {
            deleted = try await services.store.deleteAuditEvents(before: services.clock.now.addingTimeInterval(-TimeInterval(retentionDays) * 86_400))
            if deleted > 0 { services.logger.info("deleted audit events past their retention", metadata: ["count": "\(deleted)"]) }
        }
        for tenantID in try await services.store.poolIDs() {
            try await AuditDayCounts.countPastDays(store: services.database.scoped(toTenant: tenantID), now: services.clock.now)
        }
        return deleted
    }
}
