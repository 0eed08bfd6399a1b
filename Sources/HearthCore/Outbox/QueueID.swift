import Foundation
import Synchronization

/// Ids of the rows of Hearth's outgoing queues (mails, SMS).
public enum QueueID {
    /// A new id that sorts by when it was made: the wall time in milliseconds and a count of this process's ids
    /// (so messages queued in one millisecond, or under a test's stopped clock, keep their order), then 8 random
    /// bytes, all in lowercase hex (44 characters).
    public static func make() -> String {
        let milliseconds = UInt64(max(0, Date().timeIntervalSince1970 * 1_000))
        let count = idCounter.wrappingAdd(1, ordering: .relaxed).oldValue
        var generator = SystemRandomNumberGenerator()
        let random = (0..<8).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let prefix =
            (0..<6).reversed().map { UInt8(truncatingIfNeeded: milliseconds >> (8 * UInt64($0))) }
            + (0..<8).reversed().map { UInt8(truncatingIfNeeded: count >> (8 * UInt64($0))) }
        return HexDigits.lowercase(prefix + random)
    }

    private static let idCounter = Atomic<UInt64>(0)
}
