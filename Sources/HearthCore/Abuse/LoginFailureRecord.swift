import Foundation

/// What the lockout remembers about one subject (an account or a client address).
///
/// Every password attempt is counted as a failure when it is made, before the password is checked
/// (so that parallel guesses cannot all pass a check that only counts finished ones); a success then
/// takes failures back (see ``LockoutPolicy/succeeded(_:ticket:)``).
public struct LoginFailureRecord: Sendable, Equatable {
    /// Attempts counted and not taken back.
    public var failures: Int
    /// When the last attempt was counted.
    public var lastFailureAt: Date
    /// Attempts are refused before this instant (`nil`: no wait).
    public var lockedUntil: Date?

    public init(failures: Int, lastFailureAt: Date, lockedUntil: Date? = nil) {
        self.failures = failures
        self.lastFailureAt = lastFailureAt
        self.lockedUntil = lockedUntil
    }
}
