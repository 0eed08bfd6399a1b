import Foundation

/// Where outstanding e-mail action codes live (``ActionCodeRecord``), shared by every replica.
public protocol ActionCodeStore: Sendable {
    /// Stores a new code, first deleting codes that expired before `record.createdAt`.
    func insertActionCode(_ record: ActionCodeRecord) async throws
    /// The code with this hash, expired or not, without using it up (`accounts:resetPassword` without a new
    /// password, the action page before the user confirms).
    func actionCode(hash: String) async throws -> ActionCodeRecord?
    /// Reads and deletes the code in one transaction, so that of two concurrent callers exactly one gets it.
    /// Returns it even when expired (the caller says why it refuses); `nil` when there is no such code
    /// (never issued, used already, or voided).
    func consumeActionCode(hash: String) async throws -> ActionCodeRecord?
    /// Voids the outstanding codes of `uid` whose kind is in `kinds` (a new password voids reset links, a new
    /// e-mail address voids every link sent for the old one). Returns how many there were.
    @discardableResult
    func deleteActionCodes(uid: String, kinds: Set<ActionCodeKind>) async throws -> Int
    /// Deletes codes that expired before `date`; returns how many.
    @discardableResult
    func deleteActionCodes(expiredBefore date: Date) async throws -> Int
}
