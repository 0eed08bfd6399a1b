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

    /// ``verifyPhoneNumber(_:uiDelegate:completion:)`` for a multi-factor session: with an enrolment's session
    /// (``MultiFactor/session()``) the code goes to `phoneNumber`, the number to enrol (`mfaEnrollment:start`).
    public func verifyPhoneNumber(
        _ phoneNumber: String, uiDelegate: (any AuthUIDelegate)? = nil, multiFactorSession: MultiFactorSession? = nil,
        completion: (@MainActor @Sendable (String?, (any Error)?) -> Void)?
    ) {
        complete(completion) {
            try await self.verifyPhoneNumber(phoneNumber, uiDelegate: uiDelegate, multiFactorSession: multiFactorSession)
        }
    }

    /// Sends a verification code to `phoneNumber` and returns the verification ID (the server's `sessionInfo`). With
    /// an enrolment's `multiFactorSession` the code is that of enrolling the number as a second factor; with a
    /// sign-in's, use ``verifyPhoneNumber(with:uiDelegate:multiFactorSession:)``.
    public func verifyPhoneNumber(
        _ phoneNumber: String, uiDelegate: (any AuthUIDelegate)? = nil, multiFactorSession: MultiFactorSession? = nil
    ) async throws -> String {
        switch multiFactorSession?.kind {
        case nil:
            break
        case .enrollment(let user):
            return try await startEnrollment(phoneNumber, user: user)
        case .signIn(let pendingCredential, let engine):
            // FirebaseAuth sends no factor here: the server answers MISSING_MFA_ENROLLMENT_ID (missingMultiFactorInfo).
            return try await startSignIn(pendingCredential: pendingCredential, enrollmentID: nil, engine: engine)
        }
        if phoneNumber.isEmpty { throw AuthErrorFactory.error(.missingPhoneNumber) }
        var request = SendVerificationCodeRequest(phoneNumber: phoneNumber)
        request.tenantId = auth.tenantID
        request.recaptchaToken = try await appProof(for: phoneNumber)
        let response: SendVerificationCodeResponse = try await auth.engine.backend.call(.sendVerificationCode, request)
        return response.sessionInfo
    }

    /// Sends the code of an enrolled SMS factor to finish a sign-in (`mfaSignIn:start`): `multiFactorInfo` is one of
    /// the resolver's ``MultiFactorResolver/hints`` and `multiFactorSession` its ``MultiFactorResolver/session``.
    /// Returns the verification ID to make the credential of ``PhoneMultiFactorGenerator/assertion(with:)`` with.
    public func verifyPhoneNumber(
        with multiFactorInfo: PhoneMultiFactorInfo, uiDelegate: (any AuthUIDelegate)? = nil, multiFactorSession: MultiFactorSession?,
        completion: (@MainActor @Sendable (String?, (any Error)?) -> Void)?
    ) {
        complete(completion) {
            try await self.verifyPhoneNumber(with: multiFactorInfo, uiDelegate: uiDelegate, multiFactorSession: multiFactorSession)
        }
    }

    public func verifyPhoneNumber(
        with multiFactorInfo: PhoneMultiFactorInfo, uiDelegate: (any AuthUIDelegate)? = nil, multiFactorSession: MultiFactorSession?
    ) async throws -> String {
        switch multiFactorSession?.kind {
        case .signIn(let pendingCredential, let engine):
            return try await startSignIn(pendingCredential: pendingCredential, enrollmentID: multiFactorInfo.uid, engine: engine)
        case .enrollment(let user):
            return try await startEnrollment(multiFactorInfo.phoneNumber, user: user)
        case nil:
            throw AuthErrorFactory.error(.missingMultiFactorSession)
        }
    }

    /// `mfaEnrollment:start` of an SMS factor: the code goes to `phoneNumber`.
    private func startEnrollment(_ phoneNumber: String, user: User) async throws -> String {
        if phoneNumber.isEmpty { throw AuthErrorFactory.error(.missingPhoneNumber) }
        let engine = user.engine
        let proof = try await appProof(for: phoneNumber)
        let response: StartMFAEnrollmentResponse = try await engine.withIDToken(of: user) { token in
            var request = StartMFAEnrollmentRequest(
                idToken: token, phoneEnrollmentInfo: MFAPhoneRequestInfo(phoneNumber: phoneNumber, recaptchaToken: proof))
            request.tenantId = user.tenantID
            return try await engine.backend.call(.startMFAEnrollment, request)
        }
        guard let sessionInfo = response.phoneSessionInfo?.sessionInfo else {
            throw AuthErrorFactory.error(.internalError, message: "The server's answer has no phoneSessionInfo.")
        }
        return sessionInfo
    }

    /// `mfaSignIn:start`: the code goes to the enrolled factor's number, which the client knows only masked, so no
    /// proof of work is sent (a server that asks for one refuses the call).
    private func startSignIn(pendingCredential: String, enrollmentID: String?, engine: AuthEngine) async throws -> String {
        var request = StartMFASignInRequest(
            mfaPendingCredential: pendingCredential, mfaEnrollmentId: enrollmentID, phoneSignInInfo: MFAPhoneRequestInfo())
        request.tenantId = engine.tenantID
        let response: StartMFASignInResponse = try await engine.backend.call(.startMFASignIn, request)
        return response.phoneResponseInfo.sessionInfo
    }

    /// Hearth's proof of work for `phoneNumber` when the server asks for one (`recaptchaToken`), else nil. A server
    /// that asks for a captcha's token is not served (the captcha is the app's to show: pass its token through the
    /// REST API).
    private func appProof(for phoneNumber: String) async throws -> String? {
        let parameters = try await auth.engine.backend.recaptchaParams()
        guard let work = parameters.hearthProofOfWork, work.format == "hearth-pow.v1" else { return nil }
        return ProofOfWorkSolver.solve(
            projectID: auth.engine.options.projectID, phoneNumber: phoneNumber, time: Int(auth.engine.now.timeIntervalSince1970),
            difficulty: work.difficulty)
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
