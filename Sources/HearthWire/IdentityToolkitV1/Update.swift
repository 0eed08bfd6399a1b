/// `accounts:update` (legacy `setAccountInfo`).
public struct UpdateRequest: Codable, Sendable, Equatable {
    public var idToken: String?
    public var localId: String?
    public var oobCode: String?
    public var email: String?
    public var password: String?
    public var displayName: String?
    public var photoUrl: String?
    public var deleteAttribute: [WireEnum<UserAttributeNames>]?
    public var deleteProvider: [String]?
    /// The credential ids (base64url) of passkeys to remove: the user's own with `idToken`, any account's for an
    /// administrator with `localId`.
    public var deletePasskey: [String]?
    public var customAttributes: String?
    public var disableUser: Bool?
    /// Seconds since 1970; tokens of sign-ins before it stop working (administrators only, as are the
    /// fields below).
    public var validSince: WireInt64?
    public var phoneNumber: String?
    public var emailVerified: Bool?
    public var linkProviderUserInfo: ProviderUserInfo?
    /// Milliseconds since 1970.
    public var createdAt: WireInt64?
    public var lastLoginAt: WireInt64?
    public var targetProjectId: String?
    public var tenantId: String?
    public var returnSecureToken: Bool?
    /// Administrators only: the account's second factors, replacing the enrolled ones (`enrollments` empty or absent
    /// removes all).
    public var mfa: MFAUpdate?

    public struct MFAUpdate: Codable, Sendable, Equatable {
        public var enrollments: [MFAEnrollment]?

        public init(enrollments: [MFAEnrollment]?) { self.enrollments = enrollments }
    }

    public init(idToken: String?) { self.idToken = idToken }
}

public struct UpdateResponse: Codable, Sendable, Equatable {
    public var kind = "identitytoolkit#SetAccountInfoResponse"
    public var localId: String
    public var email: String?
    public var emailVerified: Bool?
    public var displayName: String?
    public var photoUrl: String?
    /// The address an e-mail change waits to move to (`VERIFY_AND_CHANGE_EMAIL`).
    public var newEmail: String?
    public var providerUserInfo: [ProviderUserInfo]?
    public var passwordHash: String?
    public var idToken: String?
    public var refreshToken: String?
    public var expiresIn: String?

    public init(localId: String) { self.localId = localId }
}
