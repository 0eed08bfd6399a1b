import Foundation

extension ProvidersConfiguration {
    /// One SAML 2.0 identity provider (`saml.<name>`), as an administrator stored it through the admin API's
    /// `inboundSamlConfigs`: what the IdP is (`idpConfig`) and what Hearth is to it (`spConfig`).
    public struct SAML: Sendable, Equatable, CustomStringConvertible {
        public var enabled: Bool
        /// `idpConfig.idpEntityId`: the Issuer of the IdP's responses.
        public var idpEntityID: String
        /// `idpConfig.ssoUrl`: where AuthnRequests go (HTTP-Redirect binding).
        public var ssoURL: String
        /// `idpConfig.idpCertificates[].x509Certificate`: PEM, any one of them may sign.
        public var idpCertificates: [String]
        /// `idpConfig.signRequest`: AuthnRequests signed with ``spSigningKey``.
        public var signsRequests: Bool
        /// `spConfig.spEntityId`: the Audience assertions must name.
        public var spEntityID: String
        /// `spConfig.callbackUri`: the Assertion Consumer Service URL; `nil`: Hearth's redirect handler.
        public var callbackURI: String?
        /// The SP key that signs AuthnRequests, PEM (made by Hearth when the config is created). Never printed.
        public var spSigningKey: ProviderSecret = ""
        public var displayName: String?

        public init(
            enabled: Bool = true, idpEntityID: String, ssoURL: String, idpCertificates: [String], signsRequests: Bool = false,
            spEntityID: String, callbackURI: String? = nil
        ) {
            self.enabled = enabled
            self.idpEntityID = idpEntityID
            self.ssoURL = ssoURL
            self.idpCertificates = idpCertificates
            self.signsRequests = signsRequests
            self.spEntityID = spEntityID
            self.callbackURI = callbackURI
        }

        /// Switched on, with an IdP entity ID, an SSO URL, a certificate and an SP entity ID.
        public var isUsable: Bool {
            enabled && !idpEntityID.isEmpty && !ssoURL.isEmpty && !idpCertificates.isEmpty && !spEntityID.isEmpty
                && (!signsRequests || !spSigningKey.isEmpty)
        }

        public var description: String {
            "SAML(enabled: \(enabled), idpEntityID: \(idpEntityID), ssoURL: \(ssoURL), idpCertificates: \(idpCertificates.count), "
                + "signsRequests: \(signsRequests), spEntityID: \(spEntityID), callbackURI: \(callbackURI ?? "<handler>"), "
                + "spSigningKey: \(spSigningKey))"
        }
    }
}
