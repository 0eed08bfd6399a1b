import Foundation

/// The error domain of every error this module reports: `"FIRAuthErrorDomain"`, as in FirebaseAuth.
public let AuthErrorDomain = "FIRAuthErrorDomain"
/// userInfo key of the `ERROR_…` name of the code (not a person's name).
public let AuthErrorUserInfoNameKey = "FIRAuthErrorUserInfoNameKey"
/// userInfo key of the e-mail of the account a credential conflicts with.
public let AuthErrorUserInfoEmailKey = "FIRAuthErrorUserInfoEmailKey"
/// userInfo key of the credential to sign in or link with later, without asking the provider again: an
/// ``OAuthCredential``, or a ``PhoneAuthCredential`` carrying the server's temporary proof of a phone number.
public let AuthErrorUserInfoUpdatedCredentialKey = "FIRAuthErrorUserInfoUpdatedCredentialKey"
/// userInfo key of the ``MultiFactorResolver`` of an ``AuthErrorCode/secondFactorRequired`` error: the account's
/// second factors and the way to finish the sign-in with one of them.
public let AuthErrorUserInfoMultiFactorResolverKey = "FIRAuthErrorUserInfoMultiFactorResolverKey"

/// FirebaseAuth's `AuthErrors` constants, for code that spells them that way.
public enum AuthErrors {
    public static let domain = AuthErrorDomain
    public static let userInfoNameKey = AuthErrorUserInfoNameKey
    public static let userInfoEmailKey = AuthErrorUserInfoEmailKey
    public static let userInfoUpdatedCredentialKey = AuthErrorUserInfoUpdatedCredentialKey
    public static let userInfoMultiFactorResolverKey = AuthErrorUserInfoMultiFactorResolverKey
}

/// Builds the `NSError`s this module throws.
enum AuthErrorFactory {
    /// userInfo key of the raw token of a `malformedJWT` error (FirebaseAuth's internal data key).
    static let dataKey = "FIRAuthErrorUserInfoDataKey"
    /// userInfo key of the server's message, for errors that came from the server.
    static let serverMessageKey = "HearthAuthServerMessageKey"

    static func error(
        _ code: AuthErrorCode, message: String? = nil, failureReason: String? = nil, underlying: (any Error)? = nil,
        email: String? = nil, updatedCredential: AuthCredential? = nil, extra: [String: any Sendable] = [:]
    ) -> NSError {
        var userInfo: [String: Any] = [
            AuthErrorUserInfoNameKey: code.errorCodeString,
            NSLocalizedDescriptionKey: message.flatMap { $0.isEmpty ? nil : $0 } ?? code.defaultDescription,
        ]
        if let failureReason { userInfo[NSLocalizedFailureReasonErrorKey] = failureReason }
        if let underlying { userInfo[NSUnderlyingErrorKey] = underlying as NSError }
        if let email, !email.isEmpty { userInfo[AuthErrorUserInfoEmailKey] = email }
        if let updatedCredential { userInfo[AuthErrorUserInfoUpdatedCredentialKey] = updatedCredential }
        for (key, value) in extra { userInfo[key] = value }
        return NSError(domain: AuthErrorDomain, code: code.rawValue, userInfo: userInfo)
    }

