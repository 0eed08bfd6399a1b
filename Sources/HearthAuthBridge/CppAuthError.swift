import Foundation
import HearthAuth

/// FirebaseAuth's error codes as the values of firebase-cpp-sdk's `enum AuthError` (auth/types.h, positional).
enum CppAuthError {
    static let failure: Int32 = 1
    static let invalidCredential: Int32 = 4
    static let noSignedInUser: Int32 = 24
    static let invalidProviderID: Int32 = 59

    static func value(of error: any Error) -> Int32 {
        guard let code = AuthErrorCode(error) else { return failure }
        return value(of: code)
    }

    static func value(of code: AuthErrorCode) -> Int32 {
        table[code] ?? failure
    }

    private static let table: [AuthErrorCode: Int32] = [
        .invalidCustomToken: 2, .customTokenMismatch: 3, .invalidCredential: 4, .userDisabled: 5,
        .accountExistsWithDifferentCredential: 6, .operationNotAllowed: 7, .emailAlreadyInUse: 8, .requiresRecentLogin: 9,
        .credentialAlreadyInUse: 10, .invalidEmail: 11, .wrongPassword: 12, .tooManyRequests: 13, .userNotFound: 14,
        .providerAlreadyLinked: 15, .noSuchProvider: 16, .invalidUserToken: 17, .userTokenExpired: 18, .networkError: 19,
        .webNetworkRequestFailed: 19, .invalidAPIKey: 20, .appNotAuthorized: 21, .userMismatch: 22, .weakPassword: 23,
        .passwordDoesNotMeetRequirements: 23, .nullUser: 24, .expiredActionCode: 26, .invalidActionCode: 27,
        .invalidMessagePayload: 28, .invalidPhoneNumber: 29, .missingPhoneNumber: 30, .invalidRecipientEmail: 31,
        .invalidSender: 32, .invalidVerificationCode: 33, .invalidVerificationID: 34, .missingVerificationCode: 35,
        .missingVerificationID: 36, .missingEmail: 37, .quotaExceeded: 39, .sessionExpired: 41, .appNotVerified: 42,
        .appVerificationUserInteractionFailure: 43, .captchaCheckFailed: 44, .invalidAppCredential: 45,
        .missingAppCredential: 46, .invalidClientID: 47, .invalidContinueURI: 48, .missingContinueURI: 49, .keychainError: 50,
        .missingAppToken: 51, .missingIosBundleID: 52, .notificationNotForwarded: 53, .unauthorizedDomain: 54,
        .webContextAlreadyPresented: 55, .webContextCancelled: 56, .invalidProviderID: 59, .webInternalError: 60,
        .tenantIDMismatch: 62, .unsupportedTenantOperation: 63, .invalidHostingLinkDomain: 64, .rejectedCredential: 65,
        .missingClientIdentifier: 68, .missingMultiFactorSession: 69, .missingMultiFactorInfo: 70,
        .invalidMultiFactorSession: 71, .multiFactorInfoNotFound: 72, .adminRestrictedOperation: 73, .unverifiedEmail: 74,
        .secondFactorAlreadyEnrolled: 75, .maximumSecondFactorCountExceeded: 76, .unsupportedFirstFactor: 77,
        .emailChangeNeedsVerification: 78,
        // No C++ value of their own: an ID token whose nonce does not match is a bad credential.
        .missingOrInvalidNonce: 4, .malformedJWT: 4,
        // Firebase's C++ API has no multi-factor calls and no value for this code: its iOS layer reports a code it does
        // not know (this one) as kAuthErrorUnimplemented, with FirebaseAuth's message, and so does Hearth's.
        .secondFactorRequired: -1,
    ]
}
