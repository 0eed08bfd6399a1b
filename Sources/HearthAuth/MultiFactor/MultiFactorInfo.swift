import Foundation
import HearthWire

/// The factor id of SMS second factors: `"phone"` (FirebaseAuth's `PhoneMultiFactorID`).
public let PhoneMultiFactorID = "phone"
/// The factor id of authenticator-app second factors: `"totp"` (FirebaseAuth's `TOTPMultiFactorID`).
public let TOTPMultiFactorID = "totp"

/// One enrolled second factor: ``User``'s ``MultiFactor/enrolledFactors``, or a ``MultiFactorResolver``'s hints.
///
/// A ``PhoneMultiFactorInfo`` or a ``TOTPMultiFactorInfo``; ``factorID`` tells which.
public class MultiFactorInfo: @unchecked Sendable {
    // Sendable: every stored property is an immutable Sendable value.

    /// The enrolment's id (`mfaEnrollmentId`), what ``MultiFactor/unenroll(withFactorUID:)`` and
    /// ``TOTPMultiFactorGenerator/assertionForSignIn(withEnrollmentID:oneTimePassword:)`` take.
    public let uid: String
    /// The name given at enrolment, if any.
    public let displayName: String?
    /// When the factor was enrolled (now, if the server did not say).
    public let enrollmentDate: Date
    /// ``PhoneMultiFactorID`` or ``TOTPMultiFactorID``.
    public let factorID: String

    init(_ enrollment: MFAEnrollment, factorID: String) {
        uid = enrollment.mfaEnrollmentId ?? ""
        displayName = enrollment.displayName
        enrollmentDate = enrollment.enrolledAt.flatMap(Self.date) ?? Date()
        self.factorID = factorID
    }

    /// The info of an enrolment of `accounts:lookup` or of a sign-in's `mfaInfo`; nil for a kind this SDK does not know.
    static func make(_ enrollment: MFAEnrollment) -> MultiFactorInfo? {
        if enrollment.phoneInfo != nil { return PhoneMultiFactorInfo(enrollment) }
        if enrollment.totpInfo != nil { return TOTPMultiFactorInfo(enrollment) }
        return nil
    }

    /// An RFC 3339 time, with or without fractional seconds.
    static func date(_ text: String) -> Date? {
        (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
            ?? (try? Date.ISO8601FormatStyle().parse(text))
    }
}

/// An SMS second factor.
public final class PhoneMultiFactorInfo: MultiFactorInfo, @unchecked Sendable {
    /// `"phone"`
    public static let PhoneMultiFactorID = HearthAuth.PhoneMultiFactorID
    /// `"totp"`, declared here as in FirebaseAuth.
    public static let TOTPMultiFactorID = HearthAuth.TOTPMultiFactorID

    /// The factor's number: E.164 in ``MultiFactor/enrolledFactors``, masked (`+*******1234`) in a resolver's hints.
    public let phoneNumber: String

    init(_ enrollment: MFAEnrollment) {
        phoneNumber = enrollment.phoneInfo ?? ""
        super.init(enrollment, factorID: HearthAuth.PhoneMultiFactorID)
    }
}

/// An authenticator-app (TOTP) second factor.
public final class TOTPMultiFactorInfo: MultiFactorInfo, @unchecked Sendable {
    init(_ enrollment: MFAEnrollment) {
        super.init(enrollment, factorID: HearthAuth.TOTPMultiFactorID)
    }
}
