import Crypto
import CryptoExtras
import Foundation
import HearthCore
import SwiftASN1
import X509

/// The SP key of a SAML provider: an RSA 2048 key Hearth makes when the provider is created, which signs its
/// AuthnRequests when `idpConfig.signRequest` is on, and the self-signed certificate the admin API answers as
/// `spConfig.spCertificates` (what the IdP is given to check the signatures). The key stays in the provider's
/// stored setting, sealed at rest with it, and is never answered.
public enum SAMLServiceProviderKey {
    /// How long the certificate is valid: ten years (the IdP pins it; its dates are not what protects it).
    static let certificateLifetime: TimeInterval = 10 * 365 * 86_400

    /// Makes the key and certificate of `setting` unless it has them.
    public static func generate(into setting: inout IdentityProviderSetting, now: Date) throws {
        var saml = setting.saml
        guard saml.spSigningKey == nil || saml.spCertificate == nil else { return }
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let name = try DistinguishedName {
            OrganizationName("Hearth")
            CommonName(String(setting.providerID.prefix(64)))
        }
        let expiry = now.addingTimeInterval(certificateLifetime)
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: expiry, issuer: name, subject: name,
            signatureAlgorithm: .sha256WithRSAEncryption, extensions: Certificate.Extensions {},
            issuerPrivateKey: Certificate.PrivateKey(key))
        saml.spSigningKey = key.pemRepresentation
        saml.spCertificate = try certificate.serializeAsPEM().pemString
        saml.spCertificateExpiry = ISO8601DateFormatter().string(from: expiry)
        setting.saml = saml
    }
}
