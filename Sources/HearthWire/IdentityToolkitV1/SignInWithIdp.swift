/// `accounts:signInWithIdp` (legacy `verifyAssertion`): sign in or link with a provider credential.
public struct SignInWithIdpRequest: Codable, Sendable, Equatable {
    /// Required; `http://localhost` for credentials the app obtained itself.
    public var requestUri: String?
    /// Form-encoded: `providerId`, `id_token`, `access_token`, `oauth_token_secret`, `nonce`, `user`.
    public var postBody: String?
    /// A credential Hearth handed out earlier (needConfirmation, already-linked), used instead of `postBody`.
    public var pendingToken: String?
    /// Link the identity to this user.
    public var idToken: String?
    public var returnIdpCredential: Bool?
    public var returnSecureToken: Bool?
    /// `false` when re-authenticating: an unknown identity must not create a user.
    public var autoCreate: Bool?
    public var sessionId: String?
    public var tenantId: String?

    public init(
        requestUri: String? = "http://localhost", postBody: String? = nil, pendingToken: String? = nil, idToken: String? = nil,
        returnIdpCredential: Bool? = true, returnSecureToken: Bool? = true, autoCreate: Bool? = nil
    ) {
        self.requestUri = requestUri
        self.postBody = postBody
        self.pendingToken = pendingToken
        self.idToken = idToken
        self.returnIdpCredential = returnIdpCredential
        self.returnSecureToken = returnSecureToken
        self.autoCreate = autoCreate
    }
}

public struct SignInWithIdpResponse: Codable, Sendable, Equatable {
    public var kind = "identitytoolkit#VerifyAssertionResponse"
    public var federatedId: String?
    public var providerId: String?
    public var localId: String?
    public var email: String?
    public var emailVerified: Bool?
    public var displayName: String?
    public var fullName: String?
    public var firstName: String?
    public var lastName: String?
    public var photoUrl: String?
    public var screenName: String?
    /// The provider's profile as JSON text (the client's `additionalUserInfo.profile`).
    public var rawUserInfo: String?
    /// Present (and true) only for a new user.
    public var isNewUser: Bool?
    /// Present (and true) only when another account owns the e-mail; never sent as false.
    public var needConfirmation: Bool?
    public var verifiedProvider: [String]?
    /// `FEDERATED_USER_ID_ALREADY_LINKED` or `EMAIL_EXISTS`, in-band when `returnIdpCredential` was set.
    public var errorMessage: String?
    public var oauthIdToken: String?
    public var oauthAccessToken: String?
    public var oauthTokenSecret: String?
    public var pendingToken: String?
    public var idToken: String?
    public var refreshToken: String?
    public var expiresIn: String?

    public init() {}
}
