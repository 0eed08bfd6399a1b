import Foundation

/// Which audit events a listing wants: each filter given narrows it, all of them together.
public struct AuditFilter: Sendable, Equatable {
    /// Only the events of this account.
    public var uid: String?
    public var kind: AuditEvent.Kind?
    /// Only the events caused by this administrator or operator (``AuditEvent/actorID``: `operator:ada@example.com`).
    public var actorID: String?
    /// Only the events at or after this instant.
    public var from: Date?
    /// Only the events before this instant (the end is excluded).
    public var to: Date?

    public init(uid: String? = nil, kind: AuditEvent.Kind? = nil, actorID: String? = nil, from: Date? = nil, to: Date? = nil) {
        self.uid = uid
        self.kind = kind
        self.actorID = actorID
        self.from = from
        self.to = to
    }
}

/// How many events of one kind and method happened on one day (UTC): one bar of the console's charts, counted by the
/// store (`GROUP BY` the day) rather than by loading the events.
public struct AuditDayCount: Sendable, Equatable {
    /// Days since 1970-01-01 (UTC).
    public var day: Int
    public var kind: AuditEvent.Kind
    /// The sign-in method or provider id (``AuditEvent/method``); `nil` when the events have none.
    public var method: String?
    public var count: Int

    public init(day: Int, kind: AuditEvent.Kind, method: String?, count: Int) {
        self.day = day
        self.kind = kind
        self.method = method
        self.count = count
    }

    /// Milliseconds in a day: a stored time divided by this is its day.
    public static let millisecondsPerDay: Int64 = 86_400_000

    /// The day (since 1970, UTC) of `date`.
    public static func day(of date: Date) -> Int {
        Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
    }

    /// The instant day `day` begins (UTC).
    public static func start(ofDay day: Int) -> Date {
        Date(timeIntervalSince1970: TimeInterval(day) * 86_400)
    }
}
