// hearth::auth::AuthError: the values of Firebase's firebase::auth::AuthError (auth/types.h), position for
// position, including Firebase's spellings (…DifferentCredentials, WebStorateUnsupported).
#ifndef HEARTH_AUTH_TYPES_H_
#define HEARTH_AUTH_TYPES_H_

namespace hearth {
namespace auth {

enum AuthError {
  kAuthErrorNone = 0,
  kAuthErrorUnimplemented = -1,
  kAuthErrorFailure = 1,
  kAuthErrorInvalidCustomToken,
  kAuthErrorCustomTokenMismatch,
  kAuthErrorInvalidCredential,
  kAuthErrorUserDisabled,
  kAuthErrorAccountExistsWithDifferentCredentials,
  kAuthErrorOperationNotAllowed,
  kAuthErrorEmailAlreadyInUse,
  kAuthErrorRequiresRecentLogin,
  kAuthErrorCredentialAlreadyInUse,
  kAuthErrorInvalidEmail,
  kAuthErrorWrongPassword,
  kAuthErrorTooManyRequests,
  kAuthErrorUserNotFound,
  kAuthErrorProviderAlreadyLinked,
  kAuthErrorNoSuchProvider,
  kAuthErrorInvalidUserToken,
  kAuthErrorUserTokenExpired,
  kAuthErrorNetworkRequestFailed,
  kAuthErrorInvalidApiKey,
  kAuthErrorAppNotAuthorized,
  kAuthErrorUserMismatch,
  kAuthErrorWeakPassword,
  kAuthErrorNoSignedInUser,
  kAuthErrorApiNotAvailable,
  kAuthErrorExpiredActionCode,
  kAuthErrorInvalidActionCode,
  kAuthErrorInvalidMessagePayload,
  kAuthErrorInvalidPhoneNumber,
  kAuthErrorMissingPhoneNumber,
  kAuthErrorInvalidRecipientEmail,
  kAuthErrorInvalidSender,
  kAuthErrorInvalidVerificationCode,
  kAuthErrorInvalidVerificationId,
  kAuthErrorMissingVerificationCode,
  kAuthErrorMissingVerificationId,
  kAuthErrorMissingEmail,
  kAuthErrorMissingPassword,
  kAuthErrorQuotaExceeded,
  kAuthErrorRetryPhoneAuth,
  kAuthErrorSessionExpired,
  kAuthErrorAppNotVerified,
  kAuthErrorAppVerificationFailed,
  kAuthErrorCaptchaCheckFailed,
  kAuthErrorInvalidAppCredential,
  kAuthErrorMissingAppCredential,
  kAuthErrorInvalidClientId,
  kAuthErrorInvalidContinueUri,
  kAuthErrorMissingContinueUri,
  kAuthErrorKeychainError,
  kAuthErrorMissingAppToken,
  kAuthErrorMissingIosBundleId,
  kAuthErrorNotificationNotForwarded,
  kAuthErrorUnauthorizedDomain,
  kAuthErrorWebContextAlreadyPresented,
  kAuthErrorWebContextCancelled,
  kAuthErrorDynamicLinkNotActivated,
  kAuthErrorCancelled,
  kAuthErrorInvalidProviderId,
  kAuthErrorWebInternalError,
  kAuthErrorWebStorateUnsupported,
  kAuthErrorTenantIdMismatch,
  kAuthErrorUnsupportedTenantOperation,
  kAuthErrorInvalidLinkDomain,
  kAuthErrorRejectedCredential,
  kAuthErrorPhoneNumberNotFound,
  kAuthErrorInvalidTenantId,
  kAuthErrorMissingClientIdentifier,
  kAuthErrorMissingMultiFactorSession,
  kAuthErrorMissingMultiFactorInfo,
  kAuthErrorInvalidMultiFactorSession,
  kAuthErrorMultiFactorInfoNotFound,
  kAuthErrorAdminRestrictedOperation,
  kAuthErrorUnverifiedEmail,
  kAuthErrorSecondFactorAlreadyEnrolled,
  kAuthErrorMaximumSecondFactorCountExceeded,
  kAuthErrorUnsupportedFirstFactor,
  kAuthErrorEmailChangeNeedsVerification,
};

static_assert(kAuthErrorCredentialAlreadyInUse == 10, "Firebase's value");
static_assert(kAuthErrorNetworkRequestFailed == 19, "Firebase's value");
static_assert(kAuthErrorInvalidPhoneNumber == 29, "Firebase's value");
static_assert(kAuthErrorInvalidVerificationCode == 33, "Firebase's value");
static_assert(kAuthErrorQuotaExceeded == 39, "Firebase's value");
static_assert(kAuthErrorSessionExpired == 41, "Firebase's value");
static_assert(kAuthErrorInvalidProviderId == 59, "Firebase's value");
static_assert(kAuthErrorEmailChangeNeedsVerification == 78, "Firebase's value");

}  // namespace auth
}  // namespace hearth

#endif  // HEARTH_AUTH_TYPES_H_