    /// The code a server message stands for (FirebaseAuth's table, `AuthBackend.clientError`), plus the messages
    /// only Hearth sends. The message is matched on the part before the first colon.
    static func code(forServerMessage message: String) -> AuthErrorCode? {
        switch serverCode(of: message) {
        case "USER_NOT_FOUND", "EMAIL_NOT_FOUND": return .userNotFound
        case "MISSING_CONTINUE_URI": return .missingContinueURI
        case "INVALID_IDENTIFIER", "INVALID_EMAIL": return .invalidEmail
        case "INVALID_ID_TOKEN": return .invalidUserToken
        case "CREDENTIAL_TOO_OLD_LOGIN_AGAIN": return .requiresRecentLogin
        case "EMAIL_EXISTS": return .emailAlreadyInUse
        case "OPERATION_NOT_ALLOWED", "PASSWORD_LOGIN_DISABLED": return .operationNotAllowed
        case "USER_DISABLED": return .userDisabled
        case "EXPIRED_OOB_CODE": return .expiredActionCode
        case "INVALID_OOB_CODE": return .invalidActionCode
        case "INVALID_MESSAGE_PAYLOAD": return .invalidMessagePayload
        case "INVALID_SENDER": return .invalidSender
        case "INVALID_RECIPIENT_EMAIL": return .invalidRecipientEmail
        case "WEAK_PASSWORD": return .weakPassword
        case "TOO_MANY_ATTEMPTS_TRY_LATER": return .tooManyRequests
        case "MISSING_EMAIL": return .missingEmail
        case "MISSING_IOS_BUNDLE_ID": return .missingIosBundleID
        case "MISSING_ANDROID_PACKAGE_NAME": return .missingAndroidPackageName
        case "UNAUTHORIZED_DOMAIN": return .unauthorizedDomain
        case "INVALID_CONTINUE_URI": return .invalidContinueURI
        case "INVALID_PASSWORD": return .wrongPassword
        case "INVALID_IDP_RESPONSE", "INVALID_PENDING_TOKEN", "INVALID_LOGIN_CREDENTIALS": return .invalidCredential
        case "INVALID_CUSTOM_TOKEN": return .invalidCustomToken
        case "USER_CANCELLED": return .webContextCancelled
        case "CREDENTIAL_MISMATCH": return .customTokenMismatch
        case "INVALID_PHONE_NUMBER": return .invalidPhoneNumber
        case "QUOTA_EXCEEDED": return .quotaExceeded
        case "APP_NOT_VERIFIED": return .appNotVerified
        case "CAPTCHA_CHECK_FAILED": return .captchaCheckFailed
        case "INVALID_APP_CREDENTIAL": return .invalidAppCredential
        case "MISSING_APP_CREDENTIAL": return .missingAppCredential
        case "INVALID_CODE": return .invalidVerificationCode
        case "INVALID_SESSION_INFO": return .invalidVerificationID
        case "SESSION_EXPIRED": return .sessionExpired
        case "MISSING_IOS_APP_TOKEN": return .missingAppToken
        case "INVALID_HOSTING_LINK_DOMAIN": return .invalidHostingLinkDomain
        case "ADMIN_ONLY_OPERATION": return .adminRestrictedOperation
        case "BLOCKING_FUNCTION_ERROR_RESPONSE": return .blockingCloudFunctionError
        case "EMAIL_CHANGE_NEEDS_VERIFICATION": return .emailChangeNeedsVerification
        case "INVALID_MFA_PENDING_CREDENTIAL": return .invalidMultiFactorSession
        case "MFA_ENROLLMENT_NOT_FOUND": return .multiFactorInfoNotFound
        case "MISSING_MFA_ENROLLMENT_ID": return .missingMultiFactorInfo
        case "MISSING_MFA_PENDING_CREDENTIAL": return .missingMultiFactorSession
        case "SECOND_FACTOR_EXISTS": return .secondFactorAlreadyEnrolled
        case "SECOND_FACTOR_LIMIT_EXCEEDED": return .maximumSecondFactorCountExceeded
        case "UNSUPPORTED_FIRST_FACTOR": return .unsupportedFirstFactor
        case "UNVERIFIED_EMAIL": return .unverifiedEmail
        case "INVALID_PROVIDER_ID": return .invalidProviderID
        case "MISSING_CLIENT_IDENTIFIER": return .missingClientIdentifier
        case "MISSING_OR_INVALID_NONCE": return .missingOrInvalidNonce
        case "PASSWORD_DOES_NOT_MEET_REQUIREMENTS": return .passwordDoesNotMeetRequirements
        case "TENANT_ID_MISMATCH": return .tenantIDMismatch
        case "UNSUPPORTED_TENANT_OPERATION": return .unsupportedTenantOperation
        case "TOKEN_EXPIRED": return .userTokenExpired
        case "FEDERATED_USER_ID_ALREADY_LINKED": return .credentialAlreadyInUse
        // Not in FirebaseAuth's table; what Hearth (and Identity Toolkit) send.
        case "INVALID_REFRESH_TOKEN": return .invalidUserToken
        case "MISSING_PASSWORD": return .wrongPassword
        case "INVALID_CREDENTIAL_OR_PROVIDER_ID": return .invalidCredential
        case "MISSING_OOB_CODE": return .invalidActionCode
        case "RESET_PASSWORD_EXCEED_LIMIT": return .tooManyRequests
        case "MISSING_NEW_EMAIL": return .missingEmail
        case "MISSING_PHONE_NUMBER": return .missingPhoneNumber
        case "MISSING_CODE": return .missingVerificationCode
        case "MISSING_SESSION_INFO": return .missingVerificationID
        // FirebaseAuth's JavaScript SDK maps it so; the iOS SDK has no entry (internalError).
        case "INVALID_TEMPORARY_PROOF": return .invalidCredential
        // Linking a temporary proof of another account's number (a code answers 200 with a proof instead).
        case "PHONE_NUMBER_EXISTS": return .credentialAlreadyInUse
        // Passkeys: FirebaseAuth's codes for Identity Platform's messages, and what Hearth sends (a credential id
        // registered already; an unknown one; an answer missing, malformed or breaking a WebAuthn rule).
        case "CREDENTIAL_ALREADY_IN_USE": return .credentialAlreadyInUse
        case "PASSKEY_ENROLLMENT_NOT_FOUND", "PASSKEY_CREDENTIAL_NOT_FOUND": return .missingPasskeyEnrollment
        case "INVALID_AUTHENTICATOR_RESPONSE", "MISSING_AUTHENTICATOR_RESPONSE", "INVALID_CREDENTIAL_ID": return .invalidAuthenticatorResponse
        default: return nil
        }
    }

