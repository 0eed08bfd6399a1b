import Crypto
import CryptoExtras
import Foundation
import SwiftASN1
import X509

/// The sandbox SAML IdP's own key (RSA 2048) and the self-signed certificate a service provider pins
/// (`idpCertificates`), made fresh for each sandbox on first use.
struct SandboxSAMLKey: Sendable {
    /// The private key, PKCS #1 PEM, as libxmlsec1 loads it.
    let privateKeyPEM: String
    /// The certificate, PEM.
    let certificatePEM: String
    /// The certificate, DER.
    let certificateDER: [UInt8]

    /// A new key and a certificate for it, valid from an hour before `now` for ten years.
    init(now: Date) throws {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let name = try DistinguishedName {
            OrganizationName("Hearth sandbox")
            CommonName("Hearth sandbox SAML IdP")
        }
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(10 * 365 * 86_400), issuer: name,
            subject: name, signatureAlgorithm: .sha256WithRSAEncryption, extensions: Certificate.Extensions {},
            issuerPrivateKey: Certificate.PrivateKey(key))
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        certificateDER = serializer.serializedBytes
        certificatePEM = try certificate.serializeAsPEM().pemString
        privateKeyPEM = key.pemRepresentation
    }
}
