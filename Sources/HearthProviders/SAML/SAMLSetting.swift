import Foundation
import HearthCore

/// The SAML part of a `saml.<name>` provider's stored setting (``IdentityProviderSetting/providerSpecific``), in
/// the admin API's terms: `idpConfig` and `spConfig`, and the SP key Hearth made for signing AuthnRequests.
public struct SAMLSetting: Sendable, Equatable {
    public var idpEntityID: String?
    public var ssoURL: String?
    public var idpCertificates: [String]?
    public var signsRequests: Bool?
    public var spEntityID: String?
    public var callbackURI: String?
    /// The SP's RSA key, PEM (secret: the row is sealed at rest, and the admin API never answers it).
    public var spSigningKey: String?
    /// The SP key's self-signed certificate, PEM (the admin API's `spConfig.spCertificates`).
    public var spCertificate: String?
    /// When ``spCertificate`` expires, RFC 3339.
    public var spCertificateExpiry: String?

    public init() {}

    /// The text fields by their stored names.
    static var keys: [(key: String, path: WritableKeyPath<SAMLSetting, String?>)] {
        [
            ("idpEntityId", \.idpEntityID), ("ssoUrl", \.ssoURL), ("spEntityId", \.spEntityID), ("callbackUri", \.callbackURI),
            ("spSigningKey", \.spSigningKey), ("spCertificate", \.spCertificate), ("spCertificateExpiry", \.spCertificateExpiry),
        ]
    }
}

extension IdentityProviderSetting {
    /// The SAML settings of a `saml.<name>` provider, kept in ``providerSpecific`` by the names above.
    public var saml: SAMLSetting {
        get {
            var saml = SAMLSetting()
            for (key, path) in SAMLSetting.keys {
                if case .string(let text)? = providerSpecific[key] { saml[keyPath: path] = text }
            }
            if case .array(let values)? = providerSpecific["idpCertificates"] {
                saml.idpCertificates = values.compactMap { if case .string(let text) = $0 { text } else { nil } }
            }
            if case .bool(let flag)? = providerSpecific["signRequest"] { saml.signsRequests = flag }
            return saml
        }
        set {
            for (key, path) in SAMLSetting.keys { providerSpecific[key] = newValue[keyPath: path].map(JSONValue.string) }
            providerSpecific["idpCertificates"] = newValue.idpCertificates.map { .array($0.map(JSONValue.string)) }
            providerSpecific["signRequest"] = newValue.signsRequests.map(JSONValue.bool)
        }
    }
}
