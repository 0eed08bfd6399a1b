import Foundation

/// The records of ``PasswordLockout``, shared by every replica on the same database.
public protocol LoginFailureStore: Sendable {
    /// Reads the records of `subjects` (absent ones are missing from the dictionary), lets `change`
    /// decide, and writes what it returns (`nil`: delete the record; a subject it leaves out is left
    /// alone), all in ONE write transaction that excludes every other call for any of these subjects,
    /// across replicas. `change` may run again if the database asks for a retry, so it must not have
    /// side effects.
    func updateLoginFailures<T: Sendable>(
        _ subjects: [String],
        _ change: @escaping @Sendable ([String: LoginFailureRecord]) throws -> (records: [String: LoginFailureRecord?], result: T)
    ) async throws -> T

    /// The records of `subjects` that exist.
    func loginFailures(_ subjects: [String]) async throws -> [String: LoginFailureRecord]

    /// Deletes the records of `subjects` (an administrator's unlock). Returns how many there were.
    @discardableResult
    func deleteLoginFailures(_ subjects: [String]) async throws -> Int

    /// Deletes records whose last failure is before `before` and that wait no longer. Returns how many.
    @discardableResult
    func pruneLoginFailures(lastFailureBefore before: Date, now: Date) async throws -> Int
}
