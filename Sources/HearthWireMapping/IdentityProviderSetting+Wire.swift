import Foundation
import HearthCore
import HearthProviders
import HearthWire

/// The admin API's three collections of identity-provider configs.
public enum IdpConfigCollection: Sendable {
    case defaultSupported, oauth, saml

    public var collection: String {
        switch self {
        case .defaultSupported: "defaultSupportedIdpConfigs"
        case .oauth: "oauthIdpConfigs"
        case .saml: "inboundSamlConfigs"
        }
    }
    /// The query parameter naming the new config on create.
    public var idParameter: String {
        switch self {
        case .defaultSupported: "idpId"
        case .oauth: "oauthIdpConfigId"
        case .saml: "inboundSamlConfigId"
        }
    }

    /// Where the catalogue puts the providers of this kind.
    public var catalogueCollection: ProviderDescription.AdminCollection {
        switch self {
        case .defaultSupported: .defaultSupported
        case .oauth: .oauth
        case .saml: .inboundSaml
        }
    }

    public func owns(_ providerID: String) -> Bool { ProviderCatalogue.describes(providerID, in: catalogueCollection) }

    public func validateID(_ id: String) throws {
        switch self {
        case .defaultSupported:
            guard owns(id) else {
                let known = ProviderCatalogue.builtInProviderIDs.sorted().joined(separator: ", ")
                throw HearthError(.invalidProviderID, detail: "expected one of \(known)")
            }
        case .oauth:
            guard id.range(of: #"^oidc\.[a-z0-9][a-z0-9._-]{0,62}$"#, options: .regularExpression) != nil else {
                throw HearthError(
                    .invalidProviderID, detail: "OIDC provider ids look like oidc.<name>, with lower-case letters, digits, '.', '_' and '-'")
            }
        case .saml:
            guard id.range(of: #"^saml\.[a-z0-9][a-z0-9._-]{0,62}$"#, options: .regularExpression) != nil else {
                throw HearthError(
                    .invalidProviderID, detail: "SAML provider ids look like saml.<name>, with lower-case letters, digits, '.', '_' and '-'")
            }
        }
    }
}

extension IdentityProviderSetting {
    /// Whether an update writes `field`: `mask` names it (or a field within it, or one it is within); with no mask,
    /// whether the body has a value (a masked field absent from the body is cleared).
    static func takes<T>(_ field: String, _ value: T?, mask: [String]?) -> Bool {
        masked(field, by: mask) ?? (value != nil)
    }

    static func masked(_ field: String, by mask: [String]?) -> Bool? {
        mask.map { UpdateMask.covers($0, field) }
    }

    /// The fields built-in and OpenID Connect providers share: on or off, the client, its secret, the other audiences.
    private mutating func applyClient(enabled: Bool?, clientID: String?, clientSecret: String?, audiences: [String]?, mask: [String]?) {
        if Self.takes("enabled", enabled, mask: mask) { self.enabled = enabled ?? false }
        if Self.takes("clientId", clientID, mask: mask) { self.clientID = clientID }
        if Self.takes("clientSecret", clientSecret, mask: mask) { self.clientSecret = clientSecret }
        if Self.takes("whitelistedAudiences", audiences, mask: mask) { additionalClientIDs = audiences }
    }

    /// Copies a built-in provider's config in: its present fields, or with an `updateMask` exactly the masked ones.
    public mutating func apply(_ body: DefaultSupportedIdpConfig, mask: [String]?) {
        applyClient(enabled: body.enabled, clientID: body.clientId, clientSecret: body.clientSecret, audiences: body.whitelistedAudiences, mask: mask)
        // The providers' own sections (`appleSignInConfig`, …), field by field, as their folders declare them.
        ProviderCatalogue.applyAdminSections(JSONValue.object(encoding: body) ?? [:], to: &self) { Self.masked($0, by: mask) }
    }

    /// Copies an OpenID Connect provider's config in.
    public mutating func apply(_ body: OAuthIdpConfig, mask: [String]?) {
        func take<T>(_ field: String, _ value: T?) -> Bool { Self.takes(field, value, mask: mask) }
        applyClient(enabled: body.enabled, clientID: body.clientId, clientSecret: body.clientSecret, audiences: body.whitelistedAudiences, mask: mask)
        if take("issuer", body.issuer) { issuer = body.issuer }
        if take("displayName", body.displayName) { displayName = body.displayName }
        if take("responseType.idToken", body.responseType?.idToken) { responseTypeIDToken = body.responseType?.idToken }
        if take("responseType.code", body.responseType?.code) { responseTypeCode = body.responseType?.code }
    }

