/// The one error type of the domain.
///
/// `code` says what went wrong in terms a client can act on; the server maps each code to
/// Firebase's wire string in exactly one table. `reason` is internal detail for logs and tests,
/// never sent to a client. Two errors are equal when their codes are equal.
public struct HearthError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable, Equatable, CaseIterable {
        // Input
        case invalidEmail, missingEmail, missingPassword, weakPassword, invalidIdentifier, missingIdentifier
        case missingIDToken, missingRefreshToken, missingGrantType, invalidGrantType, missingLocalID
        case invalidRequestType, unexpectedLocalID, invalidClaims, claimsTooLarge, forbiddenClaim
        case insufficientPermission, invalidContinueURI, missingContinueURI, invalidArgument, unauthorizedDomain
        case invalidHostingLinkDomain
        case invalidDisplayName, invalidPhotoURL
        // Accounts
        case emailExists, emailNotFound, invalidPassword, invalidLoginCredentials, userDisabled, userNotFound
        case operationNotAllowed, adminOnlyOperation, passwordLoginDisabled, credentialTooOldLoginAgain
        case emailChangeNeedsVerification
        case phoneNumberExists, invalidPhoneNumber, duplicateLocalID, duplicateEmail, duplicateRawID, missingUserAccount
        case localIDListExceedsLimit, exceedMaxUserCount, missingProviderID, missingRawID, invalidDuration, invalidPageToken
        case invalidHashParameter
        // E-mail actions
        case missingRequestType, missingOOBCode, invalidOOBCode, expiredOOBCode, missingNewEmail, resetPasswordExceedLimit
        case missingAndroidPackageName
        // Phone numbers
        case missingPhoneNumber, missingSessionInfo, invalidSessionInfo, missingCode, invalidCode, sessionExpired
        case invalidTemporaryProof, missingClientIdentifier, captchaCheckFailed, invalidAppCredential
        // Second factors
        case missingMFAPendingCredential, invalidMFAPendingCredential, missingMFAEnrollmentID, mfaEnrollmentNotFound
        case secondFactorExists, secondFactorLimitExceeded, unsupportedFirstFactor, unverifiedEmail, invalidMFAPhoneNumber
        case invalidMFAEnrollmentID, duplicateMFAEnrollmentID
        // Passkeys
        case missingAuthenticatorResponse, invalidCredentialID, credentialAlreadyInUse, passkeyCredentialNotFound
        /// A passkey ceremony refused: the rule it broke in `detail` (`INVALID_AUTHENTICATOR_RESPONSE : …`).
        case invalidAuthenticatorResponse
        // Federated sign-in
        case invalidIDPResponse, missingOrInvalidNonce, invalidCredentialOrProviderID, federatedUserIDAlreadyLinked
        case invalidPendingToken, missingRequestURI, invalidRequestURI, userCancelled
        // Administration
        case projectNotFound, configurationNotFound, configurationExists, invalidProviderID, invalidOAuthClientID
        case invalidConfig
        // Tenants
        case tenantNotFound, invalidTenantID, tenantIDMismatch, projectDisabled
        // Blocking hooks
        /// A hook refused, failed, answered late or answered something unreadable (`BLOCKING_FUNCTION_ERROR_RESPONSE`).
        case blockingFunctionError
        // Tokens
        case invalidIDToken, tokenExpired, invalidRefreshToken, missingCustomToken, invalidCustomToken
        // Abuse
        case tooManyAttempts
        /// The project's SMS budget is spent (`QUOTA_EXCEEDED`).
        case quotaExceeded
        /// The account's password lockout refuses the attempt (`TOO_MANY_ATTEMPTS_TRY_LATER : Access to this account…`).
        case accountTemporarilyDisabled
        // Infrastructure
        case storageUnavailable, internalError
    }

    public let code: Code
    /// Internal explanation. Never reaches a response body.
    public let reason: String?
    /// A value the wire message may carry after `" : "` (for example the claim name of `FORBIDDEN_CLAIM`).
    public let detail: String?
    public let underlying: (any Error)?
    /// Seconds the client should wait before trying again (sent as `Retry-After`), for abuse limits.
    public let retryAfter: Int?
    public let file: String
    public let line: Int

    public init(
        _ code: Code,
        detail: String? = nil,
        reason: String? = nil,
        underlying: (any Error)? = nil,
        retryAfter: Int? = nil,
        file: String = #fileID,
        line: Int = #line
    ) {
        self.code = code
        self.detail = detail
        self.reason = reason
        self.underlying = underlying
        self.retryAfter = retryAfter
        self.file = file
        self.line = line
    }

    public static func == (lhs: HearthError, rhs: HearthError) -> Bool { lhs.code == rhs.code }

    public var description: String {
        "HearthError.\(code.rawValue)\(reason.map { " (\($0))" } ?? "") at \(file):\(line)"
    }
}
