import Foundation

/// The error codes of Firebase Authentication, with FirebaseAuth's raw values.
///
/// Errors thrown by this module are `NSError`s in ``AuthErrorDomain`` whose `code` is one of these raw values,
/// exactly like FirebaseAuth's. Compare them the way FirebaseAuth's documentation does:
///
/// ```swift
/// if (error as NSError).code == AuthErrorCode.accountExistsWithDifferentCredential.rawValue { … }
/// ```
///
/// or read the case with ``AuthErrorCode/init(_:)`` (`error as? AuthErrorCode` does not work on Linux, where
/// `NSError` does not bridge to Swift enums).
public enum AuthErrorCode: Int, Error, Sendable, CaseIterable {
    case invalidCustomToken = 17000
    case customTokenMismatch = 17002
    case invalidCredential = 17004
    case userDisabled = 17005
    case operationNotAllowed = 17006
    case emailAlreadyInUse = 17007
    case invalidEmail = 17008
    case wrongPassword = 17009
    case tooManyRequests = 17010
    case userNotFound = 17011
    case accountExistsWithDifferentCredential = 17012
    case requiresRecentLogin = 17014
    case providerAlreadyLinked = 17015
    case noSuchProvider = 17016
    case invalidUserToken = 17017
    case networkError = 17020
    case userTokenExpired = 17021
    case invalidAPIKey = 17023
    case userMismatch = 17024
    case credentialAlreadyInUse = 17025
    case weakPassword = 17026
    case appNotAuthorized = 17028
    case expiredActionCode = 17029
    case invalidActionCode = 17030
    case invalidMessagePayload = 17031
    case invalidSender = 17032
    case invalidRecipientEmail = 17033
    case missingEmail = 17034
    case missingIosBundleID = 17036
    case missingAndroidPackageName = 17037
    case unauthorizedDomain = 17038
    case invalidContinueURI = 17039
    case missingContinueURI = 17040
    case missingPhoneNumber = 17041
    case invalidPhoneNumber = 17042
    case missingVerificationCode = 17043
    case invalidVerificationCode = 17044
    case missingVerificationID = 17045
    case invalidVerificationID = 17046
    case missingAppCredential = 17047
    case invalidAppCredential = 17048
    case sessionExpired = 17051
    case quotaExceeded = 17052
    case missingAppToken = 17053
    case notificationNotForwarded = 17054
    case appNotVerified = 17055
    case captchaCheckFailed = 17056
    case webContextAlreadyPresented = 17057
    case webContextCancelled = 17058
    case appVerificationUserInteractionFailure = 17059
    case invalidClientID = 17060
    case webNetworkRequestFailed = 17061
    case webInternalError = 17062
    case webSignInUserInteractionFailure = 17063
    case localPlayerNotAuthenticated = 17066
    case nullUser = 17067
    case invalidProviderID = 17071
    case tenantIDMismatch = 17072
    case unsupportedTenantOperation = 17073
    case rejectedCredential = 17075
    case gameKitNotLinked = 17076
    case secondFactorRequired = 17078
    case missingMultiFactorSession = 17081
    case missingMultiFactorInfo = 17082
    case invalidMultiFactorSession = 17083
    case multiFactorInfoNotFound = 17084
    case adminRestrictedOperation = 17085
    case unverifiedEmail = 17086
    case secondFactorAlreadyEnrolled = 17087
    case maximumSecondFactorCountExceeded = 17088
    case unsupportedFirstFactor = 17089
    case emailChangeNeedsVerification = 17090
    case missingClientIdentifier = 17093
    case missingOrInvalidNonce = 17094
    case blockingCloudFunctionError = 17105
    case recaptchaNotEnabled = 17200
    case missingRecaptchaToken = 17201
    case invalidRecaptchaToken = 17202
    case invalidRecaptchaAction = 17203
    case missingClientType = 17204
    case missingRecaptchaVersion = 17205
    case invalidRecaptchaVersion = 17206
    case invalidReqType = 17207
    case recaptchaSDKNotLinked = 17208
    case recaptchaSiteKeyMissing = 17209
    case recaptchaActionCreationFailed = 17210
    case passwordDoesNotMeetRequirements = 17211
    /// A passkey the account does not have: a removal or sign-in naming an unknown credential. FirebaseAuth's name
    /// (its passkey tests); its raw value could not be checked against FirebaseAuth's sources.
    case missingPasskeyEnrollment = 17212
    /// A passkey ceremony whose authenticator answer is missing, malformed or breaks a WebAuthn rule (the rule is the
    /// error's description). FirebaseAuth's name; its raw value could not be checked against FirebaseAuth's sources.
    case invalidAuthenticatorResponse = 17213
    case invalidHostingLinkDomain = 17214
    case keychainError = 17995
    case internalError = 17999
    case malformedJWT = 18000

    /// The case itself, so that `error.code == .userNotFound` reads like FirebaseAuth's.
    public var code: Self { self }

    /// The case of an error thrown by this module (an `NSError` in ``AuthErrorDomain``), or nil for any other error.
    public init?(_ error: any Error) {
        if let code = error as? AuthErrorCode {
            self = code
            return
        }
        let bridged = error as NSError
        guard bridged.domain == AuthErrorDomain, let code = AuthErrorCode(rawValue: bridged.code) else { return nil }
        self = code
    }

