import Foundation
import HearthTesting
import Testing

@testable import HearthAuth

@Suite struct ErrorMappingTests {
    /// Every server message the SDK knows, exactly as servers send it, and the code it becomes (client-sdk.md §3.2).
    static let table: [(String, AuthErrorCode)] = [
        ("USER_NOT_FOUND", .userNotFound), ("EMAIL_NOT_FOUND", .userNotFound),
        ("MISSING_CONTINUE_URI", .missingContinueURI), ("INVALID_IDENTIFIER", .invalidEmail), ("INVALID_EMAIL", .invalidEmail),
        ("INVALID_ID_TOKEN", .invalidUserToken), ("CREDENTIAL_TOO_OLD_LOGIN_AGAIN", .requiresRecentLogin),
        ("EMAIL_EXISTS", .emailAlreadyInUse), ("OPERATION_NOT_ALLOWED", .operationNotAllowed),
        ("OPERATION_NOT_ALLOWED : A user cannot unlink their last sign-in method.", .operationNotAllowed),
        ("PASSWORD_LOGIN_DISABLED", .operationNotAllowed), ("USER_DISABLED", .userDisabled),
        ("EXPIRED_OOB_CODE", .expiredActionCode), ("INVALID_OOB_CODE", .invalidActionCode),
        ("INVALID_MESSAGE_PAYLOAD", .invalidMessagePayload), ("INVALID_SENDER", .invalidSender),
        ("INVALID_RECIPIENT_EMAIL", .invalidRecipientEmail),
        ("WEAK_PASSWORD : Password should be at least 6 characters", .weakPassword),
        ("TOO_MANY_ATTEMPTS_TRY_LATER", .tooManyRequests), ("MISSING_EMAIL", .missingEmail),
        ("MISSING_IOS_BUNDLE_ID", .missingIosBundleID), ("MISSING_ANDROID_PACKAGE_NAME", .missingAndroidPackageName),
        ("UNAUTHORIZED_DOMAIN", .unauthorizedDomain), ("INVALID_CONTINUE_URI", .invalidContinueURI),
        ("INVALID_PASSWORD", .wrongPassword), ("INVALID_IDP_RESPONSE", .invalidCredential),
        ("INVALID_IDP_RESPONSE : The credential has neither id_token nor access_token.", .invalidCredential),
        ("INVALID_PENDING_TOKEN", .invalidCredential), ("INVALID_LOGIN_CREDENTIALS", .invalidCredential),
        ("USER_CANCELLED", .webContextCancelled),
        ("INVALID_CUSTOM_TOKEN", .invalidCustomToken), ("CREDENTIAL_MISMATCH", .customTokenMismatch),
        ("INVALID_PHONE_NUMBER", .invalidPhoneNumber), ("QUOTA_EXCEEDED", .quotaExceeded), ("APP_NOT_VERIFIED", .appNotVerified),
        ("CAPTCHA_CHECK_FAILED", .captchaCheckFailed), ("INVALID_APP_CREDENTIAL", .invalidAppCredential),
        ("MISSING_APP_CREDENTIAL", .missingAppCredential), ("INVALID_CODE", .invalidVerificationCode),
        ("INVALID_SESSION_INFO", .invalidVerificationID), ("SESSION_EXPIRED", .sessionExpired),
        ("MISSING_IOS_APP_TOKEN", .missingAppToken), ("INVALID_HOSTING_LINK_DOMAIN", .invalidHostingLinkDomain),
        ("ADMIN_ONLY_OPERATION", .adminRestrictedOperation), ("BLOCKING_FUNCTION_ERROR_RESPONSE", .blockingCloudFunctionError),
        ("EMAIL_CHANGE_NEEDS_VERIFICATION", .emailChangeNeedsVerification),
        ("INVALID_MFA_PENDING_CREDENTIAL", .invalidMultiFactorSession), ("MFA_ENROLLMENT_NOT_FOUND", .multiFactorInfoNotFound),
        ("MISSING_MFA_ENROLLMENT_ID", .missingMultiFactorInfo), ("MISSING_MFA_PENDING_CREDENTIAL", .missingMultiFactorSession),
        ("SECOND_FACTOR_EXISTS", .secondFactorAlreadyEnrolled), ("SECOND_FACTOR_LIMIT_EXCEEDED", .maximumSecondFactorCountExceeded),
        ("UNSUPPORTED_FIRST_FACTOR", .unsupportedFirstFactor), ("UNVERIFIED_EMAIL", .unverifiedEmail),
        ("INVALID_PROVIDER_ID", .invalidProviderID), ("MISSING_CLIENT_IDENTIFIER", .missingClientIdentifier),
        ("MISSING_OR_INVALID_NONCE", .missingOrInvalidNonce),
        ("MISSING_OR_INVALID_NONCE : Nonce is missing in the request.", .missingOrInvalidNonce),
        ("PASSWORD_DOES_NOT_MEET_REQUIREMENTS", .passwordDoesNotMeetRequirements),
        ("TENANT_ID_MISMATCH", .tenantIDMismatch), ("UNSUPPORTED_TENANT_OPERATION", .unsupportedTenantOperation),
        ("TOKEN_EXPIRED", .userTokenExpired), ("FEDERATED_USER_ID_ALREADY_LINKED", .credentialAlreadyInUse),
        // Not in FirebaseAuth's table; Hearth sends them.
        ("INVALID_REFRESH_TOKEN", .invalidUserToken), ("MISSING_PASSWORD", .wrongPassword),
        ("INVALID_CREDENTIAL_OR_PROVIDER_ID : Invalid IdP response/credential: http://localhost", .invalidCredential),
        ("MISSING_OOB_CODE", .invalidActionCode), ("RESET_PASSWORD_EXCEED_LIMIT", .tooManyRequests), ("MISSING_NEW_EMAIL", .missingEmail),
        ("MISSING_PHONE_NUMBER", .missingPhoneNumber), ("MISSING_CODE", .missingVerificationCode),
        ("MISSING_SESSION_INFO", .missingVerificationID), ("INVALID_TEMPORARY_PROOF", .invalidCredential),
        ("PHONE_NUMBER_EXISTS", .credentialAlreadyInUse), ("INVALID_PHONE_NUMBER : Invalid format.", .invalidPhoneNumber),
        // Passkeys.
        ("CREDENTIAL_ALREADY_IN_USE", .credentialAlreadyInUse), ("PASSKEY_ENROLLMENT_NOT_FOUND", .missingPasskeyEnrollment),
        ("PASSKEY_CREDENTIAL_NOT_FOUND", .missingPasskeyEnrollment), ("INVALID_AUTHENTICATOR_RESPONSE", .invalidAuthenticatorResponse),
        ("INVALID_AUTHENTICATOR_RESPONSE : signature does not verify.", .invalidAuthenticatorResponse),
        ("MISSING_AUTHENTICATOR_RESPONSE", .invalidAuthenticatorResponse), ("INVALID_CREDENTIAL_ID", .invalidAuthenticatorResponse),
    ]

