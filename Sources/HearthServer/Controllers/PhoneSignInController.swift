import HTTPTypes
import HearthCore
import HearthWire
import HearthWireMapping
import Hummingbird

/// `accounts:sendVerificationCode` and `accounts:signInWithPhoneNumber` (legacy `sendVerificationCode`,
/// `verifyPhoneNumber`): ``PhoneSignIn``.
struct PhoneSignInController<Context: RequestContext>: Sendable {
    let signIn: PhoneSignIn
    let audit: AuditTrail
    let maxBodyBytes: Int

    @Sendable func sendVerificationCode(_ request: Request, context: Context) async throws -> Response {
        let input = try await WireCoding.decode(SendVerificationCodeRequest.self, from: request, limit: maxBodyBytes)
        let proof = AppProof(
            recaptchaToken: input.recaptchaToken, captchaResponse: input.captchaResponse, playIntegrityToken: input.playIntegrityToken,
            safetyNetToken: input.safetyNetToken, iosReceipt: input.iosReceipt, iosSecret: input.iosSecret)
        let sessionInfo = try await signIn.sendCode(
            to: input.phoneNumber, from: audit.clientOrigin(request, context: context),
            languageCode: request.headers[HTTPField.Name("X-Firebase-Locale")!], proof: proof)
        return WireCoding.response(SendVerificationCodeResponse(sessionInfo: sessionInfo))
    }

    /// `GET recaptchaParams`: the captcha's site key, or the proof of work asked for.
    @Sendable func recaptchaParams(_ request: Request, context: Context) async throws -> Response {
        let parameters = signIn.appVerifier?.parameters ?? AppVerificationParameters()
        return WireCoding.response(
            GetRecaptchaParamResponse(
                recaptchaSiteKey: parameters.siteKey,
                hearthProofOfWork: parameters.proofOfWorkDifficulty.map { GetRecaptchaParamResponse.ProofOfWork(difficulty: $0) }))
    }

    @Sendable func signInWithPhoneNumber(_ request: Request, context: Context) async throws -> Response {
        RequestRecord.noteSignInAttempt(provider: "phone", signUp: false)
        let input = try await WireCoding.decode(SignInWithPhoneNumberRequest.self, from: request, limit: maxBodyBytes)
        // Identity Toolkit's VerifyOp: LINK and UPDATE (what FirebaseAuth sends for link and updatePhoneNumber) add the
        // number to the ID token's account, as any call with an ID token does.
        guard [nil, "VERIFY_OP_UNSPECIFIED", "SIGN_UP_OR_IN", "REAUTH", "LINK", "UPDATE"].contains(input.operation) else {
            throw HearthError(.invalidArgument, detail: "Invalid value at 'operation'.")
        }
        if ["LINK", "UPDATE"].contains(input.operation), (input.idToken ?? "").isEmpty { throw HearthError(.missingIDToken) }
        let credential: PhoneSignIn.Credential =
            if let proof = input.temporaryProof, !proof.isEmpty { .temporaryProof(proof, phoneNumber: input.phoneNumber) } else {
                .code(sessionInfo: input.sessionInfo, code: input.code)
            }
        let outcome = try await signIn.signIn(
            credential, linkTo: input.idToken, reauthenticate: input.operation == "REAUTH", from: audit.clientOrigin(request, context: context))
        switch outcome {
        case .signedIn(let signedIn):
            return WireCoding.response(
                SignInWithPhoneNumberResponse(
                    idToken: signedIn.idToken, refreshToken: signedIn.refreshToken, expiresIn: String(signedIn.expiresIn),
                    localId: signedIn.user.uid, isNewUser: signedIn.isNewUser, phoneNumber: signedIn.user.phoneNumber))
        case .numberInUse(let number, let proof, let expiresIn):
            return WireCoding.response(
                SignInWithPhoneNumberResponse(phoneNumber: number, temporaryProof: proof, temporaryProofExpiresIn: String(expiresIn)))
        }
    }
}
