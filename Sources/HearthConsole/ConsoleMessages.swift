import HearthCore

/// What an operator reads when the console refuses a change: the admin API's rule, in words.
enum ConsoleMessages {
    static func text(_ error: HearthError) -> String {
        switch error.code {
        case .invalidClaims: "The custom claims must be a JSON object, such as {\"admin\": true}."
        case .claimsTooLarge: "The custom claims must be at most \(CustomClaims.maxBytes) bytes."
        case .forbiddenClaim: "The claim name “\(error.detail ?? "")” is reserved for the ID token itself; choose another name."
        case .weakPassword: "The password must be at least 6 characters."
        case .invalidEmail: "That is not an e-mail address."
        case .missingEmail: "A user with a password needs an e-mail address."
        case .emailExists: "Another user has that e-mail address."
        case .phoneNumberExists: "Another user has that phone number."
        case .invalidPhoneNumber: "The phone number must be in E.164 form, such as +15551234567."
        case .invalidDisplayName: "The display name is too long or holds characters that are not allowed."
        case .userNotFound: "There is no such user (any more)."
        case .mfaEnrollmentNotFound: "The user has no such second factor (any more)."
        case .passkeyCredentialNotFound: "The user has no such passkey (any more)."
        case .invalidProviderID: "The user has no such provider linked."
        case .operationNotAllowed: "No mail can be sent: this server has no mail server (email.smtp.url). Show the link instead."
        case .resetPasswordExceedLimit, .tooManyAttempts: "Too many mails to this address lately; try again later or show the link."
        case .blockingFunctionError: "The beforeSendEmail hook refused the mail."
        default: "The change was refused (\(error.code.rawValue))."
        }
    }

    /// A refused settings change: the admin API's own words for a rule (`INVALID_CONFIG`'s detail), or what went wrong.
    static func settingsText(_ error: HearthError) -> String {
        switch error.code {
        case .invalidConfig, .invalidProviderID, .invalidArgument, .invalidOAuthClientID:
            error.detail ?? "The settings were refused (\(error.code.rawValue))."
        case .configurationExists: "A provider with that id exists already."
        case .configurationNotFound: "There is no such provider (any more)."
        case .invalidTenantID, .tenantNotFound: "There is no such tenant (any more)."
        default: text(error)
        }
    }
}