    @Test("Server messages map to FirebaseAuth's codes", arguments: table)
    func mapping(message: String, code: AuthErrorCode) {
        let error = AuthErrorFactory.serverError(message: message, reasons: ["invalid"], status: 400)
        #expect(error.domain == "FIRAuthErrorDomain")
        #expect(error.code == code.rawValue)
        #expect(AuthErrorCode(error) == code)
        #expect(error.userInfo[AuthErrorUserInfoNameKey] as? String == code.errorCodeString)
        if let colon = message.firstIndex(of: ":") {
            let detail = message[message.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            #expect(error.localizedDescription == detail)
        }
    }

    @Test func unknownMessagesAndReasons() {
        let key = AuthErrorFactory.serverError(message: "API key not valid. Please pass a valid API key.", reasons: ["keyInvalid"], status: 400)
        #expect(AuthErrorCode(key) == .invalidAPIKey)
        let referer = AuthErrorFactory.serverError(message: "Requests from this referer are blocked.", reasons: ["ipRefererBlocked"], status: 403)
        #expect(AuthErrorCode(referer) == .appNotAuthorized)
        let notFound = AuthErrorFactory.serverError(message: "Not Found", reasons: ["notFound"], status: 404)
        #expect(AuthErrorCode(notFound) == .operationNotAllowed)
        let other = AuthErrorFactory.serverError(message: "SOMETHING_NEW", reasons: ["invalid"], status: 400)
        #expect(AuthErrorCode(other) == .internalError)
        #expect((other.userInfo[NSUnderlyingErrorKey] as? NSError)?.domain == "FIRAuthInternalErrorDomain")
        let weak = AuthErrorFactory.serverError(message: "WEAK_PASSWORD : Password should be at least 6 characters", reasons: [], status: 400)
        #expect(weak.userInfo[NSLocalizedFailureReasonErrorKey] as? String == "Password should be at least 6 characters")
    }

    @Test func codesKeepFirebaseRawValuesAndNames() {
        #expect(AuthErrorCode.accountExistsWithDifferentCredential.rawValue == 17012)
        #expect(AuthErrorCode.credentialAlreadyInUse.rawValue == 17025)
        #expect(AuthErrorCode.networkError.rawValue == 17020)
        #expect(AuthErrorCode.keychainError.rawValue == 17995)
        #expect(AuthErrorCode.malformedJWT.rawValue == 18000)
        #expect(AuthErrorCode.accountExistsWithDifferentCredential.errorCodeString == "ERROR_ACCOUNT_EXISTS_WITH_DIFFERENT_CREDENTIAL")
        #expect(AuthErrorCode.invalidAPIKey.errorCodeString == "ERROR_INVALID_API_KEY")
        #expect(AuthErrorCode.tenantIDMismatch.errorCodeString == "ERROR_TENANT_ID_MISMATCH")
        #expect(AuthErrorCode.missingIosBundleID.errorCodeString == "ERROR_MISSING_IOS_BUNDLE_ID")
        #expect(AuthErrorCode.networkError.errorCodeString == "ERROR_NETWORK_REQUEST_FAILED")
        #expect(AuthErrorCode.userNotFound.code == .userNotFound)
        #expect(AuthErrors.domain == AuthErrorDomain)
    }

    @Test("Errors a live server sends become the right codes")
    func liveErrors() async throws {
        try await withLiveHearth { live in
            let auth = makeAuth(live)
            _ = try await auth.createUser(withEmail: "taken@example.com", password: "taken-pass")
            try auth.signOut()
            #expect(await authError { _ = try await auth.createUser(withEmail: "taken@example.com", password: "other-pass") } == .emailAlreadyInUse)
            #expect(await authError { _ = try await auth.createUser(withEmail: "not an e-mail", password: "other-pass") } == .invalidEmail)
            let weak = try #require(await nsError { _ = try await auth.createUser(withEmail: "weak@example.com", password: "123") })
            #expect(weak.code == AuthErrorCode.weakPassword.rawValue)
            #expect(weak.userInfo[NSLocalizedFailureReasonErrorKey] as? String == "Password should be at least 6 characters")
            #expect(await authError { _ = try await auth.createUser(withEmail: "weak@example.com", password: "") } == .weakPassword)
            #expect(await authError { _ = try await auth.createUser(withEmail: "", password: "secret-1") } == .missingEmail)
            #expect(await authError { _ = try await auth.signIn(withEmail: "taken@example.com", password: "wrong-pass") } == .wrongPassword)
            #expect(await authError { _ = try await auth.signIn(withEmail: "taken@example.com", password: "") } == .wrongPassword)
            #expect(await authError { _ = try await auth.signIn(withEmail: "nobody@example.com", password: "whatever") } == .userNotFound)
            // {"alg":"none"}.{}: no audience.
            #expect(await authError { _ = try await auth.signIn(withCustomToken: "eyJhbGciOiJub25lIn0.e30.") } == .invalidCustomToken)
            #expect(await authError { _ = try await auth.signIn(withCustomToken: "not a token") } == .invalidCustomToken)
            // What an Admin SDK in emulator mode sends: unsigned, which development mode accepts.
            let payload =
                #"{"aud":"https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit","uid":"sdk-custom-user","claims":{"tier":"gold"}}"#
            let encoded = Data(payload.utf8).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            let custom = try await auth.signIn(withCustomToken: "eyJhbGciOiJub25lIn0.\(encoded).")
            #expect(custom.user.uid == "sdk-custom-user")
            #expect(try await custom.user.getIDTokenResult().claims["tier"] as? String == "gold")
            try auth.signOut()
            let bogus = GoogleAuthProvider.credential(withIDToken: "not-a-jwt", accessToken: "")
            #expect(await authError { _ = try await auth.signIn(with: bogus) } == .invalidCredential)
            let unknown = OAuthProvider.credential(providerID: .custom("example.com"), accessToken: "token")
            #expect(await authError { _ = try await auth.signIn(with: unknown) } == .invalidCredential)
            #expect(auth.currentUser == nil)

            // Account exists: an unverified provider e-mail that a password account owns.
            let facebook = FacebookAuthProvider.credential(withAccessToken: try live.sandbox.facebookAccessToken(for: .facebookUser))
            _ = try await auth.createUser(withEmail: "frank@example.com", password: "frank-pass")
            try auth.signOut()
            let exists = try #require(await nsError { _ = try await auth.signIn(with: facebook) })
            #expect(exists.code == AuthErrorCode.accountExistsWithDifferentCredential.rawValue)
            #expect(exists.userInfo[AuthErrorUserInfoEmailKey] as? String == "frank@example.com")
            #expect(exists.userInfo[AuthErrorUserInfoUpdatedCredentialKey] is OAuthCredential)
            #expect(try await auth.fetchSignInMethods(forEmail: "frank@example.com") == ["password"])

            // Linking a provider whose e-mail another account owns.
            let anonymous = try await auth.signInAnonymously().user
            let taken = try #require(await nsError { _ = try await anonymous.link(with: facebook) })
            #expect(taken.code == AuthErrorCode.emailAlreadyInUse.rawValue)
            #expect(
                await authError {
                    _ = try await anonymous.link(with: EmailAuthProvider.credential(withEmail: "taken@example.com", password: "x-pass-1"))
                } == .emailAlreadyInUse)
        }
    }

    @Test("Disabled sign-in methods and guessing limits")
    func configurationErrors() async throws {
        try await withLiveHearth({ configuration in
            configuration.signIn.anonymousEnabled = false
            configuration.abuse.lockout.account.failuresBeforeWait = 2
        }) { live in
            let auth = makeAuth(live)
            #expect(await authError { _ = try await auth.signInAnonymously() } == .adminRestrictedOperation)
            _ = try await auth.createUser(withEmail: "guess@example.com", password: "guess-pass")
            try auth.signOut()
            for _ in 0..<2 {
                #expect(await authError { _ = try await auth.signIn(withEmail: "guess@example.com", password: "nope-nope") } == .wrongPassword)
            }
            #expect(await authError { _ = try await auth.signIn(withEmail: "guess@example.com", password: "guess-pass") } == .tooManyRequests)
        }
        try await withLiveHearth({ configuration in configuration.signIn.passwordEnabled = false }) { live in
            let auth = makeAuth(live)
            #expect(await authError { _ = try await auth.createUser(withEmail: "nopass@example.com", password: "secret-1") } == .operationNotAllowed)
        }
    }
}
