import Foundation
import HearthWire

/// Makes the secret of an authenticator-app (TOTP) second factor, and the proofs of its codes.
///
/// ```swift
/// let session = try await user.multiFactor.session()
/// let secret = try await TOTPMultiFactorGenerator.generateSecret(with: session)
/// let url = secret.generateQRCodeURL(withAccountName: user.email ?? "", issuer: "My App")  // shown as a QR code
/// // …the person adds the account to the app and types its current code…
/// let assertion = TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: code)
/// try await user.multiFactor.enroll(with: assertion, displayName: "Authenticator")
/// ```
///
/// At sign-in, ``MultiFactorResolver/resolveSignIn(with:)`` takes
/// ``assertionForSignIn(withEnrollmentID:oneTimePassword:)`` of the hint's ``MultiFactorInfo/uid``. The server takes a
/// code once: a second sign-in within the same 30 seconds needs the next code.
public enum TOTPMultiFactorGenerator {
    /// Starts a TOTP enrolment (`mfaEnrollment:start`) and hands over its secret. `session` must be an enrolment's,
    /// from ``MultiFactor/session()``; a sign-in's fails with ``AuthErrorCode/invalidMultiFactorSession``.
    public static func generateSecret(
        with session: MultiFactorSession, completion: @escaping @MainActor @Sendable (TOTPSecret?, (any Error)?) -> Void
    ) {
        complete(completion) { try await generateSecret(with: session) }
    }

    public static func generateSecret(with session: MultiFactorSession) async throws -> TOTPSecret {
        guard case .enrollment(let user) = session.kind else {
            throw AuthErrorFactory.error(.invalidMultiFactorSession, message: "A TOTP secret is made for an enrolment's session.")
        }
        let engine = user.engine
        let response: StartMFAEnrollmentResponse = try await engine.withIDToken(of: user) { token in
            var request = StartMFAEnrollmentRequest(idToken: token, totpEnrollmentInfo: .init())
            request.tenantId = user.tenantID
            return try await engine.backend.call(.startMFAEnrollment, request)
        }
        guard let info = response.totpSessionInfo else {
            throw AuthErrorFactory.error(.internalError, message: "Error generating TOTP secret.")
        }
        return TOTPSecret(info)
    }

    /// The proof of an authenticator app's code for the enrolment that made `secret`.
    public static func assertionForEnrollment(with secret: TOTPSecret, oneTimePassword: String) -> TOTPMultiFactorAssertion {
        TOTPMultiFactorAssertion(.secret(secret), oneTimePassword: oneTimePassword)
    }

    /// The proof of an authenticator app's code for the enrolled factor `enrollmentID` (a hint's
    /// ``MultiFactorInfo/uid``), to finish a sign-in.
    public static func assertionForSignIn(withEnrollmentID enrollmentID: String, oneTimePassword: String) -> TOTPMultiFactorAssertion {
        TOTPMultiFactorAssertion(.enrollmentID(enrollmentID), oneTimePassword: oneTimePassword)
    }
}

/// The proof of an authenticator app's code; see ``TOTPMultiFactorGenerator``.
public final class TOTPMultiFactorAssertion: MultiFactorAssertion, @unchecked Sendable {
    enum SecretOrID {
        case secret(TOTPSecret)
        case enrollmentID(String)
    }

    let secretOrID: SecretOrID
    let oneTimePassword: String

    init(_ secretOrID: SecretOrID, oneTimePassword: String) {
        self.secretOrID = secretOrID
        self.oneTimePassword = oneTimePassword
        super.init(factorID: TOTPMultiFactorID)
    }

    override func enrollmentRequest(idToken: String, displayName: String?) throws -> FinalizeMFAEnrollmentRequest {
        guard case .secret(let secret) = secretOrID else {
            throw AuthErrorFactory.error(
                .internalError, message: "Enrol with TOTPMultiFactorGenerator.assertionForEnrollment(with:oneTimePassword:).")
        }
        return FinalizeMFAEnrollmentRequest(
            idToken: idToken, displayName: displayName,
            totpVerificationInfo: MFATOTPVerificationInfo(sessionInfo: secret.sessionInfo, verificationCode: oneTimePassword))
    }

    override func signInRequest(pendingCredential: String) throws -> FinalizeMFASignInRequest {
        guard case .enrollmentID(let enrollmentID) = secretOrID else {
            throw AuthErrorFactory.error(
                .internalError, message: "Sign in with TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID:oneTimePassword:).")
        }
        return FinalizeMFASignInRequest(
            mfaPendingCredential: pendingCredential, mfaEnrollmentId: enrollmentID,
            totpVerificationInfo: MFATOTPVerificationInfo(verificationCode: oneTimePassword))
    }
}
