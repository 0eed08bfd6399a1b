import Foundation
import HearthWire

extension User {
    // MARK: Verification mails

    /// Mails a link that verifies the user's address; ``Auth/applyActionCode(_:)`` (or the server's action page)
    /// uses it, and ``reload()`` then shows ``isEmailVerified``. A user without an address fails with
    /// ``AuthErrorCode/missingEmail``.
    public func sendEmailVerification(
        with actionCodeSettings: ActionCodeSettings? = nil, completion: (@MainActor @Sendable ((any Error)?) -> Void)? = nil
    ) {
        complete(completion) { try await self.sendEmailVerification(with: actionCodeSettings) }
    }

    public func sendEmailVerification(with actionCodeSettings: ActionCodeSettings? = nil) async throws {
        try await sendOobCode(SendOobCodeRequest(requestType: "VERIFY_EMAIL"), actionCodeSettings)
    }

    /// Mails `newEmail` a link that changes the user's address to it once used. Needs a recent sign-in
    /// (``AuthErrorCode/requiresRecentLogin``); an address another account has fails with
    /// ``AuthErrorCode/emailAlreadyInUse`` unless the server protects against e-mail enumeration. When the
    /// link is used the account's sessions end, this one included, and the old address gets a link that
    /// restores it.
    public func sendEmailVerification(
        beforeUpdatingEmail newEmail: String, actionCodeSettings: ActionCodeSettings? = nil,
        completion: (@MainActor @Sendable ((any Error)?) -> Void)? = nil
    ) {
        complete(completion) { try await self.sendEmailVerification(beforeUpdatingEmail: newEmail, actionCodeSettings: actionCodeSettings) }
    }

    public func sendEmailVerification(beforeUpdatingEmail newEmail: String, actionCodeSettings: ActionCodeSettings? = nil) async throws {
        var request = SendOobCodeRequest(requestType: "VERIFY_AND_CHANGE_EMAIL")
        request.newEmail = Optional(newEmail).nonEmpty
        try await sendOobCode(request, actionCodeSettings)
    }

    /// `accounts:sendOobCode` with this user's ID token.
    private func sendOobCode(_ request: SendOobCodeRequest, _ settings: ActionCodeSettings?) async throws {
        try await engine.withIDToken(of: self) { token in
            var request = request
            request.idToken = token
            request.tenantId = tenantID
            try await Auth(engine: engine).sendOobCode(request, settings)
        }
    }
}
