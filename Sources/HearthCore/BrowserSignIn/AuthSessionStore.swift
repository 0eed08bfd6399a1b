import Foundation

/// Where pending browser sign-ins live (``AuthSessionRecord``), shared by every replica.
public protocol AuthSessionStore: Sendable {
    /// Stores a new row, first deleting rows that expired before `record.createdAt`.
    func insertAuthSession(_ record: AuthSessionRecord) async throws
    /// Reads and deletes the row with this key and kind in one transaction, so that of two concurrent
    /// callers exactly one gets it. Returns it even when expired (the caller says why it refuses);
    /// `nil` when there is no such row (never issued, or consumed already).
    func consumeAuthSession(id: String, kind: AuthSessionRecord.Kind) async throws -> AuthSessionRecord?
    /// Deletes rows that expired before `date`; returns how many.
    func deleteAuthSessions(expiredBefore date: Date) async throws -> Int
}
