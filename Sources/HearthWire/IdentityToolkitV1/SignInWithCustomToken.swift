/// `accounts:signInWithCustomToken` (legacy `verifyCustomToken`): a token a backend minted for a uid.
public struct SignInWithCustomTokenRequest: Codable, Sendable, Equatable {
    public var token: String?
    public var returnSecureToken: Bool?
    public var tenantId: String?

    public init(token: String?, returnSecureToken: Bool? = true) {
        self.token = token
        self.returnSecureToken = returnSecureToken
    }
}

public struct SignInWithCustomTokenResponse: Codable, Sendable, Equatable {
    public var kind = "identitytoolkit#VerifyCustomTokenResponse"
    public var isNewUser: Bool
    public var idToken: String?
    public var refreshToken: String?
    public var expiresIn: String?

    public init(isNewUser: Bool, idToken: String?, refreshToken: String?, expiresIn: String?) {
        self.isNewUser = isNewUser
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
    }
}