    /// FirebaseAuth's `ERROR_…` name of the code, stored under ``AuthErrorUserInfoNameKey``.
    public var errorCodeString: String {
        switch self {
        case .networkError: return "ERROR_NETWORK_REQUEST_FAILED"
        case .missingAndroidPackageName: return "ERROR_MISSING_ANDROID_PKG_NAME"
        case .missingAppCredential: return "MISSING_APP_CREDENTIAL"
        case .invalidAppCredential: return "INVALID_APP_CREDENTIAL"
        case .appVerificationUserInteractionFailure: return "ERROR_APP_VERIFICATION_FAILED"
        case .webSignInUserInteractionFailure: return "ERROR_WEB_USER_INTERACTION_FAILURE"
        case .blockingCloudFunctionError: return "ERROR_BLOCKING_CLOUD_FUNCTION_RETURNED_ERROR"
        default: return "ERROR_" + Self.upperSnake(String(describing: self))
        }
    }

    /// `accountExistsWithDifferentCredential` → `ACCOUNT_EXISTS_WITH_DIFFERENT_CREDENTIAL`; runs of capitals
    /// (`API`, `URI`, `ID`, `JWT`, `SDK`) stay one word.
    static func upperSnake(_ name: String) -> String {
        let characters = Array(name)
        var result = ""
        for (index, character) in characters.enumerated() {
            if character.isUppercase, index > 0 {
                let previousIsLower = characters[index - 1].isLowercase
                let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
                let previousIsUpper = characters[index - 1].isUppercase
                if previousIsLower || (previousIsUpper && nextIsLower) { result.append("_") }
            }
            result.append(contentsOf: character.uppercased())
        }
        return result
    }

    /// FirebaseAuth's English message for the code, used when the server gave no detail.
    var defaultDescription: String {
        switch self {
        case .invalidCustomToken: return "The custom token format is incorrect. Please check the documentation."
        case .customTokenMismatch: return "The custom token corresponds to a different audience."
        case .invalidCredential: return "The supplied auth credential is malformed or has expired."
        case .userDisabled: return "The user account has been disabled by an administrator."
        case .operationNotAllowed:
            return
                "The given sign-in provider is disabled for this Firebase project. Enable it in the Firebase console, under the sign-in method tab of the Auth section."
        case .emailAlreadyInUse: return "The email address is already in use by another account."
        case .invalidEmail: return "The email address is badly formatted."
        case .wrongPassword: return "The password is invalid or the user does not have a password."
        case .tooManyRequests: return "We have blocked all requests from this device due to unusual activity. Try again later."
        case .userNotFound: return "There is no user record corresponding to this identifier. The user may have been deleted."
        case .accountExistsWithDifferentCredential:
            return
                "An account already exists with the same email address but different sign-in credentials. Sign in using a provider associated with this email address."
        case .requiresRecentLogin: return "This operation is sensitive and requires recent authentication. Log in again before retrying this request."
        case .providerAlreadyLinked: return "[ERROR_PROVIDER_ALREADY_LINKED] - User can only be linked to one identity for the given provider."
        case .noSuchProvider: return "User was not linked to an account with the given provider."
        case .invalidUserToken:
            return
                "This user's credential isn't valid for this project. This can happen if the user's token has been tampered with, or if the user doesn't belong to the project associated with the API key used in your request."
        case .networkError: return "Network error (such as timeout, interrupted connection or unreachable host) has occurred."
        case .userTokenExpired: return "The user's credential is no longer valid. The user must sign in again."
        case .invalidAPIKey: return "An invalid API Key was supplied in the request."
        case .userMismatch: return "The supplied credentials do not correspond to the previously signed in user."
        case .credentialAlreadyInUse: return "This credential is already associated with a different user account."
        case .weakPassword: return "The password must be 6 characters long or more."
        case .appNotAuthorized: return "This app is not authorized to use Firebase Authentication with the provided API Key."
        case .missingEmail: return "An email address must be provided."
        case .missingPhoneNumber: return "To send verification codes, provide a phone number for the recipient."
        case .invalidPhoneNumber:
            return
                "The format of the phone number provided is incorrect. Please enter the phone number in a format that can be parsed into E.164 format. E.164 phone numbers are written in the format [+][country code][subscriber number including area code]."
        case .missingVerificationCode: return "The phone auth credential was created with an empty verification code."
        case .invalidVerificationCode:
            return
                "The SMS verification code used to create the phone auth credential is invalid. Please resend the verification code SMS and be sure to use the verification code provided by the user."
        case .missingVerificationID: return "The phone auth credential was created with an empty verification ID."
        case .invalidVerificationID: return "The verification ID used to create the phone auth credential is invalid."
        case .sessionExpired: return "The SMS code has expired. Please re-send the verification code to try again."
        case .quotaExceeded: return "The phone verification quota for this project has been exceeded."
        case .nullUser: return "A null user object was provided as the argument for an operation which requires a non-null user object."
        case .invalidProviderID: return "The provider ID provided for the attempted web operation is invalid."
        case .tenantIDMismatch: return "The provided user's tenant ID does not match the Auth instance's tenant ID."
        case .missingOrInvalidNonce:
            return
                "The request does not contain a valid nonce. This can occur if the SHA-256 hash of the provided raw nonce does not match the hashed nonce in the ID token payload."
        case .webContextCancelled: return "The interaction was cancelled by the user."
        case .keychainError: return "An error occurred when accessing the keychain."
        case .malformedJWT: return "Failed to parse JWT. Check the userInfo dictionary for the full token."
        case .internalError: return "An internal error has occurred, print and inspect the error details for more information."
        case .adminRestrictedOperation: return "This operation is restricted to administrators only."
        case .secondFactorRequired: return "Please complete a second factor challenge to finish signing into this account."
        case .missingPasskeyEnrollment: return "Cannot find the passkey linked to the current account."
        case .invalidAuthenticatorResponse:
            return
                "During passkey enrollment and sign in, the authenticator response is not parseable, missing required fields, or certain fields are invalid values that compromise the security of the sign-in or enrollment."
        default: return "An error occurred (\(errorCodeString))."
        }
    }
}
