// Identity Platform's multi-factor API (`/v2/accounts/mfaEnrollment:*`, `/v2/accounts/mfaSignIn:*`) and the
// `mfaInfo` of accounts and of a sign-in that needs a second factor. Field names are Identity Toolkit's; the
// recovery-code fields are a Hearth extension (Firebase's clients never send them and ignore them in answers).

/// One enrolled second factor, as `accounts:lookup`, the admin API and a sign-in that needs a second factor show it.
/// Exactly one of ``phoneInfo`` and ``totpInfo`` is set.
public struct MFAEnrollment: Codable, Sendable, Equatable {
    public var mfaEnrollmentId: String?
    public var displayName: String?
    /// RFC 3339 (`2026-11-27T10:00:00.000Z`).
    public var enrolledAt: String?
    /// The factor's phone number: E.164 in lookups, masked (`+*******1234`) in a sign-in's `mfaInfo`.
    public var phoneInfo: String?
    /// Present (empty) for a TOTP factor.
    public var totpInfo: TOTPInfo?
    /// Admin writes may also name the number here; Hearth takes it as ``phoneInfo``.
    public var unobfuscatedPhoneInfo: String?

    public struct TOTPInfo: Codable, Sendable, Equatable {
        public init() {}
    }

    public init(
        mfaEnrollmentId: String? = nil, displayName: String? = nil, enrolledAt: String? = nil, phoneInfo: String? = nil,
        totpInfo: TOTPInfo? = nil
    ) {
        self.mfaEnrollmentId = mfaEnrollmentId
        self.displayName = displayName
        self.enrolledAt = enrolledAt
        self.phoneInfo = phoneInfo
        self.totpInfo = totpInfo
    }
}

/// What a phone second factor's code is sent with: app verification as `accounts:sendVerificationCode` takes it.
public struct MFAPhoneRequestInfo: Codable, Sendable, Equatable {
    public var phoneNumber: String?
    public var recaptchaToken: String?
    public var captchaResponse: String?
    public var clientType: String?
    public var recaptchaVersion: String?
    public var playIntegrityToken: String?
    public var safetyNetToken: String?
    public var iosReceipt: String?
    public var iosSecret: String?

    public init(phoneNumber: String? = nil, recaptchaToken: String? = nil) {
        self.phoneNumber = phoneNumber
        self.recaptchaToken = recaptchaToken
    }
}

/// A code sent by SMS, given back: the `sessionInfo` of the start call and the code.
public struct MFAPhoneVerificationInfo: Codable, Sendable, Equatable {
    public var sessionInfo: String?
    public var code: String?

    public init(sessionInfo: String?, code: String?) {
        self.sessionInfo = sessionInfo
        self.code = code
    }
}

/// A code of an authenticator app: with the enrolment's `sessionInfo` when enrolling; alone (beside the request's
/// `mfaEnrollmentId`) when signing in.
public struct MFATOTPVerificationInfo: Codable, Sendable, Equatable {
    public var sessionInfo: String?
    public var verificationCode: String?

    public init(sessionInfo: String? = nil, verificationCode: String?) {
        self.sessionInfo = sessionInfo
        self.verificationCode = verificationCode
    }
}

/// Hearth extension: one of the account's recovery codes, in place of a second factor.
public struct MFARecoveryCodeVerificationInfo: Codable, Sendable, Equatable {
    public var recoveryCode: String?

    public init(recoveryCode: String?) { self.recoveryCode = recoveryCode }
}

// MARK: - Enrolment

/// `POST /v2/accounts/mfaEnrollment:start`.
public struct StartMFAEnrollmentRequest: Codable, Sendable, Equatable {
    public var idToken: String?
    public var phoneEnrollmentInfo: MFAPhoneRequestInfo?
    public var totpEnrollmentInfo: TOTPEnrollmentInfo?
    public var tenantId: String?

    public struct TOTPEnrollmentInfo: Codable, Sendable, Equatable {
        public init() {}
    }

    public init(idToken: String?, phoneEnrollmentInfo: MFAPhoneRequestInfo? = nil, totpEnrollmentInfo: TOTPEnrollmentInfo? = nil) {
        self.idToken = idToken
        self.phoneEnrollmentInfo = phoneEnrollmentInfo
        self.totpEnrollmentInfo = totpEnrollmentInfo
    }
}

public struct StartMFAEnrollmentResponse: Codable, Sendable, Equatable {
    public var phoneSessionInfo: PhoneSessionInfo?
    public var totpSessionInfo: TOTPSessionInfo?

    public struct PhoneSessionInfo: Codable, Sendable, Equatable {
        public var sessionInfo: String

        public init(sessionInfo: String) { self.sessionInfo = sessionInfo }
    }

    /// The secret an authenticator app is given, and the enrolment's session.
    public struct TOTPSessionInfo: Codable, Sendable, Equatable {
        /// Base32 (RFC 4648, no padding).
        public var sharedSecretKey: String
        public var verificationCodeLength: Int
        /// `SHA1`.
        public var hashingAlgorithm: String
        public var periodSec: Int
        public var sessionInfo: String
        /// RFC 3339: until when `mfaEnrollment:finalize` takes the session.
        public var finalizeEnrollmentTime: String

        public init(
            sharedSecretKey: String, verificationCodeLength: Int, hashingAlgorithm: String, periodSec: Int, sessionInfo: String,
            finalizeEnrollmentTime: String
        ) {
            self.sharedSecretKey = sharedSecretKey
            self.verificationCodeLength = verificationCodeLength
            self.hashingAlgorithm = hashingAlgorithm
            self.periodSec = periodSec
            self.sessionInfo = sessionInfo
            self.finalizeEnrollmentTime = finalizeEnrollmentTime
        }
    }

