import CXMLSec
import Foundation

/// An X.509 certificate of the IdP, whose public key verifies its signatures. Several may be configured at once
/// (``SAMLServiceProvider/idpCertificates``), so that the IdP can roll its key over.
///
/// Only the public key counts: the certificate is pinned by configuration, so its validity dates, issuer and
/// extensions are not checked (as Firebase, Okta's and Azure's SPs do), and a certificate a response carries in its
/// own `KeyInfo` is never used.
public struct SAMLCertificate: Sendable, Hashable {
    /// The certificate, DER.
    public let der: [UInt8]

    /// Reads a certificate as Firebase's `idpCertificates[].x509Certificate` holds it: PEM
    /// (`-----BEGIN CERTIFICATE-----`) or its bare base64.
    /// - Throws: ``SAMLError/invalidCertificate(_:)`` when the text is neither, or libxmlsec1 cannot read it.
    public init(_ text: String) throws(SAMLError) {
        guard let der = PEMText.der(text, label: "CERTIFICATE") else { throw .invalidCertificate("not PEM or base64") }
        try self.init(der: der)
    }

    /// A certificate from its DER.
    /// - Throws: ``SAMLError/invalidCertificate(_:)`` when libxmlsec1 cannot read an RSA public key from it.
    public init(der: [UInt8]) throws(SAMLError) {
        try XMLSecurityLibrary.ready()
        self.der = der
        guard let key = publicKey() else {
            throw .invalidCertificate(XMLSecurityLibrary.lastError(or: "not an X.509 certificate"))
        }
        defer { xmlSecKeyDestroy(key) }
        guard cxmlsec_key_is_rsa(key) != 0 else {
            throw .invalidCertificate("the certificate's key is not RSA")
        }
    }

    /// The certificate's public key as a fresh libxmlsec1 key (the caller destroys it, or hands it to a context).
    func publicKey() -> xmlSecKeyPtr? {
        XMLSecurityLibrary.key(der, format: xmlSecKeyDataFormatCertDer)
    }
}
