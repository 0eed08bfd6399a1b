import Foundation
import HTTPTypes
import HearthConfiguration
import HearthCore
import HearthTokens
import HearthWire
import HearthWireMapping
import Hummingbird

/// The e-mail actions of Identity Toolkit v1: `accounts:sendOobCode` (legacy `getOobConfirmationCode`),
/// `accounts:resetPassword`, `accounts:signInWithEmailLink` (legacy `emailLinkSignin`), and the `oobCode` form of
/// `accounts:update` (verify an address, change it, recover it).
struct EmailActionsController<Context: CallerRequestContext>: Sendable {
    let actions: EmailActions
    let addressing: ActionCodeAddressing
    let emailLinkSignIn: EmailLinkSignIn
    let settings: any ProjectSettingsReading
    let audit: AuditTrail
    let configuration: ServerConfiguration

    private func body<T: Decodable>(_ type: T.Type, _ request: Request) async throws -> T {
        try await WireCoding.decode(type, from: request, limit: configuration.maxBodyBytes)
    }

    // MARK: accounts:sendOobCode

    @Sendable func sendOobCode(_ request: Request, context: Context) async throws -> Response {
        let input = try await body(SendOobCodeRequest.self, request)
        try AdminAccountsController<Context>.checkTarget(input.targetProjectId, context, projectID: configuration.projectID)
        guard let requestType = input.requestType, requestType.name != "OOB_REQ_TYPE_UNSPECIFIED" else {
            throw HearthError(.missingRequestType)
        }
        let isAdministrator = context.caller == .administrator
        let returnsLink = input.returnOobLink == true
        if returnsLink, !isAdministrator { throw HearthError(.insufficientPermission) }
        if !returnsLink { try actions.requireSending() }
        let continueURL = try input.continueUrl.map { try ContinueURL.check($0, authorizedHosts: configuration.authorizedContinueHosts) }
        if let linkDomain = input.linkDomain, !linkDomain.isEmpty {
            try ContinueURL.checkLinkDomain(linkDomain, authorizedHosts: configuration.authorizedContinueHosts)
        }
        if input.androidInstallApp == true, (input.androidPackageName ?? "").isEmpty { throw HearthError(.missingAndroidPackageName) }
        let languageCode = request.headers[HTTPField.Name("X-Firebase-Locale")!]
        let decision = try await addressing.decide(
            .init(
                requestType: requestType.name, email: input.email, newEmail: input.newEmail, idToken: input.idToken,
                hasContinueURL: continueURL != nil, byAdministrator: isAdministrator, returnsLink: returnsLink),
            from: audit.clientOrigin(request, context: context))
        let target: ActionCodeAddressing.Target
        switch decision {
        case .answerOnly(let email):
            try await actions.countMail(to: email, kind: .passwordReset)
            return WireCoding.response(SendOobCodeResponse(email: email))
        case .issue(let issued):
            target = issued
        }

        if !returnsLink {
            try await actions.countMail(to: target.recipient, kind: target.kind)
            try await actions.askBeforeSending(target.kind, to: target.recipient, origin: audit.origin(request, context: context))
        }
        let issued = try await actions.issue(
            target.kind, uid: target.uid, email: target.email, newEmail: target.newEmail, continueURL: continueURL, languageCode: languageCode)
        var response = SendOobCodeResponse(email: target.email)
        if returnsLink {
            response.oobCode = issued.code
            response.oobLink = issued.link
        } else {
            try await actions.send(
                target.kind, to: target.recipient, link: issued.link, newEmail: target.kind == .verifyAndChangeEmail ? nil : target.newEmail,
                languageCode: languageCode)
        }
        return WireCoding.response(response)
    }

    // MARK: accounts:resetPassword

    @Sendable func resetPassword(_ request: Request, context: Context) async throws -> Response {
        let input = try await body(ResetPasswordRequest.self, request)
        guard try await settings.projectSettings().passwordEnabled else { throw HearthError(.passwordLoginDisabled) }
        guard let code = input.oobCode, !code.isEmpty else { throw HearthError(.missingOOBCode) }
        guard let newPassword = input.newPassword else {
            // Only a look: what the code is for, without using it up (checkActionCode, verifyPasswordResetCode).
            let record = try await actions.redemption.codes.peek(code)
            var response = ResetPasswordResponse(requestType: record.kind.rawValue, email: record.kind == .emailSignIn ? nil : record.email)
            response.newEmail = record.newEmail
            return WireCoding.response(response)
        }
        let record = try await actions.redemption.resetPassword(code: code, newPassword: newPassword)
        await audit.record(.passwordChanged, uid: record.uid, actor: .user, method: "resetLink", request: request, context: context)
        return WireCoding.response(ResetPasswordResponse(requestType: record.kind.rawValue, email: record.email))
    }

    // MARK: accounts:update with oobCode

    /// `accounts:update` with an `oobCode` and no ID token: applies a verification, change or recovery code.
    /// `origin`: where the request came from, for the audit event of an e-mail change.
    func applyCode(_ code: String, origin: AuditOrigin) async throws -> Response {
        let (record, user) = try await actions.redemption.apply(code: code)
        switch record.kind {
        case .verifyAndChangeEmail: await audit.record(.emailChanged, uid: user.uid, actor: .user, method: "changeLink", origin: origin)
        case .recoverEmail: await audit.record(.emailChanged, uid: user.uid, actor: .user, method: "recoveryLink", origin: origin)
        case .revertSecondFactorAddition:
            await audit.record(
                .secondFactorWithdrawn, uid: user.uid, actor: .user, method: "revertLink", origin: origin,
                details: ["enrollment": record.mfaEnrollmentID ?? ""])
        default: break
        }
        var response = UpdateResponse(user)
        // An e-mail change names the address the account moved to, as Firebase's answer does.
        if record.kind == .verifyAndChangeEmail { response.newEmail = record.newEmail }
        return WireCoding.response(response)
    }

    // MARK: accounts:signInWithEmailLink

    @Sendable func signInWithEmailLink(_ request: Request, context: Context) async throws -> Response {
        RequestRecord.noteSignInAttempt(provider: "emailLink", signUp: false)
        let input = try await body(SignInWithEmailLinkRequest.self, request)
        let signedIn = try await emailLinkSignIn(
            email: input.email, code: input.oobCode, linkTo: input.idToken, from: audit.clientOrigin(request, context: context))
        return WireCoding.response(
            SignInWithEmailLinkResponse(
                email: signedIn.user.email, localId: signedIn.user.uid, isNewUser: signedIn.isNewUser, idToken: signedIn.idToken,
                refreshToken: signedIn.refreshToken, expiresIn: String(signedIn.expiresIn)))
    }
}
