import Foundation

/// How instants are stored: `BIGINT` milliseconds since 1970-01-01T00:00:00Z.
enum StoredTime {
    /// Milliseconds since 1970, truncated to the millisecond at or before `date`: never later, so a
    /// `validSince` read back is never after the instant it was set (a user created in the last half
    /// millisecond of a second would otherwise refuse its own first ID token after a restart).
    static func milliseconds(_ date: Date) -> Int64 {
        milliseconds(interval: date.timeIntervalSince1970)
    }

    /// The optional form of ``milliseconds(_:)``.
    static func milliseconds(_ date: Date?) -> Int64? {
        date.map { milliseconds($0) }
    }

    /// A duration in milliseconds, rounded down to the millisecond (saturating).
    static func milliseconds(interval: TimeInterval) -> Int64 {
        let value = (interval * 1000).rounded(.down)
        if value >= Double(Int64.max) { return .max }
        if value <= Double(Int64.min) { return .min }
        if value.isNaN { return 0 }
        return Int64(value)
    }

    /// The instant `milliseconds` after 1970.
    static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
