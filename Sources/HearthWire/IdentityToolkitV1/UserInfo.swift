/// A user as `accounts:lookup` returns it (`GoogleCloudIdentitytoolkitV1UserInfo`).
///
/// Decoding reads a missing `localId` as empty, so that an import (`accounts:batchCreate`) can report that user alone
/// rather than refuse the whole batch.
public struct UserInfo: Codable, Sendable, Equatable {
    public var localId: String
    public var email: String?
    /// The first e-mail of an account whose e-mail changed since.
    public var initialEmail: String?
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
    /// RFC 3339: when an ID token was last handed to the user (a sign-in or a refresh).
    public var lastRefreshAt: String?
    /// The enrolled second factors (none: absent).
    public var mfaInfo: [MFAEnrollment]?
    /// The account's passkeys (none: absent). Imports ignore it: a passkey's public key is not in it.
    public var passkeyInfo: [PasskeyInfo]?
    /// The user's Twitter handle, from a `twitter.com` link (`screen_name`).
    public var screenName: String?
    /// Imports only: a password in the clear, hashed by the server (`accounts:batchCreate`).
    public var rawPassword: String?
    /// The tenant of a tenant's user (absent for the project's own), as Identity Platform answers.
    public var tenantId: String?

    public init(localId: String) { self.localId = localId }

    enum CodingKeys: String, CodingKey {
        case localId, email, initialEmail, emailVerified, displayName, photoUrl, phoneNumber, disabled, customAttributes, customAuth
        case emailLinkSignin, providerUserInfo, passwordHash, salt, passwordUpdatedAt, validSince, createdAt, lastLoginAt
        case lastRefreshAt, mfaInfo, passkeyInfo, screenName, rawPassword, tenantId
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        localId = try container.decodeIfPresent(String.self, forKey: .localId) ?? ""
        email = try container.decodeIfPresent(String.self, forKey: .email)
        initialEmail = try container.decodeIfPresent(String.self, forKey: .initialEmail)
        emailVerified = try container.decodeIfPresent(Bool.self, forKey: .emailVerified)
        displayName = try container.decodeIfPresent(String.self, forKey: .displayName)
        photoUrl = try container.decodeIfPresent(String.self, forKey: .photoUrl)
        phoneNumber = try container.decodeIfPresent(String.self, forKey: .phoneNumber)
        disabled = try container.decodeIfPresent(Bool.self, forKey: .disabled)
        customAttributes = try container.decodeIfPresent(String.self, forKey: .customAttributes)
        customAuth = try container.decodeIfPresent(Bool.self, forKey: .customAuth)
        emailLinkSignin = try container.decodeIfPresent(Bool.self, forKey: .emailLinkSignin)
        providerUserInfo = try container.decodeIfPresent([ProviderUserInfo].self, forKey: .providerUserInfo)
        passwordHash = try container.decodeIfPresent(String.self, forKey: .passwordHash)
        salt = try container.decodeIfPresent(String.self, forKey: .salt)
        passwordUpdatedAt = try container.decodeIfPresent(Double.self, forKey: .passwordUpdatedAt)
        validSince = try container.decodeIfPresent(WireInt64.self, forKey: .validSince)
        createdAt = try container.decodeIfPresent(WireInt64.self, forKey: .createdAt)
        lastLoginAt = try container.decodeIfPresent(WireInt64.self, forKey: .lastLoginAt)
        lastRefreshAt = try container.decodeIfPresent(String.self, forKey: .lastRefreshAt)
        mfaInfo = try container.decodeIfPresent([MFAEnrollment].self, forKey: .mfaInfo)
        passkeyInfo = try container.decodeIfPresent([PasskeyInfo].self, forKey: .passkeyInfo)
        screenName = try container.decodeIfPresent(String.self, forKey: .screenName)
        rawPassword = try container.decodeIfPresent(String.self, forKey: .rawPassword)
        tenantId = try container.decodeIfPresent(String.self, forKey: .tenantId)
    }
}

/// One linked provider of a user.
///
/// Decoding reads a missing `providerId` as empty, which the server answers with its own error
/// (`MISSING_PROVIDER_ID`, or an import's per-user error) rather than a malformed request.
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

    enum CodingKeys: String, CodingKey {
        case providerId, rawId, federatedId, email, displayName, photoUrl, phoneNumber, screenName
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        providerId = try container.decodeIfPresent(String.self, forKey: .providerId) ?? ""
        rawId = try container.decodeIfPresent(String.self, forKey: .rawId)
        federatedId = try container.decodeIfPresent(String.self, forKey: .federatedId)
        email = try container.decodeIfPresent(String.self, forKey: .email)
        displayName = try container.decodeIfPresent(String.self, forKey: .displayName)
        photoUrl = try container.decodeIfPresent(String.self, forKey: .photoUrl)
        phoneNumber = try container.decodeIfPresent(String.self, forKey: .phoneNumber)
        screenName = try container.decodeIfPresent(String.self, forKey: .screenName)
    }
}
