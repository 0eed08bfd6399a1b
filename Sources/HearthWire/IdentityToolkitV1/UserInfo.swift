/// A user as `accounts:lookup` returns it (`GoogleCloudIdentitytoolkitV1UserInfo`).
public struct UserInfo: Codable, Sendable, Equatable {
    public var localId: String
    public var email: String?
    public var emailVerified: Bool?
    public var displayName: String?
    public var photoUrl: String?
    public var phoneNumber: String?
    public var disabled: Bool?
    public var customAttributes: String?
    public var customAuth: Bool?
    /// The user has signed in with an e-mail link.
    public var emailLinkSignin: Bool?
    public var providerUserInfo: [ProviderUserInfo]?
    /// Always the redacted marker (`UkVEQUNURUQ=`) when the user has a password.
    public var passwordHash: String?
    /// The salt of an imported hash (base64), in `accounts:batchCreate`.
    public var salt: String?
    public var passwordUpdatedAt: Double?
    /// Seconds since 1970.
    public var validSince: WireInt64?
    /// Milliseconds since 1970.
    public var createdAt: WireInt64?
    public var lastLoginAt: WireInt64?
    public var lastRefreshAt: String?
    /// The enrolled second factors (none: absent).
    public var mfaInfo: [MFAEnrollment]?
    /// The tenant of a tenant's user (absent for the project's own), as Identity Platform answers.
    public var tenantId: String?

    public init(localId: String) { self.localId = localId }
}

/// One linked provider of a user.
public struct ProviderUserInfo: Codable, Sendable, Equatable {
    public var providerId: String
    public var rawId: String?
    public var federatedId: String?
    public var email: String?
    public var displayName: String?
    public var photoUrl: String?
    public var phoneNumber: String?
    public var screenName: String?

    public init(
        providerId: String, rawId: String? = nil, federatedId: String? = nil, email: String? = nil,
        displayName: String? = nil, photoUrl: String? = nil, phoneNumber: String? = nil, screenName: String? = nil
    ) {
        self.providerId = providerId
        self.rawId = rawId
        self.federatedId = federatedId
        self.email = email
        self.displayName = displayName
        self.photoUrl = photoUrl
        self.phoneNumber = phoneNumber
        self.screenName = screenName
    }
}
