/// `accounts:sendVerificationCode` (legacy `sendVerificationCode`): sends an SMS code to `phoneNumber`. The app
/// verification proofs are Firebase's fields; the server checks the one its configuration asks for.
public struct SendVerificationCodeRequest: Codable, Sendable, Equatable {
    public var phoneNumber: String?
    public var recaptchaToken: String?
    public var captchaResponse: String?
    public var clientType: String?
    public var recaptchaVersion: String?
    public var playIntegrityToken: String?
    public var safetyNetToken: String?
    public var iosReceipt: String?
    public var iosSecret: String?
    public var tenantId: String?

    public init(phoneNumber: String?, recaptchaToken: String? = nil) {
        self.phoneNumber = phoneNumber
        self.recaptchaToken = recaptchaToken
    }
}

/// `GET /v1/recaptchaParams` (legacy `getRecaptchaParam`): what a client needs before `sendVerificationCode`. Firebase
/// answers the reCAPTCHA site key; Hearth also the site key of hCaptcha or Turnstile, or the proof of work it asks for
/// (`hearthProofOfWork`, which Firebase's clients ignore).
public struct GetRecaptchaParamResponse: Codable, Sendable, Equatable {
    public struct ProofOfWork: Codable, Sendable, Equatable {
        /// Leading zero bits the proof's SHA-256 must have.
        public var difficulty: Int
        /// `hearth-pow.v1`: `recaptchaToken` is `hearth-pow.v1.<unix seconds>.<nonce>` with
        /// `SHA-256("hearth-pow.v1.<project id>.<phone number>.<unix seconds>.<nonce>")` starting with that many zero bits.
        public var format: String

        public init(difficulty: Int, format: String = "hearth-pow.v1") {
            self.difficulty = difficulty
            self.format = format
        }
    }

    public var kind: String
    public var recaptchaSiteKey: String?
    public var hearthProofOfWork: ProofOfWork?

    public init(recaptchaSiteKey: String? = nil, hearthProofOfWork: ProofOfWork? = nil) {
        self.kind = "identitytoolkit#GetRecaptchaParamResponse"
        self.recaptchaSiteKey = recaptchaSiteKey
        self.hearthProofOfWork = hearthProofOfWork
    }
}

public struct SendVerificationCodeResponse: Codable, Sendable, Equatable {
    /// The session the code belongs to: given back with the code to `signInWithPhoneNumber`.
    public var sessionInfo: String

    public init(sessionInfo: String) { self.sessionInfo = sessionInfo }
}

/// `accounts:signInWithPhoneNumber` (legacy `verifyPhoneNumber`): `sessionInfo` + `code`, or `phoneNumber` +
/// `temporaryProof`; with `idToken` the number is linked to that account; `operation: "REAUTH"` signs in only to an
/// existing account.
public struct SignInWithPhoneNumberRequest: Codable, Sendable, Equatable {
    public var sessionInfo: String?
    public var code: String?
    public var phoneNumber: String?
    public var temporaryProof: String?
    public var idToken: String?
    /// `SIGN_UP_OR_IN` (the default), `REAUTH`, or `LINK` and `UPDATE` (with `idToken`).
    public var operation: String?
    public var tenantId: String?

    public init(
        sessionInfo: String? = nil, code: String? = nil, phoneNumber: String? = nil, temporaryProof: String? = nil, idToken: String? = nil,
        operation: String? = nil
    ) {
        self.sessionInfo = sessionInfo
        self.code = code
        self.phoneNumber = phoneNumber
        self.temporaryProof = temporaryProof
        self.idToken = idToken
        self.operation = operation
    }
}

/// A sign-in (`idToken`, `refreshToken`, `expiresIn`, `localId`, `isNewUser`, `phoneNumber`), or, when linking found
/// the number on another account, only `phoneNumber`, `temporaryProof` and `temporaryProofExpiresIn` (clients raise
/// credential-already-in-use with a credential made of the proof).
public struct SignInWithPhoneNumberResponse: Codable, Sendable, Equatable {
    public var idToken: String?
    public var refreshToken: String?
    public var expiresIn: String?
    public var localId: String?
    public var isNewUser: Bool?
    public var phoneNumber: String?
    public var temporaryProof: String?
    public var temporaryProofExpiresIn: String?

    public init(
        idToken: String? = nil, refreshToken: String? = nil, expiresIn: String? = nil, localId: String? = nil, isNewUser: Bool? = nil,
        phoneNumber: String?, temporaryProof: String? = nil, temporaryProofExpiresIn: String? = nil
    ) {
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
        self.localId = localId
        self.isNewUser = isNewUser
        self.phoneNumber = phoneNumber
        self.temporaryProof = temporaryProof
        self.temporaryProofExpiresIn = temporaryProofExpiresIn
    }
}
