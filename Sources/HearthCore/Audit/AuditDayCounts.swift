import Foundation

/// The activity charts' counts per day. A completed day's events change only when pruning deletes them (which drops
/// that day's kept counts too), so each completed day is counted once, for the kinds asked, and kept by the store
/// (``AuditStore/keepAuditDayCounts(_:days:kinds:)``): shared by every replica, kept across restarts, one per tenant as
/// the store is. The days still open (today, and yesterday for ``settling`` after midnight) are counted on every call.
public enum AuditDayCounts {
    /// How long after its end a day is still open: an event's time is taken a moment before it is stored.
    public static let settling: TimeInterval = 300

    /// The kinds the console's charts of failures count, and every kind its charts count.
    public static let chartedFailures: [AuditEvent.Kind] = [.signInFailed, .secondFactorFailed, .consoleSignInFailed]
    public static let chartedKinds: [AuditEvent.Kind] = [.signedUp, .signedIn] + chartedFailures
    /// The days the charts show unless asked for others: today and the days before it.
    public static let chartedDays = 30

    /// Counts and keeps the charted kinds of the completed days in the charts' default span that are not kept yet, so
    /// that no visit to the charts counts a month at once: the first after a month of events came in by import, or
    /// after an upgrade. The server's hourly audit chore runs it for the project and every tenant; what it keeps, a
    /// visit reads, and a day it has not reached yet the visit counts itself.
    public static func countPastDays(store: any AuditStore, now: Date) async throws {
        let open = AuditDayCount.day(of: now.addingTimeInterval(-settling))
        let first = AuditDayCount.day(of: now) - chartedDays + 1
        guard first < open else { return }
        _ = try await counts(kinds: chartedKinds, days: first...(open - 1), store: store, now: now)
    }

    /// ``AuditStore/auditDayCounts(kinds:from:to:)`` of `days` (days since 1970, UTC) at `now`: the completed days
    /// from the kept counts, those not kept yet counted and kept now, the open days counted.
    public static func counts(kinds: [AuditEvent.Kind], days: ClosedRange<Int>, store: any AuditStore, now: Date) async throws -> [AuditDayCount] {
        guard !kinds.isEmpty else { return [] }
        let open = AuditDayCount.day(of: now.addingTimeInterval(-settling))
        var counts: [AuditDayCount] = []
        if days.lowerBound < open {
            let completed = days.lowerBound...min(days.upperBound, open - 1)
            let kept = try await store.keptAuditDayCounts(kinds: kinds, days: completed)
            counts = kept.counts
            let isKept = { (day: Int, kind: AuditEvent.Kind) in kept.counted[day]?.contains(kind) ?? false }
            let missingDays = completed.filter { day in kinds.contains { !isKept(day, $0) } }
            if let first = missingDays.first, let last = missingDays.last {
                let missingKinds = kinds.filter { kind in missingDays.contains { !isKept($0, kind) } }
                let fresh = try await store.auditDayCounts(
                    kinds: missingKinds, from: AuditDayCount.start(ofDay: first), to: AuditDayCount.start(ofDay: last + 1)
                ).filter { !isKept($0.day, $0.kind) }
                try await store.keepAuditDayCounts(fresh, days: missingDays, kinds: missingKinds)
                counts += fresh
            }
        }
        if days.upperBound >= open {
            counts += try await store.auditDayCounts(
                kinds: kinds, from: AuditDayCount.start(ofDay: max(open, days.lowerBound)), to: AuditDayCount.start(ofDay: days.upperBound + 1))
        }
        return counts
    }
}

/// What the store keeps of the charts' completed days (``AuditStore/keptAuditDayCounts(kinds:days:)``).
public struct KeptAuditDayCounts: Sendable, Equatable {
    /// Each day counted, with the kinds counted on it (a day and kind counted without events is here, with no count).
    public var counted: [Int: Set<AuditEvent.Kind>]
    public var counts: [AuditDayCount]

    public init(counted: [Int: Set<AuditEvent.Kind>], counts: [AuditDayCount]) {
        self.counted = counted
        self.counts = counts
    }
}
