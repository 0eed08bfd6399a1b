import Foundation

/// Where phone verifications live (``PhoneVerificationRecord``), shared by every replica.
public protocol PhoneVerificationStore: Sendable {
    /// Stores a new verification, first deleting those that expired before `record.createdAt`.
    func insertPhoneVerification(_ record: PhoneVerificationRecord) async throws

    /// Checks a code against the session `key` in one conditional write, so that of parallel callers (on any replica)
    /// at most one is told ``PhoneCodeCheck/verified(_:)``: a right code spends the session (its attempts go to 0)
    /// while it has attempts left; a wrong one takes one attempt while it has any. Expiry is the caller's to judge.
    func checkPhoneCode(key: String, codeHash: String) async throws -> PhoneCodeCheck

    /// Takes one attempt at the external session `key` while it has any (one conditional write): the caller then asks
    /// the service about the code, and on success ``spendPhoneSession(key:)``.
    func reservePhoneAttempt(key: String) async throws -> PhoneAttemptReservation

    /// Marks the external session `key` used; `true` for the one caller that did (of parallel ones whose codes the
    /// service approved, one signs in).
    func spendPhoneSession(key: String) async throws -> Bool

    /// The proof of `key`, expired or not, without using it up.
    func phoneProof(key: String) async throws -> PhoneVerificationRecord?

    /// Reads and deletes the proof of `key` in one statement: of parallel callers one gets it.
    func consumePhoneProof(key: String) async throws -> PhoneVerificationRecord?

    /// Deletes verifications that expired before `date`; returns how many.
    @discardableResult
    func deletePhoneVerifications(expiredBefore date: Date) async throws -> Int
}
