import Foundation
import HearthWire

/// Proof of a second factor: a ``PhoneMultiFactorAssertion`` (an SMS code), a ``TOTPMultiFactorAssertion`` (an
/// authenticator app's code) or, a Hearth extension, a ``RecoveryCodeMultiFactorAssertion``. Made by
/// ``PhoneMultiFactorGenerator``, ``TOTPMultiFactorGenerator`` and ``RecoveryCodeMultiFactorGenerator``; taken by
/// ``MultiFactor/enroll(with:displayName:)`` and ``MultiFactorResolver/resolveSignIn(with:)``.
public class MultiFactorAssertion: @unchecked Sendable {
    // Sendable: every stored property, here and in the subclasses, is an immutable Sendable value.

    /// ``PhoneMultiFactorID``, ``TOTPMultiFactorID`` or ``RecoveryCodeMultiFactorID``.
    public let factorID: String

    init(factorID: String) {
        self.factorID = factorID
    }

    /// The `mfaEnrollment:finalize` request of this proof.
    func enrollmentRequest(idToken: String, displayName: String?) throws -> FinalizeMFAEnrollmentRequest {
        throw AuthErrorFactory.error(.internalError, message: "A \(factorID) assertion cannot enroll a second factor.")
    }

    /// The `mfaSignIn:finalize` request of this proof.
    func signInRequest(pendingCredential: String) throws -> FinalizeMFASignInRequest {
        throw AuthErrorFactory.error(.internalError, message: "A \(factorID) assertion cannot finish a sign-in.")
    }
}
