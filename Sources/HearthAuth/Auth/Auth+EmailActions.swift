import Foundation
import HearthWire

/// E-mail actions: password-reset mails, action codes, and sign-in links. The server mails a link whose
/// `oobCode` the app (or the server's own action page) hands back; ``ActionCodeURL`` reads such links.
///
/// Empty strings are sent as absent fields, as proto3 reads them: an empty e-mail is
/// ``AuthErrorCode/missingEmail``, an empty code ``AuthErrorCode/invalidActionCode``.
extension Auth {
    // MARK: Password reset

    /// Mails a password-reset link. Fails with ``AuthErrorCode/userNotFound`` for an unknown address unless
    /// the server protects against e-mail enumeration (then it succeeds and sends nothing), and with
    /// ``AuthErrorCode/tooManyRequests`` when the address got too many reset mails lately.
    public func sendPasswordReset(withEmail email: String, completion: (@MainActor @Sendable ((any Error)?) -> Void)? = nil) {
        complete(completion) { try await self.sendPasswordReset(withEmail: email, actionCodeSettings: nil) }
    }

    /// Mails a password-reset link that continues to `actionCodeSettings.url`.
    public func sendPasswordReset(
        withEmail email: String, actionCodeSettings: ActionCodeSettings, completion: (@MainActor @Sendable ((any Error)?) -> Void)? = nil
    ) {
        complete(completion) { try await self.sendPasswordReset(withEmail: email, actionCodeSettings: actionCodeSettings) }
    }

    public func sendPasswordReset(withEmail email: String, actionCodeSettings: ActionCodeSettings? = nil) async throws {
        var request = SendOobCodeRequest(requestType: "PASSWORD_RESET")
        request.email = Optional(email).nonEmpty
        try await sendOobCode(request, actionCodeSettings)
    }

    /// Sets a new password with a password-reset code. The code is used up, and the account's other sessions
    /// end. A weak password fails with ``AuthErrorCode/weakPassword`` and leaves the code usable.
    public func confirmPasswordReset(withCode code: String, newPassword: String, completion: (@MainActor @Sendable ((any Error)?) -> Void)? = nil) {
        complete(completion) { try await self.confirmPasswordReset(withCode: code, newPassword: newPassword) }
    }

    public func confirmPasswordReset(withCode code: String, newPassword: String) async throws {
        var request = ResetPasswordRequest(oobCode: Optional(code).nonEmpty, newPassword: newPassword)
        request.tenantId = tenantID
        let _: ResetPasswordResponse = try await engine.backend.call(.resetPassword, request)
    }

    /// The e-mail address a password-reset code is for, without using the code.
    public func verifyPasswordResetCode(_ code: String, completion: (@MainActor @Sendable (String?, (any Error)?) -> Void)? = nil) {
        complete(completion) { try await self.verifyPasswordResetCode(code) }
    }

    public func verifyPasswordResetCode(_ code: String) async throws -> String {
        try await checkActionCode(code).email
    }

    // MARK: Action codes

    /// What an action code does and for which address, without using it. An expired code fails with
    /// ``AuthErrorCode/expiredActionCode``, a used or unknown one with ``AuthErrorCode/invalidActionCode``.
    public func checkActionCode(_ code: String, completion: (@MainActor @Sendable (ActionCodeInfo?, (any Error)?) -> Void)? = nil) {
        complete(completion) { try await self.checkActionCode(code) }
    }

    public func checkActionCode(_ code: String) async throws -> ActionCodeInfo {
        var request = ResetPasswordRequest(oobCode: Optional(code).nonEmpty)
        request.tenantId = tenantID
        let response: ResetPasswordResponse = try await engine.backend.call(.resetPassword, request)
        return ActionCodeInfo(
            operation: ActionCodeOperation(requestType: response.requestType), email: response.email ?? "", newEmail: response.newEmail)
    }

    /// Uses a code that verifies an address, changes it (``User/sendEmailVerification(beforeUpdatingEmail:)``)
    /// or restores it after a change. The current user is not reloaded: call ``User/reload()``. A change or a
    /// restore ends the account's sessions.
    public func applyActionCode(_ code: String, completion: (@MainActor @Sendable ((any Error)?) -> Void)? = nil) {
        complete(completion) { try await self.applyActionCode(code) }
    }

