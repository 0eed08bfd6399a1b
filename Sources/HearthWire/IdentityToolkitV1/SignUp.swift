/// `accounts:signUp` (legacy `signupNewUser`).
public struct SignUpRequest: Codable, Sendable, Equatable {
    public var email: String?
    public var password: String?
    public var displayName: String?
    public var photoUrl: String?
    /// Attach e-mail/password to this user instead of creating one.
    public var idToken: String?
    /// Administrators only, as are the fields below.
    public var localId: String?
    public var phoneNumber: String?
    public var emailVerified: Bool?
    public var disabled: Bool?
    /// The new user's second factors: phone factors (`phoneInfo`, `displayName`, and optionally `mfaEnrollmentId` and
    /// `enrolledAt`).
    public var mfaInfo: [MFAEnrollment]?
    public var targetProjectId: String?
    public var tenantId: String?
    public var returnSecureToken: Bool?

    public init(email: String? = nil, password: String? = nil, displayName: String? = nil, idToken: String? = nil, returnSecureToken: Bool? = true) {
        self.email = email
        self.password = password
        self.displayName = displayName
        self.idToken = idToken
        self.returnSecureToken = returnSecureToken
    }
}

public struct SignUpResponse: Codable, Sendable, Equatable {
    public var kind = "identitytoolkit#SignupNewUserResponse"
    public var localId: String
    public var email: String?
    public var displayName: String?
    public var idToken: String?
    public var refreshToken: String?
    public var expiresIn: String?

    public init(localId: String, email: String?, displayName: String?, idToken: String?, refreshToken: String?, expiresIn: String?) {
        self.localId = localId
        self.email = email
        self.displayName = displayName
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
    }
}
