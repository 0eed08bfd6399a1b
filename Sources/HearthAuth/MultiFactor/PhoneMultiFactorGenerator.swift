import Foundation
import HearthWire

/// Makes the proof of an SMS second factor.
///
/// ```swift
/// let session = try await user.multiFactor.session()
/// let verificationID = try await PhoneAuthProvider.provider()
///     .verifyPhoneNumber("+16505551234", uiDelegate: nil, multiFactorSession: session)
/// // …the person types the code from the SMS…
/// let credential = PhoneAuthProvider.provider().credential(withVerificationID: verificationID, verificationCode: code)
/// try await user.multiFactor.enroll(with: PhoneMultiFactorGenerator.assertion(with: credential), displayName: "Work phone")
/// ```
public enum PhoneMultiFactorGenerator {
    /// The proof of an SMS code: `credential` from a verification ID that
    /// ``PhoneAuthProvider/verifyPhoneNumber(_:uiDelegate:multiFactorSession:)`` (enrolment) or
    /// ``PhoneAuthProvider/verifyPhoneNumber(with:uiDelegate:multiFactorSession:)`` (sign-in) returned.
    public static func assertion(with credential: PhoneAuthCredential) -> PhoneMultiFactorAssertion {
        PhoneMultiFactorAssertion(credential: credential)
    }
}

/// The proof of an SMS second factor; see ``PhoneMultiFactorGenerator``.
public final class PhoneMultiFactorAssertion: MultiFactorAssertion, @unchecked Sendable {
    let credential: PhoneAuthCredential

    init(credential: PhoneAuthCredential) {
        self.credential = credential
        super.init(factorID: PhoneMultiFactorID)
    }

    /// The verification ID and code; empty ones fail as a phone sign-in's do.
    private func verificationInfo() throws -> MFAPhoneVerificationInfo {
        guard case .verification(let id, let code) = credential.proof else {
            throw AuthErrorFactory.error(
                .invalidCredential, message: "A second factor needs a verification code, not a phone number's temporary proof.")
        }
        if id.isEmpty { throw AuthErrorFactory.error(.missingVerificationID) }
        if code.isEmpty { throw AuthErrorFactory.error(.missingVerificationCode) }
        return MFAPhoneVerificationInfo(sessionInfo: id, code: code)
    }

    override func enrollmentRequest(idToken: String, displayName: String?) throws -> FinalizeMFAEnrollmentRequest {
        FinalizeMFAEnrollmentRequest(idToken: idToken, displayName: displayName, phoneVerificationInfo: try verificationInfo())
    }

    override func signInRequest(pendingCredential: String) throws -> FinalizeMFASignInRequest {
        FinalizeMFASignInRequest(mfaPendingCredential: pendingCredential, phoneVerificationInfo: try verificationInfo())
    }
}
