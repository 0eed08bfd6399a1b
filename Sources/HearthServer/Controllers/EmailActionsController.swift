import Foundation
import HTTPTypes
import HearthCore
import HearthTokens
import HearthWire
import Hummingbird

/// The e-mail actions of Identity Toolkit v1: `accounts:sendOobCode` (legacy `getOobConfirmationCode`),
/// `accounts:resetPassword`, `accounts:signInWithEmailLink` (legacy `emailLinkSignin`), and the `oobCode` form of
/// `accounts:update` (verify an address, change it, recover it).
struct EmailActionsController<Context: CallerRequestContext>: Sendable {
    let services: HearthServices

    private var configuration: ServerConfiguration { services.configuration }
    private var store: any HearthStore { services.store }
    private var actions: EmailActions { EmailActions(services: services) }
    private var audit: AuditTrail { AuditTrail(services: services) }

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
        let continueURL = try input.continueUrl.map { try ContinueURL.check($0, configuration: configuration) }
        if input.androidInstallApp == true, (input.androidPackageName ?? "").isEmpty { throw HearthError(.missingAndroidPackageName) }
        let languageCode = request.headers[HTTPField.Name("X-Firebase-Locale")!]
        let settings = try await services.projectSettings()

        // Who the mail is for, and what the code acts on.
        let target: (kind: ActionCodeKind, uid: String?, email: String, newEmail: String?, recipient: String)
        switch requestType.name {
        case "PASSWORD_RESET":
            let email = try Self.email(input.email)
            if !returnsLink { try await countSending(request, context) }
            let found = try await store.user(email: email)
            guard let user = found, !(user.disabled && !isAdministrator) else {
                // Enumeration protection: an unknown address gets the answer a known one gets, and no mail.
                if settings.emailEnumerationProtection, !isAdministrator {
                    try await actions.countMail(to: email, kind: .passwordReset)
                    return WireCoding.response(SendOobCodeResponse(email: email))
                }
                throw HearthError(found == nil ? .emailNotFound : .userDisabled)
            }
            target = (.passwordReset, user.uid, email, nil, email)
        case "VERIFY_EMAIL":
            let user: UserRecord
            if let idToken = input.idToken {
                user = try await services.authenticate(idToken).1
            } else if returnsLink {
                let email = try Self.email(input.email)
                guard let found = try await store.user(email: email) else { throw HearthError(.userNotFound) }
                user = found
            } else {
                throw HearthError(.invalidIDToken, reason: "VERIFY_EMAIL without idToken")
            }
            guard let email = user.email else { throw HearthError(.missingEmail) }
            if !returnsLink { try await countSending(request, context) }
            target = (.verifyEmail, user.uid, email, nil, email)
        case "EMAIL_SIGNIN":
            guard settings.emailLinkEnabled else { throw HearthError(.operationNotAllowed) }
            let email = try Self.email(input.email)
            guard continueURL != nil else { throw HearthError(.missingContinueURI) }
            if !returnsLink { try await countSending(request, context) }
            target = (.emailSignIn, try await store.user(email: email)?.uid, email, nil, email)
        case "VERIFY_AND_CHANGE_EMAIL":
            guard let rawNewEmail = input.newEmail else { throw HearthError(.missingNewEmail) }
            guard let newEmail = EmailAddress.normalize(rawNewEmail) else { throw HearthError(.invalidEmail) }
            let user: UserRecord
            if let idToken = input.idToken {
                let (claims, current) = try await services.authenticate(idToken)
                try CredentialChange(email: newEmail, setsPassword: false)
                    .check(current, authTime: claims.authTime, now: services.clock.now, window: configuration.recentLoginWindow)
                user = current
            } else if isAdministrator {
                let email = try Self.email(input.email)
                guard let found = try await store.user(email: email) else { throw HearthError(.userNotFound) }
                user = found
            } else {
                throw HearthError(.missingIDToken)
            }
            guard let email = user.email else { throw HearthError(.missingEmail) }
            // Without enumeration protection a taken address is said at once; with it, only when the link is used.
            if !settings.emailEnumerationProtection || isAdministrator, let owner = try await store.user(email: newEmail), owner.uid != user.uid {
                throw HearthError(.emailExists)
            }
            if !returnsLink { try await countSending(request, context) }
            target = (.verifyAndChangeEmail, user.uid, email, newEmail, newEmail)
        default:
            throw HearthError(.invalidRequestType, reason: "requestType \(requestType.name.prefix(40))")
        }

