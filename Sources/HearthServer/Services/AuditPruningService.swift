import Foundation
import HearthConfiguration
import HearthCore
import Logging
import ServiceLifecycle

/// Deletes audit events older than `audit.retentionDays`, once an hour (never with a retention of 0).
public struct AuditPruningService: Service {
    private let store: any HearthStore
    private let retentionDays: Int
    private let clock: WallClock
    private let logger: Logger
    private let interval: TimeInterval

    public init(services: HearthServices, interval: TimeInterval = 3_600) {
        self.store = services.store
        self.retentionDays = services.configuration.auditRetentionDays
        self.clock = services.clock
        self.logger = services.logger
        self.interval = interval
    }

    public func run() async throws {
        guard retentionDays > 0 else {
            // Nothing to do, but a service that returns early would stop the whole server.
            try? await gracefulShutdown()
            return
        }
        await PeriodicChore(lockName: "audit-pruning", title: "audit event pruning", interval: interval, store: store, logger: logger).run {
            _ = try await runOnce()
        }
    }

    /// One pass: deletes the events that happened more than the retention ago. Returns how many (0 with a
    /// retention of 0, which keeps every event).
    @discardableResult
    public func runOnce() async throws -> Int {
        guard retentionDays > 0 else { return 0 }
        let deleted = try await store.deleteAuditEvents(before: clock.now.addingTimeInterval(-TimeInterval(retentionDays) * 86_400))
        if deleted > 0 { logger.info("deleted audit events past their retention", metadata: ["count": "\(deleted)"]) }
        return deleted
    }
}
