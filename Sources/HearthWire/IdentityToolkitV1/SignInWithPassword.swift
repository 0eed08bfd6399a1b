/// `accounts:signInWithPassword` (legacy `verifyPassword`).
public struct SignInWithPasswordRequest: Codable, Sendable, Equatable {
    public var email: String?
    public var password: String?
    public var tenantId: String?
    public var returnSecureToken: Bool?

    public init(email: String?, password: String?, returnSecureToken: Bool? = true) {
        self.email = email
        self.password = password
        self.returnSecureToken = returnSecureToken
    }
}

public struct SignInWithPasswordResponse: Codable, Sendable, Equatable {
    public var kind = "identitytoolkit#VerifyPasswordResponse"
    public var registered = true
    public var localId: String
    public var email: String
    public var displayName: String
    public var profilePicture: String?
    public var idToken: String?
    public var refreshToken: String?
    public var expiresIn: String?

    public init(
        localId: String, email: String, displayName: String, profilePicture: String?, idToken: String?, refreshToken: String?, expiresIn: String?
    ) {
        self.localId = localId
        self.email = email
        self.displayName = displayName
        self.profilePicture = profilePicture
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
    }
}
