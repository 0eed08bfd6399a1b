import Foundation

/// The kinds of second factor, named as the ID token's `firebase.sign_in_second_factor` names them.
public enum SecondFactorKind: String, Sendable, CaseIterable {
    case phone
    case totp
    /// A Hearth extension: one of the account's recovery codes instead of a factor.
    case recoveryCode = "recovery_code"
}

/// A second factor a user enrolled.
public struct SecondFactorEnrollment: Sendable, Equatable {
    public enum Factor: Sendable, Equatable {
        /// Codes by SMS to this number (E.164).
        case phone(String)
        /// Codes of an authenticator app. The shared secret as ``MultiFactorSecrets`` seals it (plain ASCII when the
        /// server has no key-encryption key); it is never shown again after enrolment.
        case totp(sealedSecret: String)
    }

    /// `mfaEnrollmentId`.
    public var id: String
    public var displayName: String?
    public var enrolledAt: Date
    public var factor: Factor

    public init(id: String, displayName: String?, enrolledAt: Date, factor: Factor) {
        self.id = id
        self.displayName = displayName
        self.enrolledAt = enrolledAt
        self.factor = factor
    }

    public var kind: SecondFactorKind {
        switch factor {
        case .phone: return .phone
        case .totp: return .totp
        }
    }

    /// The phone number of a phone factor.
    public var phoneNumber: String? {
        if case .phone(let number) = factor { return number }
        return nil
    }

    /// At most this many factors per account (Firebase's limit).
    public static let limit = 5

    /// A new enrolment id: 28 characters from `[A-Za-z0-9]`, as uids are.
    public static func makeID() -> String { UserRecord.makeUID() }

    /// A phone number with all but its last four digits hidden, as a sign-in's `mfaInfo` shows it: `+*******1234`.
    public static func masked(_ number: String) -> String {
        let digits = number.dropFirst()
        guard digits.count > 4 else { return number }
        return "+" + String(repeating: "*", count: digits.count - 4) + digits.suffix(4)
    }
}

/// Which second factor a session was completed with (`firebase.sign_in_second_factor` and
/// `firebase.second_factor_identifier` of its ID tokens).
public struct SecondFactorUse: Sendable, Equatable {
    public var kind: SecondFactorKind
    /// The enrolment's id; for a recovery code, `recovery_code`.
    public var enrollmentID: String

    public init(kind: SecondFactorKind, enrollmentID: String) {
        self.kind = kind
        self.enrollmentID = enrollmentID
    }

    /// `<kind>:<enrollment id>`, as the sessions table keeps it.
    public var stored: String { "\(kind.rawValue):\(enrollmentID)" }

    public init?(stored: String) {
        guard let colon = stored.firstIndex(of: ":"), let kind = SecondFactorKind(rawValue: String(stored[..<colon])) else { return nil }
        self.init(kind: kind, enrollmentID: String(stored[stored.index(after: colon)...]))
    }
}
