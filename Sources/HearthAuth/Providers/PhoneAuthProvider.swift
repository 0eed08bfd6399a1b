import Foundation
import HearthWire

/// Phone number sign-in: sends a verification code by SMS and makes a credential of the code the person typed.
///
/// ```swift
/// let verificationID = try await PhoneAuthProvider.provider().verifyPhoneNumber("+16505551234", uiDelegate: nil)
/// // …the person types the code from the SMS…
/// let credential = PhoneAuthProvider.provider().credential(withVerificationID: verificationID, verificationCode: code)
/// try await Auth.auth().signIn(with: credential)
/// ```
///
/// FirebaseAuth proves the app first (silent push, reCAPTCHA); HearthAuth sends the number as it is, so `uiDelegate`
/// is accepted and not used. On a development server the codes are listed at `/sandbox/sms` (and in the emulator's
/// `verificationCodes` listing); the project's test phone numbers get their fixed code and no SMS.
public final class PhoneAuthProvider: Sendable {
    /// `"phone"`
    public static let id = PhoneAuthProviderID

    let auth: Auth

    private init(auth: Auth) {
        self.auth = auth
    }

    /// The provider of the default app's ``Auth``.
    public static func provider() -> PhoneAuthProvider {
        PhoneAuthProvider(auth: Auth.auth())
    }

    /// The provider of `auth`.
    public static func provider(auth: Auth) -> PhoneAuthProvider {
        PhoneAuthProvider(auth: auth)
    }

    /// Sends a verification code to `phoneNumber` (E.164: `+` and digits) and hands over the verification ID to
    /// make the credential with. An empty number fails with ``AuthErrorCode/missingPhoneNumber`` without a call.
    public func verifyPhoneNumber(
        _ phoneNumber: String, uiDelegate: (any AuthUIDelegate)? = nil, completion: (@MainActor @Sendable (String?, (any Error)?) -> Void)?
    ) {
        verifyPhoneNumber(phoneNumber, uiDelegate: uiDelegate, multiFactorSession: nil, completion: completion)
    }

    /// ``verifyPhoneNumber(_:uiDelegate:completion:)`` for a multi-factor session. A non-nil `multiFactorSession`
    /// fails with ``AuthErrorCode/operationNotAllowed``: Hearth has no multi-factor sign-in yet.
    public func verifyPhoneNumber(
        _ phoneNumber: String, uiDelegate: (any AuthUIDelegate)? = nil, multiFactorSession: MultiFactorSession? = nil,
        completion: (@MainActor @Sendable (String?, (any Error)?) -> Void)?
    ) {
        complete(completion) {
            try await self.verifyPhoneNumber(phoneNumber, uiDelegate: uiDelegate, multiFactorSession: multiFactorSession)
        }
    }

    /// Sends a verification code to `phoneNumber` and returns the verification ID (the server's `sessionInfo`).
    public func verifyPhoneNumber(
        _ phoneNumber: String, uiDelegate: (any AuthUIDelegate)? = nil, multiFactorSession: MultiFactorSession? = nil
    ) async throws -> String {
        if multiFactorSession != nil {
            throw AuthErrorFactory.error(
                .operationNotAllowed, message: "Multi-factor phone verification is not supported by Hearth yet: pass no multiFactorSession.")
        }
        if phoneNumber.isEmpty { throw AuthErrorFactory.error(.missingPhoneNumber) }
        var request = SendVerificationCodeRequest(phoneNumber: phoneNumber)
        request.tenantId = auth.tenantID
        // A server that asks for Hearth's proof of work gets one; one that asks for a captcha's token is not served
        // (the captcha is the app's to show: pass its token through the REST API).
        let parameters = try await auth.engine.backend.recaptchaParams()
        if let work = parameters.hearthProofOfWork, work.format == "hearth-pow.v1" {
            request.recaptchaToken = ProofOfWorkSolver.solve(
                projectID: auth.engine.options.projectID, phoneNumber: phoneNumber, time: Int(auth.engine.now.timeIntervalSince1970),
                difficulty: work.difficulty)
        }
        let response: SendVerificationCodeResponse = try await auth.engine.backend.call(.sendVerificationCode, request)
        return response.sessionInfo
    }