    /// The part of a server message before the first colon, trimmed: `"WEAK_PASSWORD : Password…"` → `"WEAK_PASSWORD"`.
    static func serverCode(of message: String) -> String {
        guard let colon = message.firstIndex(of: ":") else { return message.trimmingCharacters(in: .whitespaces) }
        return message[..<colon].trimmingCharacters(in: .whitespaces)
    }

    /// The part after the first colon, or nil.
    static func serverDetail(of message: String) -> String? {
        guard let colon = message.firstIndex(of: ":") else { return nil }
        let detail = message[message.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        return detail.isEmpty ? nil : detail
    }

    /// The error for a server's error envelope.
    /// - Parameters:
    ///   - message: `error.message` of the envelope.
    ///   - reasons: `error.errors[].reason`, consulted only when the message is unknown.
    ///   - status: the HTTP status.
    static func serverError(message: String, reasons: [String], status: Int) -> NSError {
        let detail = serverDetail(of: message)
        var extra: [String: any Sendable] = [serverMessageKey: message]
        extra["HearthAuthHTTPStatusKey"] = status
        if let code = code(forServerMessage: message) {
            switch code {
            case .weakPassword:
                return error(code, message: detail, failureReason: detail, extra: extra)
            case .emailAlreadyInUse:
                // FirebaseAuth passes no e-mail here: the server does not say which address.
                return error(code, message: detail, extra: extra)
            default:
                return error(code, message: detail, extra: extra)
            }
        }
        if reasons.contains(where: { $0.hasPrefix("keyInvalid") }) {
            return error(.invalidAPIKey, message: message, extra: extra)
        }
        if reasons.contains("ipRefererBlocked") {
            return error(.appNotAuthorized, message: message, extra: extra)
        }
        if status == 404 {
            // An endpoint this Hearth server does not implement (yet).
            return error(.operationNotAllowed, message: "The server does not support this operation (\(message)).", extra: extra)
        }
        let unexpected = NSError(
            domain: "FIRAuthInternalErrorDomain", code: 3,
            userInfo: [
                NSLocalizedDescriptionKey: message, serverMessageKey: message,
            ])
        return error(.internalError, message: message, underlying: unexpected, extra: extra)
    }
}
