/// Identity Toolkit v2 provider configurations, as the Admin SDKs read and write them:
/// `/v2/projects/{project}/defaultSupportedIdpConfigs/{idpId}` (Apple, Microsoft, Twitter, Google,
/// Facebook, GitHub) and `/v2/projects/{project}/oauthIdpConfigs/{oidc.name}` (OpenID Connect).
///
/// A built-in provider's secrets (`clientSecret`, Apple's `privateKey`) are accepted on writes and never sent back; an
/// OpenID Connect provider's `clientSecret` is, as Identity Platform answers it (the Admin SDKs' `OIDCAuthProviderConfig`
/// reads it).
public struct DefaultSupportedIdpConfig: Codable, Sendable, Equatable {
    /// `projects/{project}/defaultSupportedIdpConfigs/{idpId}`.
    public var name: String?
    public var enabled: Bool?
    public var clientId: String?
    public var clientSecret: String?
    public var appleSignInConfig: AppleSignInConfig?
    /// Hearth's extension for `microsoft.com` (Firebase has no such field; its SDKs ignore it).
    public var microsoftSignInConfig: MicrosoftSignInConfig?
    /// Client ids accepted besides `clientId` (Google's iOS and Android clients, Apple's other services IDs,
    /// more Microsoft or Yahoo apps). A Hearth extension named after Identity Toolkit v1's `IdpConfig` field,
    /// the Firebase console's "safelist client IDs from external projects"; the v2 SDKs ignore it.
    public var whitelistedAudiences: [String]?

    public init(
        name: String? = nil, enabled: Bool? = nil, clientId: String? = nil, clientSecret: String? = nil,
        appleSignInConfig: AppleSignInConfig? = nil, microsoftSignInConfig: MicrosoftSignInConfig? = nil,
        whitelistedAudiences: [String]? = nil
    ) {
        self.name = name
        self.enabled = enabled
        self.clientId = clientId
        self.clientSecret = clientSecret
        self.appleSignInConfig = appleSignInConfig
        self.microsoftSignInConfig = microsoftSignInConfig
        self.whitelistedAudiences = whitelistedAudiences
    }
}

/// Microsoft's allowed-tenant rule (a Hearth extension of `defaultSupportedIdpConfigs/microsoft.com`).
public struct MicrosoftSignInConfig: Codable, Sendable, Equatable {
    /// `common`, `organizations`, `consumers`, a tenant GUID, or a tenant's verified domain.
    public var tenant: String?
    /// Tenant GUIDs allowed on top of `tenant`.
    public var allowedTenantIds: [String]?

    public init(tenant: String? = nil, allowedTenantIds: [String]? = nil) {
        self.tenant = tenant
        self.allowedTenantIds = allowedTenantIds
    }
}

/// Sign in with Apple's extra settings.
public struct AppleSignInConfig: Codable, Sendable, Equatable {
    /// The app bundle IDs whose ID tokens are accepted (the services ID is the config's `clientId`).
    public var bundleIds: [String]?
    public var codeFlowConfig: CodeFlowConfig?

    /// What the client secret of Apple's code flow is made from.
    public struct CodeFlowConfig: Codable, Sendable, Equatable {
        public var teamId: String?
        public var keyId: String?
        /// The `.p8` key, PEM. Write-only.
        public var privateKey: String?

        public init(teamId: String? = nil, keyId: String? = nil, privateKey: String? = nil) {
            self.teamId = teamId
            self.keyId = keyId
            self.privateKey = privateKey
        }
    }

    public init(bundleIds: [String]? = nil, codeFlowConfig: CodeFlowConfig? = nil) {
        self.bundleIds = bundleIds
        self.codeFlowConfig = codeFlowConfig
    }
}

/// A generic OpenID Connect provider (`oidc.<name>`).
public struct OAuthIdpConfig: Codable, Sendable, Equatable {
    /// `projects/{project}/oauthIdpConfigs/oidc.{name}`.
    public var name: String?
    public var clientId: String?
    public var issuer: String?
    public var displayName: String?
    public var enabled: Bool?
    public var clientSecret: String?
    public var responseType: ResponseType?
    /// Client ids accepted besides `clientId` (a Hearth extension, as on ``DefaultSupportedIdpConfig``).
    public var whitelistedAudiences: [String]?

    /// Which OAuth response types the browser flow asks for.
    public struct ResponseType: Codable, Sendable, Equatable {
        public var idToken: Bool?
        public var code: Bool?
        public init(idToken: Bool? = nil, code: Bool? = nil) {
            self.idToken = idToken
            self.code = code
        }
    }

    public init(
        name: String? = nil, clientId: String? = nil, issuer: String? = nil, displayName: String? = nil,
        enabled: Bool? = nil, clientSecret: String? = nil, responseType: ResponseType? = nil, whitelistedAudiences: [String]? = nil
    ) {
        self.name = name
        self.clientId = clientId
        self.issuer = issuer
        self.displayName = displayName
        self.enabled = enabled
        self.clientSecret = clientSecret
        self.responseType = responseType
        self.whitelistedAudiences = whitelistedAudiences
    }
}

public struct ListDefaultSupportedIdpConfigsResponse: Codable, Sendable, Equatable {
    public var defaultSupportedIdpConfigs: [DefaultSupportedIdpConfig]?
    public var nextPageToken: String?
    public init(defaultSupportedIdpConfigs: [DefaultSupportedIdpConfig]?, nextPageToken: String? = nil) {
        self.defaultSupportedIdpConfigs = defaultSupportedIdpConfigs
        self.nextPageToken = nextPageToken
    }
}

public struct ListOAuthIdpConfigsResponse: Codable, Sendable, Equatable {
    public var oauthIdpConfigs: [OAuthIdpConfig]?
    public var nextPageToken: String?
    public init(oauthIdpConfigs: [OAuthIdpConfig]?, nextPageToken: String? = nil) {
        self.oauthIdpConfigs = oauthIdpConfigs
        self.nextPageToken = nextPageToken
    }
}
