import Foundation

/// What went wrong in a ``HearthAdmin`` call, with the Firebase Admin SDKs' error codes (`auth/id-token-expired`,
/// `auth/user-not-found`, …), so that code written against them reads the same.
public struct HearthAdminError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An Admin SDK error code such as `auth/id-token-revoked`.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// A malformed, foreign or badly signed token, or an argument the call refuses before sending it.
        public static let argumentError = Code(rawValue: "auth/argument-error")
        public static let idTokenExpired = Code(rawValue: "auth/id-token-expired")
        public static let idTokenRevoked = Code(rawValue: "auth/id-token-revoked")
        public static let invalidIDToken = Code(rawValue: "auth/invalid-id-token")
        public static let sessionCookieExpired = Code(rawValue: "auth/session-cookie-expired")
        public static let sessionCookieRevoked = Code(rawValue: "auth/session-cookie-revoked")
        public static let invalidSessionCookieDuration = Code(rawValue: "auth/invalid-session-cookie-duration")
        public static let userDisabled = Code(rawValue: "auth/user-disabled")
        public static let userNotFound = Code(rawValue: "auth/user-not-found")
        public static let emailAlreadyExists = Code(rawValue: "auth/email-already-exists")
        public static let uidAlreadyExists = Code(rawValue: "auth/uid-already-exists")
        public static let phoneNumberAlreadyExists = Code(rawValue: "auth/phone-number-already-exists")
        public static let invalidPhoneNumber = Code(rawValue: "auth/invalid-phone-number")
        public static let invalidEmail = Code(rawValue: "auth/invalid-email")
        public static let invalidPassword = Code(rawValue: "auth/invalid-password")
        public static let invalidUID = Code(rawValue: "auth/invalid-uid")
        public static let invalidClaims = Code(rawValue: "auth/invalid-claims")
        public static let claimsTooLarge = Code(rawValue: "auth/claims-too-large")
        public static let reservedClaim = Code(rawValue: "auth/reserved-claim")
        public static let projectNotFound = Code(rawValue: "auth/project-not-found")
        public static let insufficientPermission = Code(rawValue: "auth/insufficient-permission")
        /// The credential cannot do what was asked (a custom token needs a service account's key).
        public static let invalidCredential = Code(rawValue: "auth/invalid-credential")
        public static let maximumUserCountExceeded = Code(rawValue: "auth/maximum-user-count-exceeded")
        /// A continue URL that is not absolute http(s) (`INVALID_CONTINUE_URI`).
        public static let invalidContinueURI = Code(rawValue: "auth/invalid-continue-uri")
        /// A continue URL whose host the server does not authorize (`UNAUTHORIZED_DOMAIN`).
        public static let unauthorizedDomain = Code(rawValue: "auth/unauthorized-continue-uri")
        /// A sign-in link while e-mail link sign-in is off, or another switched-off action (`OPERATION_NOT_ALLOWED`).
        public static let operationNotAllowed = Code(rawValue: "auth/operation-not-allowed")
        /// A second factor that is not a phone factor where only those go (`createUser`, `importUsers`).
        public static let unsupportedSecondFactor = Code(rawValue: "auth/unsupported-second-factor")
        /// Two second factors with one enrolment id (`DUPLICATE_MFA_ENROLLMENT_ID`).
        public static let secondFactorUIDAlreadyExists = Code(rawValue: "auth/second-factor-uid-already-exists")
        /// More second factors than an account may have (`SECOND_FACTOR_LIMIT_EXCEEDED`).
        public static let secondFactorLimitExceeded = Code(rawValue: "auth/second-factor-limit-exceeded")
        /// A second factor the user does not have (`MFA_ENROLLMENT_NOT_FOUND`).
        public static let multiFactorInfoNotFound = Code(rawValue: "auth/multi-factor-info-not-found")
        /// A passkey the user does not have (`PASSKEY_CREDENTIAL_NOT_FOUND`). Firebase's Admin SDKs have no passkey
        /// calls, so the code is Hearth's.
        public static let passkeyNotFound = Code(rawValue: "auth/passkey-not-found")
        /// No tenant has this id (`TENANT_NOT_FOUND`).
        public static let tenantNotFound = Code(rawValue: "auth/tenant-not-found")
        /// A string that cannot be a tenant id (`INVALID_TENANT_ID`, or an empty one before any call).
        public static let invalidTenantID = Code(rawValue: "auth/invalid-tenant-id")
        /// A token of another tenant (or of the project) given to a tenant's instance, or a call that names two
        /// tenants (`TENANT_ID_MISMATCH`).
        public static let mismatchingTenantID = Code(rawValue: "auth/mismatching-tenant-id")
        /// The server could not be reached, answered something unreadable, or failed.
        public static let internalError = Code(rawValue: "auth/internal-error")
    }

    public let code: Code
    /// A human explanation; never contains a token or a key.
    public let message: String
    /// The server's error string (`USER_NOT_FOUND`, `TOKEN_EXPIRED : …`) when the server answered with one.
    public let serverMessage: String?

    public init(_ code: Code, _ message: String, serverMessage: String? = nil) {
        self.code = code
        self.message = message
        self.serverMessage = serverMessage
    }

    public var description: String { "\(code.rawValue): \(message)" }

    /// Equal when the codes are equal.
    public static func == (lhs: HearthAdminError, rhs: HearthAdminError) -> Bool { lhs.code == rhs.code }

    /// The Admin SDK code of a server error string (the part before `" : "`).
    static func code(forServerMessage message: String) -> Code {
        let name = message.split(separator: " ", maxSplits: 1).first.map(String.init) ?? message
        switch name {
        case "USER_NOT_FOUND", "EMAIL_NOT_FOUND": return .userNotFound
        case "USER_DISABLED": return .userDisabled
        case "TOKEN_EXPIRED": return .idTokenExpired
        case "INVALID_ID_TOKEN", "MISSING_ID_TOKEN": return .invalidIDToken
        case "INVALID_DURATION": return .invalidSessionCookieDuration
        case "EMAIL_EXISTS", "DUPLICATE_EMAIL": return .emailAlreadyExists
        case "DUPLICATE_LOCAL_ID", "UID_ALREADY_EXISTS": return .uidAlreadyExists
        case "PHONE_NUMBER_EXISTS": return .phoneNumberAlreadyExists
        case "INVALID_EMAIL": return .invalidEmail
        case "INVALID_PHONE_NUMBER", "MISSING_PHONE_NUMBER", "INVALID_MFA_PHONE_NUMBER": return .invalidPhoneNumber
        case "DUPLICATE_MFA_ENROLLMENT_ID": return .secondFactorUIDAlreadyExists
        case "SECOND_FACTOR_LIMIT_EXCEEDED": return .secondFactorLimitExceeded
        case "MFA_ENROLLMENT_NOT_FOUND": return .multiFactorInfoNotFound
        case "PASSKEY_CREDENTIAL_NOT_FOUND": return .passkeyNotFound
        case "INVALID_MFA_ENROLLMENT_ID": return .argumentError
        case "WEAK_PASSWORD", "INVALID_PASSWORD": return .invalidPassword
        case "INVALID_LOCAL_ID", "MISSING_LOCAL_ID": return .invalidUID
        case "INVALID_CLAIMS": return .invalidClaims
        case "CLAIMS_TOO_LARGE": return .claimsTooLarge
        case "FORBIDDEN_CLAIM": return .reservedClaim
        case "PROJECT_NOT_FOUND": return .projectNotFound
        case "INSUFFICIENT_PERMISSION", "PERMISSION_DENIED": return .insufficientPermission
        case "MAXIMUM_USER_COUNT_EXCEEDED": return .maximumUserCountExceeded
        case "INVALID_ARGUMENT": return .argumentError
        case "INVALID_CONTINUE_URI", "MISSING_CONTINUE_URI": return .invalidContinueURI
        case "UNAUTHORIZED_DOMAIN": return .unauthorizedDomain
        case "OPERATION_NOT_ALLOWED": return .operationNotAllowed
        case "TENANT_NOT_FOUND": return .tenantNotFound
        case "INVALID_TENANT_ID": return .invalidTenantID
        case "TENANT_ID_MISMATCH": return .mismatchingTenantID
        default: return .internalError
        }
    }
}