    /// A credential of the verification ID from ``verifyPhoneNumber(_:uiDelegate:multiFactorSession:)`` and the
    /// code the person received.
    public func credential(withVerificationID verificationID: String, verificationCode: String) -> PhoneAuthCredential {
        PhoneAuthCredential(verificationID: verificationID, verificationCode: verificationCode)
    }
}

/// A phone number proved by a verification code, or by the server's temporary proof (the credential that
/// ``AuthErrorCode/credentialAlreadyInUse`` carries in ``AuthErrorUserInfoUpdatedCredentialKey`` when the number
/// belongs to another account). Make one with ``PhoneAuthProvider/credential(withVerificationID:verificationCode:)``.
public final class PhoneAuthCredential: AuthCredential, @unchecked Sendable {
    enum Proof: Sendable {
        case verification(id: String, code: String)
        case temporaryProof(String, phoneNumber: String)
    }

    let proof: Proof

    init(verificationID: String, verificationCode: String) {
        proof = .verification(id: verificationID, code: verificationCode)
        super.init(provider: PhoneAuthProviderID)
    }

    init(temporaryProof: String, phoneNumber: String) {
        proof = .temporaryProof(temporaryProof, phoneNumber: phoneNumber)
        super.init(provider: PhoneAuthProviderID)
    }

    /// The `accounts:signInWithPhoneNumber` request of this credential. An empty verification ID or code fails with
    /// ``AuthErrorCode/missingVerificationID`` or ``AuthErrorCode/missingVerificationCode``, as in FirebaseAuth.
    func request(idToken: String?, operation: String?, tenantID: String?) throws -> SignInWithPhoneNumberRequest {
        var request: SignInWithPhoneNumberRequest
        switch proof {
        case .verification(let id, let code):
            if id.isEmpty { throw AuthErrorFactory.error(.missingVerificationID) }
            if code.isEmpty { throw AuthErrorFactory.error(.missingVerificationCode) }
            request = SignInWithPhoneNumberRequest(sessionInfo: id, code: code, idToken: idToken, operation: operation)
        case .temporaryProof(let proof, let phoneNumber):
            request = SignInWithPhoneNumberRequest(phoneNumber: phoneNumber, temporaryProof: proof, idToken: idToken, operation: operation)
        }
        request.tenantId = tenantID
        return request
    }
}

/// A multi-factor session, as FirebaseAuth's `MultiFactorSession` (from `user.multiFactor.session()` or a
/// resolver). Hearth has no multi-factor sign-in yet, so no public API makes one.
public final class MultiFactorSession: Sendable {
    init() {}
}

extension AuthEngine {
    /// `accounts:signInWithPhoneNumber` with FirebaseAuth's reading of the answer: a 200 with `temporaryProof` and
    /// `phoneNumber` (and no tokens) means that linking found the number on another account, and becomes
    /// ``AuthErrorCode/credentialAlreadyInUse`` carrying a ``PhoneAuthCredential`` of the proof, which signs in to
    /// that account. `PHONE_NUMBER_EXISTS` (a proof linked to a user other than the number's) carries the proof
    /// credential back, still unspent.
    ///
    /// - Parameter operation: `SIGN_UP_OR_IN`, `REAUTH`, `LINK` or `UPDATE`, as FirebaseAuth sends them.
    func signInWithPhoneNumber(_ credential: PhoneAuthCredential, idToken: String?, operation: String?) async throws
        -> SignInWithPhoneNumberResponse
    {
        let request = try credential.request(idToken: idToken, operation: operation, tenantID: tenantID)
        let response: SignInWithPhoneNumberResponse
        do {
            response = try await backend.call(.signInWithPhoneNumber, request)
        } catch  where AuthErrorCode(error) == .credentialAlreadyInUse {
            guard case .temporaryProof = credential.proof else { throw error }
            throw AuthErrorFactory.error(.credentialAlreadyInUse, updatedCredential: credential)
        }
        if let proof = response.temporaryProof, !proof.isEmpty, let phoneNumber = response.phoneNumber, !phoneNumber.isEmpty {
            throw AuthErrorFactory.error(
                .credentialAlreadyInUse, updatedCredential: PhoneAuthCredential(temporaryProof: proof, phoneNumber: phoneNumber))
        }
        return response
    }
}
