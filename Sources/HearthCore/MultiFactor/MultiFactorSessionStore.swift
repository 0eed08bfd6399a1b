import Foundation

/// A multi-factor step waiting for its second half, as the store keeps it: a sign-in whose first factor passed
/// (the client holds its `mfaPendingCredential`), or a TOTP enrolment whose secret was shown (the client holds its
/// `sessionInfo`). Only ``key``, a hash of what the client holds, names it.
public struct MultiFactorSessionRecord: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case signIn = "sign-in"
        case totpEnrollment = "totp-enrollment"
        /// A passkey enrolment between `passkeyEnrollment:start` and `finalize`: the challenge issued to `uid`.
        case passkeyEnrollment = "passkey-enrollment"
        /// A passkey sign-in between `passkeySignIn:start` and `finalize`: the challenge issued (no uid yet).
        case passkeySignIn = "passkey-sign-in"
    }

    /// ``VerificationCode/key(_:)`` of the handle the client holds.
    public var key: String
    public var kind: Kind
    public var uid: String
    /// A sign-in: ``PendingSignIn`` as JSON. An enrolment: ``PendingTOTPEnrollment`` as JSON (its secret sealed).
    public var payload: String
    /// Attempts still allowed; 0: spent.
    public var attemptsLeft: Int
    public var createdAt: Date
    public var expiresAt: Date

    public init(key: String, kind: Kind, uid: String, payload: String, attemptsLeft: Int, createdAt: Date, expiresAt: Date) {
        self.key = key
        self.kind = kind
        self.uid = uid
        self.payload = payload
        self.attemptsLeft = attemptsLeft
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    public func isExpired(at now: Date) -> Bool { now >= expiresAt }
}

/// What reserving an attempt at a multi-factor session did.
public enum MultiFactorAttempt: Sendable, Equatable {
    /// One attempt taken; the record shows those left after it. Check the factor, then spend the session.
    case reserved(MultiFactorSessionRecord)
    /// Used, or out of attempts.
    case spent
    /// No such session.
    case unknown
}

/// Where multi-factor sessions live, shared by every replica.
public protocol MultiFactorSessionStore: Sendable {
    /// Stores a new session, first deleting those that expired before `record.createdAt`.
    func insertMultiFactorSession(_ record: MultiFactorSessionRecord) async throws

    /// The session of `key`, without using an attempt.
    func multiFactorSession(key: String) async throws -> MultiFactorSessionRecord?

    /// Takes one attempt at the session `key` while it has any (one conditional write: of parallel callers, no more
    /// get through than it has attempts).
    func reserveMultiFactorAttempt(key: String) async throws -> MultiFactorAttempt

    /// Deletes the session `key`; `true` for the one caller that did (of parallel ones whose factors were right, one
    /// signs in).
    func spendMultiFactorSession(key: String) async throws -> Bool
}

/// A first factor that passed, waiting for the second: how the session will be recorded once it is done.
public struct PendingSignIn: Codable, Sendable, Equatable {
    /// The session's `sign_in_provider`.
    public var provider: String
    /// The audit event's method.
    public var method: String
    /// A custom token's developer claims as JSON text.
    public var sessionClaims: String?

    public init(provider: String, method: String, sessionClaims: String?) {
        self.provider = provider
        self.method = method
        self.sessionClaims = sessionClaims
    }
}

/// A TOTP enrolment between `mfaEnrollment:start` and `finalize`.
public struct PendingTOTPEnrollment: Codable, Sendable, Equatable {
    /// The enrolment id the factor will have.
    public var enrollmentID: String
    /// The secret as ``MultiFactorSecrets`` sealed it.
    public var sealedSecret: String

    public init(enrollmentID: String, sealedSecret: String) {
        self.enrollmentID = enrollmentID
        self.sealedSecret = sealedSecret
    }
}

extension JSONEncoder {
    /// Sorted keys: the same value always makes the same text.
    static let multiFactor: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()
}

extension Encodable {
    /// This value as compact JSON text.
    var multiFactorJSON: String { String(decoding: (try? JSONEncoder.multiFactor.encode(self)) ?? Data("{}".utf8), as: UTF8.self) }
}