    public func applyActionCode(_ code: String) async throws {
        struct Applied: Decodable {}
        var request = UpdateRequest(idToken: nil)
        request.oobCode = Optional(code).nonEmpty
        request.tenantId = tenantID
        let _: Applied = try await engine.backend.call(.update, request)
    }

    // MARK: E-mail links

    /// Mails a sign-in link to `email`. `actionCodeSettings.url` is required (``AuthErrorCode/missingContinueURI``),
    /// and the server must allow e-mail link sign-in (else ``AuthErrorCode/operationNotAllowed``).
    public func sendSignInLink(
        toEmail email: String, actionCodeSettings: ActionCodeSettings, completion: (@MainActor @Sendable ((any Error)?) -> Void)? = nil
    ) {
        complete(completion) { try await self.sendSignInLink(toEmail: email, actionCodeSettings: actionCodeSettings) }
    }

    public func sendSignInLink(toEmail email: String, actionCodeSettings: ActionCodeSettings) async throws {
        var request = SendOobCodeRequest(requestType: "EMAIL_SIGNIN")
        request.email = Optional(email).nonEmpty
        try await sendOobCode(request, actionCodeSettings)
    }

    /// Whether `link` is an e-mail sign-in link: its query (or that of the link it wraps in `link` or
    /// `deep_link_id`) has an `oobCode` and `mode=signIn`. Looks at the text only.
    public func isSignIn(withEmailLink link: String) -> Bool {
        let items = ActionCodeURL.actionQuery(of: link)
        return items["oobCode"] != nil && items["mode"] == "signIn"
    }

    /// Signs in with a sign-in link sent to `email`, creating the account on first use; the address counts as
    /// verified. An address that differs from the link's fails with ``AuthErrorCode/invalidEmail``; a link that
    /// ``isSignIn(withEmailLink:)`` rejects fails with ``AuthErrorCode/invalidActionCode`` (FirebaseAuth stops
    /// the app). To add the address to the signed-in user, link
    /// `EmailAuthProvider.credential(withEmail:link:)` instead.
    public func signIn(withEmail email: String, link: String, completion: (@MainActor @Sendable (AuthDataResult?, (any Error)?) -> Void)? = nil) {
        complete(completion) { try await self.signIn(withEmail: email, link: link) }
    }

    @discardableResult
    public func signIn(withEmail email: String, link: String) async throws -> AuthDataResult {
        let (user, result) = try await emailLinkUser(email: email, link: link)
        try engine.setCurrentUser(user)
        return result
    }

    /// A user signed in with a sign-in link, not yet made current, and the result to return.
    func emailLinkUser(email: String, link: String) async throws -> (User, AuthDataResult) {
        var request = SignInWithEmailLinkRequest(email: Optional(email).nonEmpty, oobCode: try Self.signInCode(of: link))
        request.tenantId = tenantID
        request.returnSecureToken = true
        let response: SignInWithEmailLinkResponse = try await engine.backend.call(.signInWithEmailLink, request)
        let user = try await engine.makeUser(
            idToken: response.idToken, refreshToken: response.refreshToken, expiresIn: response.expiresIn, isAnonymous: false)
        let info = AdditionalUserInfo(providerID: EmailAuthProviderID, profile: nil, username: nil, isNewUser: response.isNewUser)
        return (user, AuthDataResult(user: user, additionalUserInfo: info, credential: nil))
    }

    /// The code of an e-mail sign-in link.
    static func signInCode(of link: String) throws -> String {
        let items = ActionCodeURL.actionQuery(of: link)
        guard let code = items["oobCode"], !code.isEmpty, items["mode"] == "signIn" else {
            throw AuthErrorFactory.error(
                .invalidActionCode,
                message: "The link is not an e-mail sign-in link; check it with isSignIn(withEmailLink:) before signing in with it.")
        }
        return code
    }

    // MARK: Sending

    /// `accounts:sendOobCode` with the settings and the tenant; the language goes in `X-Firebase-Locale`.
    func sendOobCode(_ request: SendOobCodeRequest, _ settings: ActionCodeSettings?) async throws {
        var request = request
        settings?.apply(to: &request)
        request.tenantId = request.tenantId ?? tenantID
        let _: SendOobCodeResponse = try await engine.backend.call(.sendOobCode, request)
    }
}