    public init(phoneSessionInfo: PhoneSessionInfo? = nil, totpSessionInfo: TOTPSessionInfo? = nil) {
        self.phoneSessionInfo = phoneSessionInfo
        self.totpSessionInfo = totpSessionInfo
    }
}

/// `POST /v2/accounts/mfaEnrollment:finalize`.
public struct FinalizeMFAEnrollmentRequest: Codable, Sendable, Equatable {
    public var idToken: String?
    public var displayName: String?
    public var phoneVerificationInfo: MFAPhoneVerificationInfo?
    public var totpVerificationInfo: MFATOTPVerificationInfo?
    public var tenantId: String?

    public init(
        idToken: String?, displayName: String? = nil, phoneVerificationInfo: MFAPhoneVerificationInfo? = nil,
        totpVerificationInfo: MFATOTPVerificationInfo? = nil
    ) {
        self.idToken = idToken
        self.displayName = displayName
        self.phoneVerificationInfo = phoneVerificationInfo
        self.totpVerificationInfo = totpVerificationInfo
    }
}

/// The new tokens of `mfaEnrollment:finalize`, `mfaEnrollment:withdraw` and `mfaSignIn:finalize`.
public struct MFATokensResponse: Codable, Sendable, Equatable {
    public var idToken: String
    public var refreshToken: String

    public init(idToken: String, refreshToken: String) {
        self.idToken = idToken
        self.refreshToken = refreshToken
    }
}

/// `POST /v2/accounts/mfaEnrollment:withdraw`.
public struct WithdrawMFARequest: Codable, Sendable, Equatable {
    public var idToken: String?
    public var mfaEnrollmentId: String?
    public var tenantId: String?

    public init(idToken: String?, mfaEnrollmentId: String?) {
        self.idToken = idToken
        self.mfaEnrollmentId = mfaEnrollmentId
    }
}

// MARK: - Sign-in

/// What a first-factor sign-in of an account with second factors answers instead of tokens (`signInWithPassword`,
/// `signInWithIdp`, `signInWithEmailLink`, `signInWithPhoneNumber`, `signInWithCustomToken`): the pending credential
/// that `mfaSignIn:start`/`finalize` take, and the factors to choose from, phone numbers masked.
public struct MFARequiredResponse: Codable, Sendable, Equatable {
    public var localId: String
    public var email: String?
    public var mfaPendingCredential: String
    public var mfaInfo: [MFAEnrollment]

    public init(localId: String, email: String?, mfaPendingCredential: String, mfaInfo: [MFAEnrollment]) {
        self.localId = localId
        self.email = email
        self.mfaPendingCredential = mfaPendingCredential
        self.mfaInfo = mfaInfo
    }
}

/// `POST /v2/accounts/mfaSignIn:start`: sends the code of a phone factor.
public struct StartMFASignInRequest: Codable, Sendable, Equatable {
    public var mfaPendingCredential: String?
    public var mfaEnrollmentId: String?
    public var phoneSignInInfo: MFAPhoneRequestInfo?
    public var tenantId: String?

    public init(mfaPendingCredential: String?, mfaEnrollmentId: String?, phoneSignInInfo: MFAPhoneRequestInfo? = nil) {
        self.mfaPendingCredential = mfaPendingCredential
        self.mfaEnrollmentId = mfaEnrollmentId
        self.phoneSignInInfo = phoneSignInInfo
    }
}

public struct StartMFASignInResponse: Codable, Sendable, Equatable {
    public var phoneResponseInfo: PhoneResponseInfo

    public struct PhoneResponseInfo: Codable, Sendable, Equatable {
        public var sessionInfo: String

        public init(sessionInfo: String) { self.sessionInfo = sessionInfo }
    }

    public init(sessionInfo: String) { phoneResponseInfo = .init(sessionInfo: sessionInfo) }
}

/// `POST /v2/accounts/mfaSignIn:finalize`: the pending credential and one second factor.
public struct FinalizeMFASignInRequest: Codable, Sendable, Equatable {
    public var mfaPendingCredential: String?
    /// The TOTP factor's id (a phone factor is known by its `sessionInfo`).
    public var mfaEnrollmentId: String?
    public var phoneVerificationInfo: MFAPhoneVerificationInfo?
    public var totpVerificationInfo: MFATOTPVerificationInfo?
    /// Hearth extension.
    public var recoveryCodeVerificationInfo: MFARecoveryCodeVerificationInfo?
    public var tenantId: String?

    public init(
        mfaPendingCredential: String?, mfaEnrollmentId: String? = nil, phoneVerificationInfo: MFAPhoneVerificationInfo? = nil,
        totpVerificationInfo: MFATOTPVerificationInfo? = nil, recoveryCodeVerificationInfo: MFARecoveryCodeVerificationInfo? = nil
    ) {
        self.mfaPendingCredential = mfaPendingCredential
        self.mfaEnrollmentId = mfaEnrollmentId
        self.phoneVerificationInfo = phoneVerificationInfo
        self.totpVerificationInfo = totpVerificationInfo
        self.recoveryCodeVerificationInfo = recoveryCodeVerificationInfo
    }
}

// MARK: - Recovery codes (Hearth extension)

/// `POST /v2/accounts/mfaRecoveryCodes:generate`: a new set of recovery codes for the ID token's account.
public struct GenerateRecoveryCodesRequest: Codable, Sendable, Equatable {
    public var idToken: String?

    public init(idToken: String?) { self.idToken = idToken }
}

/// The codes, shown this once (`XXXX-XXXX-XXXX`).
public struct GenerateRecoveryCodesResponse: Codable, Sendable, Equatable {
    public var recoveryCodes: [String]

    public init(recoveryCodes: [String]) { self.recoveryCodes = recoveryCodes }
}
