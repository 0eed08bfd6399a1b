/// The error strings Firebase clients understand, in one table.
public enum WireErrorMessage {
    public static let emailExists = "EMAIL_EXISTS"
    public static let emailNotFound = "EMAIL_NOT_FOUND"
    public static let invalidPassword = "INVALID_PASSWORD"
    public static let invalidLoginCredentials = "INVALID_LOGIN_CREDENTIALS"
    public static let userDisabled = "USER_DISABLED"
    public static let userNotFound = "USER_NOT_FOUND"
    public static let invalidEmail = "INVALID_EMAIL"
    public static let missingEmail = "MISSING_EMAIL"
    public static let missingPassword = "MISSING_PASSWORD"
    public static let weakPassword = "WEAK_PASSWORD : Password should be at least 6 characters"
    public static let invalidIdentifier = "INVALID_IDENTIFIER"
    public static let missingIdentifier = "MISSING_IDENTIFIER"
    public static let missingContinueURI = "MISSING_CONTINUE_URI"
    public static let invalidContinueURI = "INVALID_CONTINUE_URI"
    public static let invalidDisplayName = "INVALID_DISPLAY_NAME"
    public static let invalidPhotoURL = "INVALID_PHOTO_URL"
    public static let missingIDToken = "MISSING_ID_TOKEN"
    public static let invalidIDToken = "INVALID_ID_TOKEN"
    public static let tokenExpired = "TOKEN_EXPIRED"
    public static let missingRefreshToken = "MISSING_REFRESH_TOKEN"
    public static let invalidRefreshToken = "INVALID_REFRESH_TOKEN"
    public static let missingGrantType = "MISSING_GRANT_TYPE"
    public static let invalidGrantType = "INVALID_GRANT_TYPE"
    public static let missingLocalID = "MISSING_LOCAL_ID"
    public static let operationNotAllowed = "OPERATION_NOT_ALLOWED"
    public static let adminOnlyOperation = "ADMIN_ONLY_OPERATION"
    public static let passwordLoginDisabled = "PASSWORD_LOGIN_DISABLED"
    public static let credentialTooOldLoginAgain = "CREDENTIAL_TOO_OLD_LOGIN_AGAIN"
    public static let invalidRequestType = "INVALID_REQ_TYPE : Unsupported request parameters."
    public static let unexpectedLocalID = "UNEXPECTED_PARAMETER : User ID"
    public static let insufficientPermission = "INSUFFICIENT_PERMISSION"
    public static let invalidClaims = "INVALID_CLAIMS"
    public static let claimsTooLarge = "CLAIMS_TOO_LARGE"
    public static let forbiddenClaim = "FORBIDDEN_CLAIM"
    public static let invalidIDPResponse = "INVALID_IDP_RESPONSE"
    public static let missingOrInvalidNonce = "MISSING_OR_INVALID_NONCE"
    public static let invalidCredentialOrProviderID = "INVALID_CREDENTIAL_OR_PROVIDER_ID"
    public static let federatedUserIDAlreadyLinked = "FEDERATED_USER_ID_ALREADY_LINKED"
    public static let invalidPendingToken = "INVALID_PENDING_TOKEN"
    public static let missingRequestURI = "MISSING_REQUEST_URI"
    public static let invalidRequestURI = "INVALID_REQUEST_URI"
    /// The person declined or cancelled at the provider (a callback with `error=access_denied`).
    public static let userCancelled = "USER_CANCELLED"
    public static let tooManyAttempts = "TOO_MANY_ATTEMPTS_TRY_LATER"
    /// What follows `TOO_MANY_ATTEMPTS_TRY_LATER : ` when an account's password lockout refuses an attempt.
    public static let accountTemporarilyDisabled =
        "Access to this account has been temporarily disabled due to many failed login attempts. You can immediately restore it by resetting your password or you can try again later."
    /// What follows `OPERATION_NOT_ALLOWED : ` when e-mail enumeration protection refuses an e-mail change.
    /// What follows `UNAUTHORIZED_DOMAIN : ` for a continue URL whose host the project does not authorize.
    public static let domainNotAuthorized = "Domain not whitelisted by project"
    public static let verifyNewEmailFirst = "Please verify the new email before changing email."
    /// A passkey finalize call without the authenticator's answer.
    public static let missingAuthenticatorResponse = "MISSING_AUTHENTICATOR_RESPONSE"
    /// A passkey answer without a credential id, or one that is not base64url.
    public static let invalidCredentialID = "INVALID_CREDENTIAL_ID"
    /// A passkey whose credential id is already registered, to this account or another.
    public static let credentialAlreadyInUse = "CREDENTIAL_ALREADY_IN_USE"
    /// A passkey sign-in or removal naming a credential id the tenant does not know.
    public static let passkeyCredentialNotFound = "PASSKEY_CREDENTIAL_NOT_FOUND"
    /// Hearth's (Firebase's emulator verifies nothing): a passkey ceremony that broke a WebAuthn rule, the rule after
    /// ` : ` (`INVALID_AUTHENTICATOR_RESPONSE : origin "https://evil.test" is not an expected origin`).
    public static let invalidAuthenticatorResponse = "INVALID_AUTHENTICATOR_RESPONSE"
    public static let missingAPIKey = "The request is missing a valid API key."
    public static let invalidAPIKey = "API key not valid. Please pass a valid API key."
    public static let invalidJSONPrefix = "Invalid JSON payload received."
}
