import Foundation
import HearthCore
import SQLKit

// MARK: - RateCounterStore

extension SQLStore {
    /// Upserts the row `(key, window start)` with one more hit and returns the new count. A single
    /// `INSERT … ON CONFLICT DO UPDATE`, atomic on both dialects even with concurrent writers.
    public func incrementCounter(_ key: String, window: TimeInterval, now: Date) async throws -> Int {
        let bounds = try Self.counterWindow(window, now: now)
        return try await work.writeSingleStatement { database in
            let row = try await Self.rows(
                database,
                """
                INSERT INTO rate_counters (counter_key, window_start, window_end, hits)
                VALUES (\(bind: key), \(bind: bounds.start), \(bind: bounds.end), \(bind: Int64(1)))
                ON CONFLICT (counter_key, window_start) DO UPDATE SET hits = rate_counters.hits + 1
                RETURNING hits
                """
            ).first
            return Int(try row?.int64("hits") ?? 1)
        }
    }

    public func counter(_ key: String, window: TimeInterval, now: Date) async throws -> Int {
        let bounds = try Self.counterWindow(window, now: now)
        return try await work.readSingleStatement { database in
            let row = try await Self.rows(
                database,
                """
                SELECT hits FROM rate_counters
                WHERE counter_key = \(bind: key) AND window_start = \(bind: bounds.start)
                """
            ).first
            return Int(try row?.int64("hits") ?? 0)
        }
    }

    public func pruneCounters(before: Date) async throws {
        try await work.writeSingleStatement { database in
            try await Self.exec(
                database, "DELETE FROM rate_counters WHERE window_end <= \(bind: StoredTime.milliseconds(before))")
        }
    }

    /// The fixed window containing `now`: `[start, end)` in ms since 1970, `start` a multiple of the
    /// window length. Throws when `window` is shorter than a millisecond.
    static func counterWindow(_ window: TimeInterval, now: Date) throws -> (start: Int64, end: Int64) {
        let length = StoredTime.milliseconds(interval: window)
        guard length > 0 else {
            throw HearthError(.internalError, reason: "rate counter window must be at least 1 ms")
        }
        let instant = StoredTime.milliseconds(now)
        let offset = ((instant % length) + length) % length  // floor, also before 1970
        let start = instant - offset
        let (end, overflow) = start.addingReportingOverflow(length)
        return (start, overflow ? .max : end)
    }
}
