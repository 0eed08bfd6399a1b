import Foundation
import HearthCore
import SQLKit

// MARK: - LoginFailureStore

extension SQLStore {
    /// One write transaction: the subjects' locks (PostgreSQL: advisory transaction locks, taken in
    /// sorted order so that two calls never wait on each other crosswise; SQLite: the single writer),
    /// then read, decide, write.
    public func updateLoginFailures<T: Sendable>(
        _ subjects: [String],
        _ change: @escaping @Sendable ([String: LoginFailureRecord]) throws -> (records: [String: LoginFailureRecord?], result: T)
    ) async throws -> T {
        let sorted = Array(Set(subjects)).sorted()
        return try await work.write { database in
            for subject in sorted {
                try await SQLDialectQuirks.takeTransactionLock(.loginFailures, key: subject, on: database)
            }
            let current = try await Self.readLoginFailures(sorted, on: database)
            let decided = try change(current)
            for (subject, record) in decided.records.sorted(by: { $0.key < $1.key }) {
                guard let record else {
                    try await Self.exec(database, "DELETE FROM login_failures WHERE subject = \(bind: subject)")
                    continue
                }
                try await Self.exec(
                    database,
                    """
                    INSERT INTO login_failures (subject, failures, last_failure_at, locked_until)
                    VALUES (\(bind: subject), \(bind: Int64(record.failures)), \(bind: StoredTime.milliseconds(record.lastFailureAt)), \(bind: StoredTime.milliseconds(record.lockedUntil)))
                    ON CONFLICT (subject) DO UPDATE SET failures = excluded.failures,
                        last_failure_at = excluded.last_failure_at, locked_until = excluded.locked_until
                    """)
            }
            return decided.result
        }
    }

    public func loginFailures(_ subjects: [String]) async throws -> [String: LoginFailureRecord] {
        let sorted = Array(Set(subjects)).sorted()
        return try await work.read { database in try await Self.readLoginFailures(sorted, on: database) }
    }

    @discardableResult
    public func deleteLoginFailures(_ subjects: [String]) async throws -> Int {
        let sorted = Array(Set(subjects)).sorted()
        return try await work.write { database in
            var deleted = 0
            for subject in sorted {
                deleted += try await Self.rows(
                    database, "DELETE FROM login_failures WHERE subject = \(bind: subject) RETURNING subject"
                ).count
            }
            return deleted
        }
    }

    @discardableResult
    public func pruneLoginFailures(lastFailureBefore before: Date, now: Date) async throws -> Int {
        try await work.writeSingleStatement { database in
            try await Self.rows(
                database,
                """
                DELETE FROM login_failures
                WHERE last_failure_at < \(bind: StoredTime.milliseconds(before))
                    AND (locked_until IS NULL OR locked_until <= \(bind: StoredTime.milliseconds(now)))
                RETURNING subject
                """
            ).count
        }
    }

    private static func readLoginFailures(_ subjects: [String], on database: any SQLDatabase) async throws -> [String: LoginFailureRecord] {
        var records: [String: LoginFailureRecord] = [:]
        for subject in subjects {
            let row = try await rows(
                database,
                "SELECT failures, last_failure_at, locked_until FROM login_failures WHERE subject = \(bind: subject)"
            ).first
            guard let row else { continue }
            records[subject] = LoginFailureRecord(
                failures: Int(try row.int64("failures")), lastFailureAt: try row.date("last_failure_at"),
                lockedUntil: try row.optionalDate("locked_until"))
        }
        return records
    }
}
