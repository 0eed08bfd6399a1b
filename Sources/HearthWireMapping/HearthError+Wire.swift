import Foundation
import HTTPTypes
import HearthCore
import HearthWire

/// The one place a domain error becomes a Firebase error response.
extension HearthError {
    /// HTTP status and Firebase message for each code.
    public var wire: (status: HTTPResponse.Status, message: String, statusName: String?, reason: String) {
        typealias M = WireErrorMessage
        func business(_ message: String) -> (HTTPResponse.Status, String, String?, String) { (.badRequest, message, nil, "invalid") }
        switch code {
        case .invalidEmail: return business(detail.map { "\(M.invalidEmail) : \($0)" } ?? M.invalidEmail)
        case .missingEmail: return business(M.missingEmail)
        case .missingPassword: return business(M.missingPassword)
        case .weakPassword: return business(M.weakPassword)
        case .invalidIdentifier: return business(M.invalidIdentifier)
        case .missingIdentifier: return business(M.missingIdentifier)
        case .missingContinueURI: return business(M.missingContinueURI)
        case .invalidContinueURI: return business(M.invalidContinueURI)
        case .unauthorizedDomain: return business(detail.map { "UNAUTHORIZED_DOMAIN : \($0)" } ?? "UNAUTHORIZED_DOMAIN")
        case .invalidHostingLinkDomain: return business("INVALID_HOSTING_LINK_DOMAIN")
        case .invalidDisplayName: return business(M.invalidDisplayName)
        case .invalidPhotoURL: return business(M.invalidPhotoURL)
        case .missingIDToken: return business(M.missingIDToken)
        case .missingRefreshToken: return business(M.missingRefreshToken)
        case .missingGrantType: return business(M.missingGrantType)
        case .invalidGrantType: return business(M.invalidGrantType)
        case .missingLocalID: return business(M.missingLocalID)
        case .invalidRequestType: return business(M.invalidRequestType)
        case .unexpectedLocalID: return business(M.unexpectedLocalID)
        case .invalidClaims: return business(M.invalidClaims)
        case .claimsTooLarge: return business(M.claimsTooLarge)
        case .forbiddenClaim: return business(detail.map { "\(M.forbiddenClaim) : \($0)" } ?? M.forbiddenClaim)
        case .insufficientPermission: return business(detail.map { "\(M.insufficientPermission) : \($0)" } ?? M.insufficientPermission)
        case .emailExists: return business(M.emailExists)
        case .emailNotFound: return business(M.emailNotFound)
        case .invalidPassword: return business(M.invalidPassword)
        case .invalidLoginCredentials: return business(M.invalidLoginCredentials)
        case .userDisabled: return business(M.userDisabled)
        case .userNotFound: return business(M.userNotFound)
        case .operationNotAllowed: return business(detail.map { "\(M.operationNotAllowed) : \($0)" } ?? M.operationNotAllowed)
        case .adminOnlyOperation: return business(M.adminOnlyOperation)
        case .passwordLoginDisabled: return business(M.passwordLoginDisabled)
        case .credentialTooOldLoginAgain: return business(M.credentialTooOldLoginAgain)
        case .phoneNumberExists: return business("PHONE_NUMBER_EXISTS")
        case .invalidPhoneNumber: return business("INVALID_PHONE_NUMBER : Invalid format.")
        case .duplicateLocalID: return business(detail.map { "DUPLICATE_LOCAL_ID : \($0)" } ?? "DUPLICATE_LOCAL_ID")
        case .duplicateEmail: return business(detail.map { "DUPLICATE_EMAIL : \($0)" } ?? "DUPLICATE_EMAIL")
        case .duplicateRawID: return business(detail.map { "DUPLICATE_RAW_ID : \($0)" } ?? "DUPLICATE_RAW_ID")
        case .missingUserAccount: return business("MISSING_USER_ACCOUNT")
        case .localIDListExceedsLimit: return business("LOCAL_ID_LIST_EXCEEDS_LIMIT")
        case .exceedMaxUserCount: return business("EXCEED_MAX_USER_COUNT")
        case .missingProviderID: return business("MISSING_PROVIDER_ID")
        case .missingRawID: return business("MISSING_RAW_ID")
        case .invalidDuration: return business("INVALID_DURATION")
        case .invalidPageToken: return business("INVALID_PAGE_SELECTION")
        case .invalidHashParameter: return business(detail ?? "INVALID_HASH_ALGORITHM")
        case .emailChangeNeedsVerification: return business("\(M.operationNotAllowed) : \(M.verifyNewEmailFirst)")
        case .missingRequestType: return business("MISSING_REQ_TYPE")
        case .missingOOBCode: return business("MISSING_OOB_CODE")
        case .invalidOOBCode: return business("INVALID_OOB_CODE")
        case .expiredOOBCode: return business("EXPIRED_OOB_CODE")
        case .missingNewEmail: return business("MISSING_NEW_EMAIL")
        case .resetPasswordExceedLimit: return business("RESET_PASSWORD_EXCEED_LIMIT")
        case .missingAndroidPackageName: return business("MISSING_ANDROID_PACKAGE_NAME")
        case .missingPhoneNumber: return business("MISSING_PHONE_NUMBER")
        case .missingSessionInfo: return business("MISSING_SESSION_INFO")
        case .invalidSessionInfo: return business("INVALID_SESSION_INFO")
        case .missingCode: return business("MISSING_CODE")
        case .invalidCode: return business("INVALID_CODE")
        case .sessionExpired: return business("SESSION_EXPIRED")
        case .invalidTemporaryProof: return business("INVALID_TEMPORARY_PROOF")
        case .missingClientIdentifier: return business("MISSING_CLIENT_IDENTIFIER")
        case .captchaCheckFailed: return business("CAPTCHA_CHECK_FAILED")
        case .invalidAppCredential: return business("INVALID_APP_CREDENTIAL")
        case .quotaExceeded: return business("QUOTA_EXCEEDED")
        case .missingMFAPendingCredential: return business("MISSING_MFA_PENDING_CREDENTIAL : Request does not have MFA pending credential.")
        case .invalidMFAPendingCredential: return business("INVALID_MFA_PENDING_CREDENTIAL")
        case .missingMFAEnrollmentID: return business("MISSING_MFA_ENROLLMENT_ID : No second factor identifier is provided.")
        case .mfaEnrollmentNotFound: return business("MFA_ENROLLMENT_NOT_FOUND")
        case .secondFactorExists: return business(detail.map { "SECOND_FACTOR_EXISTS : \($0)" } ?? "SECOND_FACTOR_EXISTS")
        case .secondFactorLimitExceeded: return business("SECOND_FACTOR_LIMIT_EXCEEDED")
        case .unsupportedFirstFactor: return business("UNSUPPORTED_FIRST_FACTOR : \(detail ?? "MFA is not available for the given first factor.")")
        case .unverifiedEmail: return business("UNVERIFIED_EMAIL : Need to verify email first before enrolling second factors.")
        case .invalidMFAPhoneNumber: return business("INVALID_MFA_PHONE_NUMBER : Invalid format.")
        case .invalidMFAEnrollmentID: return business("INVALID_MFA_ENROLLMENT_ID : \(detail ?? "mfaEnrollmentId must be defined.")")
        case .duplicateMFAEnrollmentID: return business("DUPLICATE_MFA_ENROLLMENT_ID")
        case .invalidIDToken: return business(M.invalidIDToken)
        case .tokenExpired: return business(M.tokenExpired)
        case .invalidRefreshToken: return business(M.invalidRefreshToken)
        case .tooManyAttempts: return business(detail.map { "\(M.tooManyAttempts) : \($0)" } ?? M.tooManyAttempts)
        case .accountTemporarilyDisabled: return business("\(M.tooManyAttempts) : \(M.accountTemporarilyDisabled)")
        case .invalidIDPResponse: return business(detail.map { "\(M.invalidIDPResponse) : \($0)" } ?? M.invalidIDPResponse)
        case .missingOrInvalidNonce: return business(detail.map { "\(M.missingOrInvalidNonce) : \($0)" } ?? M.missingOrInvalidNonce)
        case .invalidCredentialOrProviderID:
            return business(detail.map { "\(M.invalidCredentialOrProviderID) : \($0)" } ?? M.invalidCredentialOrProviderID)
        case .federatedUserIDAlreadyLinked: return business(M.federatedUserIDAlreadyLinked)
        case .invalidPendingToken: return business(M.invalidPendingToken)
        case .missingRequestURI: return business(M.missingRequestURI)
        case .invalidRequestURI: return business(M.invalidRequestURI)
        case .userCancelled: return business(M.userCancelled)
        case .missingCustomToken: return business("MISSING_CUSTOM_TOKEN")
        case .invalidCustomToken: return business(detail.map { "INVALID_CUSTOM_TOKEN : \($0)" } ?? "INVALID_CUSTOM_TOKEN")
        case .projectNotFound: return (.notFound, "PROJECT_NOT_FOUND", "NOT_FOUND", "notFound")
        case .configurationNotFound: return (.notFound, "CONFIGURATION_NOT_FOUND", "NOT_FOUND", "notFound")
        case .configurationExists: return business("CONFIGURATION_EXISTS")
        case .invalidProviderID: return business(detail.map { "INVALID_PROVIDER_ID : \($0)" } ?? "INVALID_PROVIDER_ID")
        case .invalidOAuthClientID: return business(detail.map { "INVALID_OAUTH_CLIENT_ID : \($0)" } ?? "INVALID_OAUTH_CLIENT_ID")
        case .invalidConfig: return business(detail.map { "INVALID_CONFIG : \($0)" } ?? "INVALID_CONFIG")
        case .tenantNotFound: return business("TENANT_NOT_FOUND")
        case .invalidTenantID: return business("INVALID_TENANT_ID")
        case .tenantIDMismatch: return business("TENANT_ID_MISMATCH")
        case .projectDisabled: return business("PROJECT_DISABLED")
        case .blockingFunctionError:
            return business(detail.map { "BLOCKING_FUNCTION_ERROR_RESPONSE : \($0)" } ?? "BLOCKING_FUNCTION_ERROR_RESPONSE")
        case .missingAuthenticatorResponse: return business(M.missingAuthenticatorResponse)
        case .invalidCredentialID: return business(M.invalidCredentialID)
        case .credentialAlreadyInUse: return business(M.credentialAlreadyInUse)
        case .passkeyCredentialNotFound: return business(M.passkeyCredentialNotFound)
        case .invalidAuthenticatorResponse:
            return (.badRequest, "\(M.invalidAuthenticatorResponse) : \(detail ?? "refused")", "INVALID_ARGUMENT", "invalid")
        case .invalidArgument:
            return (.badRequest, "\(M.invalidJSONPrefix) \(detail ?? "")", "INVALID_ARGUMENT", "parseError")
        case .storageUnavailable:
            return (.serviceUnavailable, "The service is currently unavailable.", "UNAVAILABLE", "backendError")
        case .internalError:
            return (.internalServerError, "Internal error encountered.", "INTERNAL", "backendError")
        }
    }

    /// Firebase's error code alone (`EMAIL_EXISTS`, `INVALID_IDP_RESPONSE`), for metrics and the status page: the
    /// message up to ` : ` when that is one upper-case word, else the status name (`INVALID_ARGUMENT`,
    /// `UNAVAILABLE`). Never the detail, which can quote the request.
    public var errorCode: String {
        let wire = self.wire
        let head = wire.message.split(separator: " : ", maxSplits: 1).first.map(String.init) ?? ""
        if !head.isEmpty, head.utf8.allSatisfy({ ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) || $0 == UInt8(ascii: "_") }) {
            return head
        }
        return wire.statusName ?? "INVALID_ARGUMENT"
    }
}
