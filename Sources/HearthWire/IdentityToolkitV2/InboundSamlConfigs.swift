/// A SAML 2.0 identity provider (`saml.<name>`), as Identity Toolkit v2's `inboundSamlConfigs` and the Admin SDKs'
/// `SAMLAuthProviderConfig` have it: `/v2/projects/{project}[/tenants/{tenant}]/inboundSamlConfigs/{saml.name}`.
public struct InboundSamlConfig: Codable, Sendable, Equatable {
    /// `projects/{project}[/tenants/{tenant}]/inboundSamlConfigs/saml.{name}`.
    public var name: String?
    public var idpConfig: IdpConfig?
    public var spConfig: SpConfig?
    public var displayName: String?
    public var enabled: Bool?

    /// What the service provider knows of the IdP.
    public struct IdpConfig: Codable, Sendable, Equatable {
        /// The IdP's entity ID: the Issuer of its responses.
        public var idpEntityId: String?
        /// The IdP's single sign-on URL (HTTP-Redirect binding).
        public var ssoUrl: String?
        /// The certificates whose keys may sign the IdP's responses (PEM).
        public var idpCertificates: [IdpCertificate]?
        /// Whether AuthnRequests are signed (with the SP key whose certificate is in `spConfig.spCertificates`).
        public var signRequest: Bool?

        public init(idpEntityId: String? = nil, ssoUrl: String? = nil, idpCertificates: [IdpCertificate]? = nil, signRequest: Bool? = nil) {
            self.idpEntityId = idpEntityId
            self.ssoUrl = ssoUrl
            self.idpCertificates = idpCertificates
            self.signRequest = signRequest
        }
    }

    /// One certificate of the IdP.
    public struct IdpCertificate: Codable, Sendable, Equatable {
        public var x509Certificate: String?
        public init(x509Certificate: String? = nil) { self.x509Certificate = x509Certificate }
    }

    /// What the IdP knows of the service provider (Hearth).
    public struct SpConfig: Codable, Sendable, Equatable {
        /// The SP's entity ID: the AuthnRequest's Issuer and the Audience assertions must name.
        public var spEntityId: String?
        /// The Assertion Consumer Service URL the IdP posts to (Hearth's `/__/auth/handler`).
        public var callbackUri: String?
        /// The SP's certificates (output only): the key that signs AuthnRequests.
        public var spCertificates: [SpCertificate]?

        public init(spEntityId: String? = nil, callbackUri: String? = nil, spCertificates: [SpCertificate]? = nil) {
            self.spEntityId = spEntityId
            self.callbackUri = callbackUri
            self.spCertificates = spCertificates
        }
    }

    /// One certificate of the SP (output only).
    public struct SpCertificate: Codable, Sendable, Equatable {
        public var x509Certificate: String?
        /// RFC 3339.
        public var expiresAt: String?
        public init(x509Certificate: String? = nil, expiresAt: String? = nil) {
            self.x509Certificate = x509Certificate
            self.expiresAt = expiresAt
        }
    }

    public init(
        name: String? = nil, idpConfig: IdpConfig? = nil, spConfig: SpConfig? = nil, displayName: String? = nil, enabled: Bool? = nil
    ) {
        self.name = name
        self.idpConfig = idpConfig
        self.spConfig = spConfig
        self.displayName = displayName
        self.enabled = enabled
    }
}

public struct ListInboundSamlConfigsResponse: Codable, Sendable, Equatable {
    public var inboundSamlConfigs: [InboundSamlConfig]?
    public var nextPageToken: String?
    public init(inboundSamlConfigs: [InboundSamlConfig]?, nextPageToken: String? = nil) {
        self.inboundSamlConfigs = inboundSamlConfigs
        self.nextPageToken = nextPageToken
    }
}
