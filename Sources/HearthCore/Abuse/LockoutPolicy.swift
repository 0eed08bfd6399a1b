import Foundation

/// Growing waits after repeated password failures, modelled on Keycloak's brute-force detection: the
/// first `failuresBeforeWait − 1` failures cost nothing; from the `failuresBeforeWait`th on, each one
/// makes the subject wait, `waitIncrement` longer with every further failure, up to `maxWait`.
/// Failures are forgotten once none came for `failureReset`. Optionally, two attempts closer together
/// than `quickFailureInterval` make the subject wait at least `quickFailureWait` (Keycloak's quick-login
/// check).
///
/// Pure: it computes new records from old ones and an instant. The caller reads and writes the records
/// in one transaction.
public struct LockoutPolicy: Sendable, Equatable {
    public var failuresBeforeWait: Int
    public var waitIncrement: TimeInterval
    public var maxWait: TimeInterval
    public var failureReset: TimeInterval
    /// 0: no quick-failure check.
    public var quickFailureInterval: TimeInterval
    public var quickFailureWait: TimeInterval
    /// What a success takes back: `true` — its own attempt and every one counted before it (the
    /// owner's typos); `false` — only its own attempt (right for a subject that many people share,
    /// such as a client address, where one person's success says nothing about another's guesses).
    public var successForgivesEarlierFailures: Bool

    public init(
        failuresBeforeWait: Int, waitIncrement: TimeInterval = 60, maxWait: TimeInterval = 900,
        failureReset: TimeInterval = 43_200, quickFailureInterval: TimeInterval = 0, quickFailureWait: TimeInterval = 60,
        successForgivesEarlierFailures: Bool = true
    ) {
        self.failuresBeforeWait = failuresBeforeWait
        self.waitIncrement = waitIncrement
        self.maxWait = maxWait
        self.failureReset = failureReset
        self.quickFailureInterval = quickFailureInterval
        self.quickFailureWait = quickFailureWait
        self.successForgivesEarlierFailures = successForgivesEarlierFailures
    }

    /// The record as it stands at `now`: `nil` once its failures are forgotten.
    public func current(_ record: LoginFailureRecord?, now: Date) -> LoginFailureRecord? {
        guard let record, record.failures > 0 else { return nil }
        if let until = record.lockedUntil, until > now { return record }
        guard now.timeIntervalSince(record.lastFailureAt) < failureReset else { return nil }
        return record
    }

    /// Until when attempts are refused at `now` (`nil`: an attempt may be made).
    public func lockedUntil(_ record: LoginFailureRecord?, now: Date) -> Date? {
        guard let until = current(record, now: now)?.lockedUntil, until > now else { return nil }
        return until
    }

    /// The wait after the `failures`th failure in a row.
    public func wait(afterFailures failures: Int) -> TimeInterval {
        guard failures >= failuresBeforeWait else { return 0 }
        let steps = Double(failures - failuresBeforeWait + 1)
        return min(maxWait, waitIncrement * steps)
    }

    /// Counts an attempt made at `now` (which must not be refused: see ``lockedUntil(_:now:)``).
    /// Returns the new record and the attempt's ticket: its number among the failures counted.
    public func attempted(_ record: LoginFailureRecord?, now: Date) -> (record: LoginFailureRecord, ticket: Int) {
        let previous = current(record, now: now)
        let failures = (previous?.failures ?? 0) + 1
        var waitUntil: Date? = nil
        let wait = self.wait(afterFailures: failures)
        if wait > 0 { waitUntil = now.addingTimeInterval(wait) }
        if quickFailureInterval > 0, let previous, now.timeIntervalSince(previous.lastFailureAt) < quickFailureInterval {
            let quick = now.addingTimeInterval(quickFailureWait)
            waitUntil = max(waitUntil ?? quick, quick)
        }
        return (LoginFailureRecord(failures: failures, lastFailureAt: now, lockedUntil: waitUntil), failures)
    }

    /// Takes failures back after the attempt with `ticket` succeeded: its own, and with
    /// ``successForgivesEarlierFailures`` every one counted before it. Attempts counted after it (guesses
    /// running in parallel) stay counted, and so does a wait one of them started. `nil`: nothing left.
    public func succeeded(_ record: LoginFailureRecord?, ticket: Int) -> LoginFailureRecord? {
        guard var record, record.failures > 0 else { return nil }
        let laterAttempts = max(0, record.failures - ticket)
        record.failures = successForgivesEarlierFailures ? laterAttempts : record.failures - 1
        guard record.failures > 0 else { return nil }
        if successForgivesEarlierFailures, laterAttempts == 0 { record.lockedUntil = nil }
        return record
    }
}
