import Foundation
import HTTPTypes
import HearthCore
import HearthWire
import HearthWireMapping
import Hummingbird

/// Identity Platform's multi-factor calls (`/v2/accounts/mfaEnrollment:*`, `/v2/accounts/mfaSignIn:*`) and Hearth's
/// recovery codes (`/v2/accounts/mfaRecoveryCodes:generate`): ``SecondFactorEnrollments`` and ``SecondFactorSignIn``.
struct MultiFactorController<Context: RequestContext>: Sendable {
    let enrollments: SecondFactorEnrollments
    let signIn: SecondFactorSignIn
    let audit: AuditTrail
    let maxBodyBytes: Int

    static func addRoutes(to group: RouterGroup<Context>, from source: ControllerSource<Self, Context>) {
        group.post("accounts/mfaEnrollment:start", use: source { $0.startEnrollment })
        group.post("accounts/mfaEnrollment:finalize", use: source { $0.finalizeEnrollment })
        group.post("accounts/mfaEnrollment:withdraw", use: source { $0.withdraw })
        group.post("accounts/mfaSignIn:start", use: source { $0.startSignIn })
        group.post("accounts/mfaSignIn:finalize", use: source { $0.finalizeSignIn })
        group.post("accounts/mfaRecoveryCodes:generate", use: source { $0.generateRecoveryCodes })
    }

    private func locale(_ request: Request) -> String? { request.headers[HTTPField.Name("X-Firebase-Locale")!] }

    @Sendable func startEnrollment(_ request: Request, context: Context) async throws -> Response {
        let input = try await WireCoding.decode(StartMFAEnrollmentRequest.self, from: request, limit: maxBodyBytes)
        let start: SecondFactorEnrollments.Start
        switch (input.phoneEnrollmentInfo, input.totpEnrollmentInfo) {
        case (let phone?, nil): start = .phone(phone.phoneNumber, proof: phone.proof)
        case (nil, .some): start = .totp
        default: throw HearthError(.invalidArgument, detail: "Exactly one of phoneEnrollmentInfo and totpEnrollmentInfo is required.")
        }
        switch try await enrollments.start(
            idToken: input.idToken, start, languageCode: locale(request), from: audit.clientOrigin(request, context: context))
        {
        case .phone(let sessionInfo):
            return WireCoding.response(StartMFAEnrollmentResponse(phoneSessionInfo: .init(sessionInfo: sessionInfo)))
        case .totp(let key, _, let sessionInfo, let finalizeBy):
            return WireCoding.response(
                StartMFAEnrollmentResponse(
                    totpSessionInfo: .init(
                        sharedSecretKey: key, verificationCodeLength: TOTPCodes.digits, hashingAlgorithm: TOTPCodes.hashingAlgorithm,
                        periodSec: TOTPCodes.period, sessionInfo: sessionInfo,
                        finalizeEnrollmentTime: finalizeBy.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))))
        }
    }

    @Sendable func finalizeEnrollment(_ request: Request, context: Context) async throws -> Response {
        let input = try await WireCoding.decode(FinalizeMFAEnrollmentRequest.self, from: request, limit: maxBodyBytes)
        let finish: SecondFactorEnrollments.Finish
        switch (input.phoneVerificationInfo, input.totpVerificationInfo) {
        case (let phone?, nil): finish = .phone(sessionInfo: phone.sessionInfo, code: phone.code)
        case (nil, let totp?): finish = .totp(sessionInfo: totp.sessionInfo, code: totp.verificationCode)
        default: throw HearthError(.invalidArgument, detail: "Exactly one of phoneVerificationInfo and totpVerificationInfo is required.")
        }
        let signedIn = try await enrollments.finalize(
            idToken: input.idToken, displayName: input.displayName, finish, languageCode: locale(request),
            from: audit.clientOrigin(request, context: context))
        return WireCoding.response(MFATokensResponse(idToken: signedIn.idToken, refreshToken: signedIn.refreshToken))
    }

    @Sendable func withdraw(_ request: Request, context: Context) async throws -> Response {
        let input = try await WireCoding.decode(WithdrawMFARequest.self, from: request, limit: maxBodyBytes)
        let signedIn = try await enrollments.withdraw(
            idToken: input.idToken, enrollmentID: input.mfaEnrollmentId, from: audit.clientOrigin(request, context: context))
        return WireCoding.response(MFATokensResponse(idToken: signedIn.idToken, refreshToken: signedIn.refreshToken))
    }

    @Sendable func startSignIn(_ request: Request, context: Context) async throws -> Response {
        let input = try await WireCoding.decode(StartMFASignInRequest.self, from: request, limit: maxBodyBytes)
        let sessionInfo = try await signIn.start(
            pendingCredential: input.mfaPendingCredential, enrollmentID: input.mfaEnrollmentId,
            proof: input.phoneSignInInfo?.proof ?? AppProof(), languageCode: locale(request), from: audit.clientOrigin(request, context: context))
        return WireCoding.response(StartMFASignInResponse(sessionInfo: sessionInfo))
    }

    @Sendable func finalizeSignIn(_ request: Request, context: Context) async throws -> Response {
        let input = try await WireCoding.decode(FinalizeMFASignInRequest.self, from: request, limit: maxBodyBytes)
        let proof: SecondFactorSignIn.Proof
        switch (input.phoneVerificationInfo, input.totpVerificationInfo, input.recoveryCodeVerificationInfo) {
        case (let phone?, nil, nil): proof = .phone(sessionInfo: phone.sessionInfo, code: phone.code)
        case (nil, let totp?, nil): proof = .totp(enrollmentID: input.mfaEnrollmentId, code: totp.verificationCode)
        case (nil, nil, let recovery?): proof = .recoveryCode(recovery.recoveryCode)
        case (nil, nil, nil) where (input.mfaPendingCredential ?? "").isEmpty: throw HearthError(.missingMFAPendingCredential)
        default:
            throw HearthError(
                .invalidArgument,
                detail: "Exactly one of phoneVerificationInfo, totpVerificationInfo and recoveryCodeVerificationInfo is required.")
        }
        let signedIn = try await signIn.finalize(
            pendingCredential: input.mfaPendingCredential, proof: proof, from: audit.clientOrigin(request, context: context))
        return WireCoding.response(MFATokensResponse(idToken: signedIn.idToken, refreshToken: signedIn.refreshToken))
    }

    /// Hearth extension: `{idToken}` → `{recoveryCodes: [...]}`, a new set replacing the old, shown once.
    @Sendable func generateRecoveryCodes(_ request: Request, context: Context) async throws -> Response {
        let input = try await WireCoding.decode(GenerateRecoveryCodesRequest.self, from: request, limit: maxBodyBytes)
        let codes = try await enrollments.generateRecoveryCodes(idToken: input.idToken, from: audit.clientOrigin(request, context: context))
        return WireCoding.response(GenerateRecoveryCodesResponse(recoveryCodes: codes))
    }
}
