import Foundation

/// The audit trail: events written once, read newest first, and deleted when older than the retention.
public protocol AuditStore: Sendable {
    /// Stores one event (a single insert).
    func insertAuditEvent(_ event: AuditEvent) async throws

    /// Up to `limit` events newest first (by time, then id, both descending), only those of `uid` and of
    /// `kind` when given, and only those after `cursor` in that order when given: one page of a listing.
    func auditEvents(uid: String?, kind: AuditEvent.Kind?, after cursor: AuditCursor?, limit: Int) async throws -> [AuditEvent]

    /// Up to `limit` events newest first, as ``auditEvents(uid:kind:after:limit:)`` pages them, that match every filter
    /// `filter` gives.
    func auditEvents(matching filter: AuditFilter, after cursor: AuditCursor?, limit: Int) async throws -> [AuditEvent]

    /// How many events of `kinds` happened at or after `from` and before `to`, per day (UTC), kind and method, counted
    /// in the store; days, kinds and methods without events are left out.
    func auditDayCounts(kinds: [AuditEvent.Kind], from: Date, to: Date) async throws -> [AuditDayCount]

    /// The counts kept by ``keepAuditDayCounts(_:days:kinds:)`` of `kinds` on `days` (days since 1970, UTC): which
    /// days were counted for which kinds, and what was counted.
    func keptAuditDayCounts(kinds: [AuditEvent.Kind], days: ClosedRange<Int>) async throws -> KeptAuditDayCounts

    /// Keeps `counts` (``auditDayCounts(kinds:from:to:)`` of completed days) as the counts of `kinds` on each of `days`,
    /// in one transaction; a day and kind kept already (by another replica meanwhile) keeps its counts, and `counts`
    /// of it are left out.
    func keepAuditDayCounts(_ counts: [AuditDayCount], days: [Int], kinds: [AuditEvent.Kind]) async throws

    /// Deletes the events that happened before `before`, and the kept counts of the days they were on. Returns how many.
    @discardableResult
    func deleteAuditEvents(before: Date) async throws -> Int
}

/// Where a page of events ends: the time (to the millisecond) and id of its last event.
public struct AuditCursor: Sendable, Equatable {
    /// Milliseconds since 1970, as stored.
    public let milliseconds: Int64
    public let id: String

    public init(milliseconds: Int64, id: String) {
        self.milliseconds = milliseconds
        self.id = id
    }

    /// The cursor after `event`.
    public init(after event: AuditEvent) {
        self.init(milliseconds: Int64((event.time.timeIntervalSince1970 * 1000).rounded()), id: event.id)
    }

    /// As a page token: `<milliseconds>.<id>`.
    public var token: String { "\(milliseconds).\(id)" }

    /// Reads a page token written by ``token``; `nil` for anything else.
    public init?(token: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...18).contains(parts[0].utf8.count), parts[0].utf8.allSatisfy({ (48...57).contains($0) }),
            let milliseconds = Int64(parts[0]), AuditEvent.isID(parts[1])
        else { return nil }
        self.init(milliseconds: milliseconds, id: String(parts[1]))
    }
}