        if !returnsLink { try await actions.countMail(to: target.recipient, kind: target.kind) }
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

    /// The per-address limit on mail-sending requests (`abuse.limits.mailSending`).
    private func countSending(_ request: Request, _ context: Context) async throws {
        let abuse = AbuseGuard(services: services)
        try await abuse.count(\.mailSending, address: abuse.clientAddress(request, context: context))
    }

    private static func email(_ raw: String?) throws -> String {
        guard let raw else { throw HearthError(.missingEmail) }
        guard let email = EmailAddress.normalize(raw) else { throw HearthError(.invalidEmail) }
        return email
    }

    // MARK: accounts:resetPassword

    @Sendable func resetPassword(_ request: Request, context: Context) async throws -> Response {
        let input = try await body(ResetPasswordRequest.self, request)
        guard try await services.projectSettings().passwordEnabled else { throw HearthError(.passwordLoginDisabled) }
        guard let code = input.oobCode, !code.isEmpty else { throw HearthError(.missingOOBCode) }
        guard let newPassword = input.newPassword else {
            // Only a look: what the code is for, without using it up (checkActionCode, verifyPasswordResetCode).
            let record = try await actions.peek(code)
            var response = ResetPasswordResponse(requestType: record.kind.rawValue, email: record.kind == .emailSignIn ? nil : record.email)
            response.newEmail = record.newEmail
            return WireCoding.response(response)
        }
        let record = try await actions.resetPassword(code: code, newPassword: newPassword)
        await audit.record(.passwordChanged, uid: record.uid, actor: .user, method: "resetLink", request: request, context: context)
        return WireCoding.response(ResetPasswordResponse(requestType: record.kind.rawValue, email: record.email))
    }

    // MARK: accounts:update with oobCode

    /// `accounts:update` with an `oobCode` and no ID token: applies a verification, change or recovery code.
    /// `origin`: where the request came from, for the audit event of an e-mail change.
    func applyCode(_ code: String, origin: AuditOrigin) async throws -> Response {
        let (record, user) = try await actions.apply(code: code)
        switch record.kind {
        case .verifyAndChangeEmail: await audit.record(.emailChanged, uid: user.uid, actor: .user, method: "changeLink", origin: origin)
        case .recoverEmail: await audit.record(.emailChanged, uid: user.uid, actor: .user, method: "recoveryLink", origin: origin)
        default: break
        }
        var response = AccountsController<Context>.updateResponse(user)
        if record.kind == .recoverEmail { response.newEmail = nil }
        return WireCoding.response(response)
    }

    // MARK: accounts:signInWithEmailLink

    @Sendable func signInWithEmailLink(_ request: Request, context: Context) async throws -> Response {
        RequestRecord.noteSignInAttempt(provider: "emailLink", signUp: false)
        let input = try await body(SignInWithEmailLinkRequest.self, request)
        let signedIn = try await SignInUseCases(services: services).emailLinkSignIn(
            email: input.email, code: input.oobCode, linkTo: input.idToken, from: audit.clientOrigin(request, context: context))
        return WireCoding.response(
            SignInWithEmailLinkResponse(
                email: signedIn.user.email, localId: signedIn.user.uid, isNewUser: signedIn.isNewUser, idToken: signedIn.idToken,
                refreshToken: signedIn.refreshToken, expiresIn: String(signedIn.expiresIn)))
    }
}
