/// An Identity Platform tenant (`/v2/projects/{project}/tenants/{tenant}`): its body when created or patched, and
/// the answer of every tenant call.
public struct TenantResource: Codable, Sendable, Equatable {
    /// `projects/{project}/tenants/{tenant}`.
    public var name: String?
    public var tenantId: String?
    /// 4 to 20 characters, a letter first, then letters, digits and hyphens.
    public var displayName: String?
    public var allowPasswordSignup: Bool?
    public var enableEmailLinkSignin: Bool?
    public var enableAnonymousUser: Bool?
    /// Nobody signs in or up while set.
    public var disableAuth: Bool?
    public var mfaConfig: MultiFactorAuthConfig?
    /// Test phone numbers (E.164) and their fixed codes.
    public var testPhoneNumbers: [String: String]?
    public var smsRegionConfig: SmsRegionConfig?
    public var emailPrivacyConfig: EmailPrivacyConfig?
    /// The relying party of the tenant's passkeys.
    public var passkeyConfig: PasskeyConfig?

    public init(
        name: String? = nil, tenantId: String? = nil, displayName: String? = nil, allowPasswordSignup: Bool? = nil,
        enableEmailLinkSignin: Bool? = nil, enableAnonymousUser: Bool? = nil, disableAuth: Bool? = nil,
        mfaConfig: MultiFactorAuthConfig? = nil, testPhoneNumbers: [String: String]? = nil, smsRegionConfig: SmsRegionConfig? = nil,
        emailPrivacyConfig: EmailPrivacyConfig? = nil
    ) {
        self.name = name
        self.tenantId = tenantId
        self.displayName = displayName
        self.allowPasswordSignup = allowPasswordSignup
        self.enableEmailLinkSignin = enableEmailLinkSignin
        self.enableAnonymousUser = enableAnonymousUser
        self.disableAuth = disableAuth
        self.mfaConfig = mfaConfig
        self.testPhoneNumbers = testPhoneNumbers
        self.smsRegionConfig = smsRegionConfig
        self.emailPrivacyConfig = emailPrivacyConfig
    }
}

/// `GET /v2/projects/{project}/tenants`: one page of tenants in id order.
public struct ListTenantsResponse: Codable, Sendable, Equatable {
    public var tenants: [TenantResource]?
    public var nextPageToken: String?

    public init(tenants: [TenantResource]?, nextPageToken: String?) {
        self.tenants = tenants
        self.nextPageToken = nextPageToken
    }
}
