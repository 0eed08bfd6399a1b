import Foundation

/// A phone number's verification as the store keeps it: a code sent by SMS (or a test number's fixed code) waiting to
/// be entered, or a temporary proof that the number was verified. Only hashes are kept: ``key`` is the hash of the
/// `sessionInfo` or the `temporaryProof` the client holds, and ``codeHash`` the code's hash salted with the
/// `sessionInfo` (``VerificationCode/hash(_:sessionInfo:)``), so a copy of the table neither names a session nor
/// lets its code be found by trying the million codes.
public struct PhoneVerificationRecord: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        /// `sendVerificationCode`'s session: a code, a few attempts.
        case code
        /// `temporaryProof`: the number was verified while another account had it; the proof signs in to it once.
        case proof
        /// A session whose code a verification service sent and checks (Twilio Verify): no hash here, a few attempts.
        case external
    }

    /// ``VerificationCode/key(_:)`` of the `sessionInfo` or the `temporaryProof`.
    public var key: String
    public var kind: Kind
    /// E.164.
    public var phoneNumber: String
    /// `nil` for a proof and an external session.
    public var codeHash: String?
    /// Wrong codes still allowed; 0: the session is spent (used or voided).
    public var attemptsLeft: Int
    public var createdAt: Date
    public var expiresAt: Date

    public init(
        key: String, kind: Kind, phoneNumber: String, codeHash: String?, attemptsLeft: Int, createdAt: Date, expiresAt: Date
    ) {
        self.key = key
        self.kind = kind
        self.phoneNumber = phoneNumber
        self.codeHash = codeHash
        self.attemptsLeft = attemptsLeft
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    public func isExpired(at now: Date) -> Bool { now >= expiresAt }
}

/// What checking a code did (``PhoneVerificationStore/checkPhoneCode(key:codeHash:)``).
public enum PhoneCodeCheck: Sendable, Equatable {
    /// The code was right and the session is spent now: only this caller got it.
    case verified(PhoneVerificationRecord)
    /// The code was wrong; one attempt fewer is left (0: the session is void).
    case wrongCode(attemptsLeft: Int, expiresAt: Date)
    /// The session was used or voided before.
    case spent
    /// No such session (never issued, or pruned after its expiry).
    case unknown
}

/// What reserving an attempt at an external session did (``PhoneVerificationStore/reservePhoneAttempt(key:)``).
public enum PhoneAttemptReservation: Sendable, Equatable {
    /// An attempt is taken; the record shows those left after it. Check the code, then spend the session.
    case reserved(PhoneVerificationRecord)
    /// Used, or out of attempts.
    case spent
    /// No such external session.
    case unknown
}