    /// Copies a SAML provider's config in.
    public mutating func apply(_ body: InboundSamlConfig, mask: [String]?) {
        func take<T>(_ field: String, _ value: T?) -> Bool { Self.takes(field, value, mask: mask) }
        if take("enabled", body.enabled) { enabled = body.enabled ?? false }
        if take("displayName", body.displayName) { displayName = body.displayName }
        var saml = saml
        if take("idpConfig.idpEntityId", body.idpConfig?.idpEntityId) { saml.idpEntityID = body.idpConfig?.idpEntityId }
        if take("idpConfig.ssoUrl", body.idpConfig?.ssoUrl) { saml.ssoURL = body.idpConfig?.ssoUrl }
        if take("idpConfig.signRequest", body.idpConfig?.signRequest) { saml.signsRequests = body.idpConfig?.signRequest }
        if take("idpConfig.idpCertificates", body.idpConfig?.idpCertificates) {
            saml.idpCertificates = body.idpConfig?.idpCertificates?.map { $0.x509Certificate ?? "" }
        }
        if take("spConfig.spEntityId", body.spConfig?.spEntityId) { saml.spEntityID = body.spConfig?.spEntityId }
        if take("spConfig.callbackUri", body.spConfig?.callbackUri) { saml.callbackURI = body.spConfig?.callbackUri }
        self.saml = saml
    }
}

/// The wire form of a SAML provider, without the SP's private key.
extension InboundSamlConfig {
    public init(_ setting: IdentityProviderSetting, name: String) {
        let saml = setting.saml
        self.init(
            name: name,
            idpConfig: InboundSamlConfig.IdpConfig(
                idpEntityId: saml.idpEntityID, ssoUrl: saml.ssoURL,
                idpCertificates: saml.idpCertificates?.map { InboundSamlConfig.IdpCertificate(x509Certificate: $0) },
                signRequest: saml.signsRequests),
            spConfig: InboundSamlConfig.SpConfig(
                spEntityId: saml.spEntityID, callbackUri: saml.callbackURI,
                spCertificates: saml.spCertificate.map { [InboundSamlConfig.SpCertificate(x509Certificate: $0, expiresAt: saml.spCertificateExpiry)] }
            ),
            displayName: setting.displayName, enabled: setting.enabled)
    }
}

extension DefaultSupportedIdpConfig {
    /// The wire form, without secrets.
    public init(_ setting: IdentityProviderSetting, project: String) {
        var config = DefaultSupportedIdpConfig(
            name: "projects/\(project)/defaultSupportedIdpConfigs/\(setting.providerID)", enabled: setting.enabled, clientId: setting.clientID,
            whitelistedAudiences: setting.additionalClientIDs)
        // The provider's own sections, without their secrets, as its folder answers them.
        let sections = ProviderCatalogue.adminSectionAnswers(for: setting)
        if !sections.isEmpty, var object = JSONValue.object(encoding: config) {
            object.merge(sections) { _, section in section }
            config = (try? JSONDecoder().decode(DefaultSupportedIdpConfig.self, from: Data(JSONValue.object(object).jsonText.utf8))) ?? config
        }
        self = config
    }
}

extension JSONValue {
    /// A wire value as a JSON object.
    static func object(encoding value: some Encodable) -> [String: JSONValue]? {
        guard let data = try? JSONEncoder().encode(value), case .object(let object)? = try? JSONDecoder().decode(JSONValue.self, from: data) else {
            return nil
        }
        return object
    }
}

extension OAuthIdpConfig {
    /// The wire form, with the client secret of the code flow (Identity Platform returns it; the Admin SDKs'
    /// `OIDCAuthProviderConfig.clientSecret` reads it).
    public init(_ setting: IdentityProviderSetting, project: String) {
        let responseType =
            setting.responseTypeIDToken == nil && setting.responseTypeCode == nil
            ? nil : OAuthIdpConfig.ResponseType(idToken: setting.responseTypeIDToken, code: setting.responseTypeCode)
        self.init(
            name: "projects/\(project)/oauthIdpConfigs/\(setting.providerID)", clientId: setting.clientID, issuer: setting.issuer,
            displayName: setting.displayName, enabled: setting.enabled, clientSecret: setting.clientSecret, responseType: responseType,
            whitelistedAudiences: setting.additionalClientIDs)
    }

}
