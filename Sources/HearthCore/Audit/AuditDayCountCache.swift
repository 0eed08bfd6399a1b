import Foundation

/// The activity charts' counts of the days before today, kept for a minute: counting a month of a large trail is the
/// activity page's costliest query, and those days change only when events are pruned or written with a time in the
/// past (an import). Today's counts are read on every call.
public final class AuditDayCountCache: Sendable {
    /// How long the past days' counts are used.
    public static let lifetime: TimeInterval = 60

    private struct Entry: Sendable {
        var kinds: [AuditEvent.Kind]
        var days: ClosedRange<Int>
        var counts: [AuditDayCount]
        var readAt: Date
    }

    private let entry = LockedBox<Entry?>(nil)

    public init() {}

    /// ``AuditStore/auditDayCounts(kinds:from:to:)`` of `days` (days since 1970, UTC) at `now`.
    public func counts(kinds: [AuditEvent.Kind], days: ClosedRange<Int>, store: any AuditStore, now: Date) async throws -> [AuditDayCount] {
        let today = AuditDayCount.day(of: now)
        var counts: [AuditDayCount] = []
        if days.lowerBound < today {
            let past = days.lowerBound...min(days.upperBound, today - 1)
            let cached = entry.withLock { entry -> [AuditDayCount]? in
                guard let entry, entry.kinds == kinds, entry.days == past else { return nil }
                let age = now.timeIntervalSince(entry.readAt)
                return age >= 0 && age < Self.lifetime ? entry.counts : nil
            }
            if let cached {
                counts = cached
            } else {
                counts = try await store.auditDayCounts(
                    kinds: kinds, from: AuditDayCount.start(ofDay: past.lowerBound), to: AuditDayCount.start(ofDay: past.upperBound + 1))
                let read = counts
                entry.withLock { $0 = Entry(kinds: kinds, days: past, counts: read, readAt: now) }
            }
        }
        if days.upperBound >= today {
            counts += try await store.auditDayCounts(
                kinds: kinds, from: AuditDayCount.start(ofDay: max(today, days.lowerBound)), to: AuditDayCount.start(ofDay: days.upperBound + 1))
        }
        return counts
    }
}
