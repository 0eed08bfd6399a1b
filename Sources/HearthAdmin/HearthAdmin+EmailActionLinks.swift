import Foundation

/// Where an e-mail action link sends the user afterwards, and which apps may open it: the Admin SDKs'
/// `ActionCodeSettings`.
public struct ActionCodeSettings: Sendable, Equatable {
    /// The continue URL; its host must be one the server authorizes.
    public var url: URL
    /// Whether the app opens the link itself (required for sign-in links).
    public var handleCodeInApp: Bool
    public var iOSBundleID: String?
    public var androidPackageName: String?
    public var androidInstallApp: Bool
    public var androidMinimumVersion: String?

    public init(
        url: URL, handleCodeInApp: Bool = false, iOSBundleID: String? = nil, androidPackageName: String? = nil,
        androidInstallApp: Bool = false, androidMinimumVersion: String? = nil
    ) {
        self.url = url
        self.handleCodeInApp = handleCodeInApp
        self.iOSBundleID = iOSBundleID
        self.androidPackageName = androidPackageName
        self.androidInstallApp = androidInstallApp
        self.androidMinimumVersion = androidMinimumVersion
    }
}

extension HearthAdmin {
    /// A password-reset link for `email`, returned instead of mailed (for your own mails). Throws
    /// `auth/user-not-found` for an address without an account.
    public func generatePasswordResetLink(email: String, settings: ActionCodeSettings? = nil) async throws -> String {
        try await actionLink("PASSWORD_RESET", email: email, settings: settings)
    }

    /// A link that verifies `email`, the address of an account.
    public func generateEmailVerificationLink(email: String, settings: ActionCodeSettings? = nil) async throws -> String {
        try await actionLink("VERIFY_EMAIL", email: email, settings: settings)
    }

    /// A link that signs in (or signs up) `email`; `settings.url` is where the app finishes the sign-in.
    public func generateSignInWithEmailLink(email: String, settings: ActionCodeSettings) async throws -> String {
        try await actionLink("EMAIL_SIGNIN", email: email, settings: settings)
    }

    /// A link that changes the account of `email` to `newEmail` once the new address opens it.
    public func generateVerifyAndChangeEmailLink(email: String, newEmail: String, settings: ActionCodeSettings? = nil) async throws -> String {
        try await actionLink("VERIFY_AND_CHANGE_EMAIL", email: email, newEmail: newEmail, settings: settings)
    }

    private func actionLink(_ requestType: String, email: String, newEmail: String? = nil, settings: ActionCodeSettings?) async throws -> String {
        var body: [String: ClaimValue] = ["requestType": .string(requestType), "email": .string(email), "returnOobLink": true]
        if let newEmail { body["newEmail"] = .string(newEmail) }
        if let settings {
            body["continueUrl"] = .string(settings.url.absoluteString)
            body["canHandleCodeInApp"] = .bool(settings.handleCodeInApp)
            if let bundle = settings.iOSBundleID { body["iOSBundleId"] = .string(bundle) }
            if let package = settings.androidPackageName {
                body["androidPackageName"] = .string(package)
                body["androidInstallApp"] = .bool(settings.androidInstallApp)
                if let version = settings.androidMinimumVersion { body["androidMinimumVersion"] = .string(version) }
            }
        }
        struct Reply: Decodable { let oobLink: String }
        return try await call(projectPath("accounts:sendOobCode"), body, as: Reply.self).oobLink
    }
}
