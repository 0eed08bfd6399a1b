import Foundation
import HearthConfiguration
import HearthCore
import Logging
import ServiceLifecycle

/// Deletes audit events older than `audit.retentionDays`, once an hour (never with a retention of 0).
public struct AuditPruningService: Service {
    private let services: HearthServices
    private let interval: TimeInterval
    private var retentionDays: Int { services.configuration.auditRetentionDays }

    public init(services: HearthServices, interval: TimeInterval = 3_600) {
        self.services = services
        self.interval = interval
    }

    public func run() async throws {
        guard retentionDays > 0 else {
            // Nothing to do, but a service that returns early would stop the whole server.
            try? await gracefulShutdown()
            return
        }
        let logger = services.logger
        await PeriodicChore(lockName: "audit-pruning", title: "audit event pruning", interval: interval, store: services.store, logger: logger).run {
            _ = try await runOnce()
        }
    }

    /// One pass: deletes the events that happened more than the retention ago. Returns how many (0 with a
    /// retention of 0, which keeps every event).
    @discardableResult
    public func runOnce() async throws -> Int {
        guard retentionDays > 0 else { return 0 }
        let deleted = try await services.store.deleteAuditEvents(before: services.clock.now.addingTimeInterval(-TimeInterval(retentionDays) * 86_400))
        if deleted > 0 { services.logger.info("deleted audit events past their retention", metadata: ["count": "\(deleted)"]) }
        return deleted
    }
}
