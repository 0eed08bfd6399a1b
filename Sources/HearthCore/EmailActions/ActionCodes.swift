import Foundation

/// Using the codes of e-mail actions (the links of sign-in, reset, verification and recovery mails).
public struct ActionCodes: Sendable {
    public let store: any ActionCodeStore
    public let clock: WallClock

    public init(store: any ActionCodeStore, clock: WallClock) {
        self.store = store
        self.clock = clock
    }

    /// The code's record without using it up: `INVALID_OOB_CODE` for a code never issued, used or voided,
    /// `EXPIRED_OOB_CODE` for one past its time.
    public func peek(_ code: String) async throws -> ActionCodeRecord {
        guard ActionCode.isWellFormed(code), let record = try await store.actionCode(hash: ActionCode.hash(code)) else {
            throw HearthError(.invalidOOBCode)
        }
        guard !record.isExpired(at: clock.now) else { throw HearthError(.expiredOOBCode) }
        return record
    }

    /// Uses the code up, once `peek` has said it is of one of `kinds`: of two parallel calls one gets it.
    public func redeem(_ code: String, kinds: Set<ActionCodeKind>) async throws -> ActionCodeRecord {
        let record = try await peek(code)
        guard kinds.contains(record.kind) else { throw HearthError(.invalidOOBCode, reason: "code of another kind") }
        guard let consumed = try await store.consumeActionCode(hash: record.codeHash) else {
            throw HearthError(.invalidOOBCode, reason: "used by a parallel request")
        }
        guard !consumed.isExpired(at: clock.now) else { throw HearthError(.expiredOOBCode) }
        return consumed
    }
}
