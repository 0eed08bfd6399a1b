import CXMLSec
import Foundation

/// An RSA private key of the service provider: the one that signs AuthnRequests
/// (``SAMLServiceProvider/signingKey``), or the one EncryptedAssertions are encrypted to
/// (``SAMLServiceProvider/decryptionKey``).
public struct SAMLPrivateKey: Sendable, Hashable {
    /// The key as given, PEM.
    let pem: String

    /// Reads an RSA private key, PEM: PKCS #1 (`BEGIN RSA PRIVATE KEY`) or unencrypted PKCS #8 (`BEGIN PRIVATE KEY`).
    /// - Throws: ``SAMLError/invalidPrivateKey(_:)`` when libxmlsec1 cannot read an RSA private key from it.
    public init(pem: String) throws(SAMLError) {
        try XMLSecurityLibrary.ready()
        self.pem = pem
        XMLSecurityLibrary.clearError()
        guard let key = key() else { throw .invalidPrivateKey(XMLSecurityLibrary.lastError(or: "not a PEM private key")) }
        defer { xmlSecKeyDestroy(key) }
        guard cxmlsec_key_is_rsa(key) != 0, cxmlsec_key_is_private(key) != 0 else {
            throw .invalidPrivateKey("not an RSA private key")
        }
    }

    /// The key as a fresh libxmlsec1 key (the caller destroys it, or hands it to a context).
    func key() -> xmlSecKeyPtr? {
        XMLSecurityLibrary.key(Array(pem.utf8), format: xmlSecKeyDataFormatPem)
    }

    // The PEM is a secret: never printed.
    public static func == (lhs: SAMLPrivateKey, rhs: SAMLPrivateKey) -> Bool { lhs.pem == rhs.pem }
    public func hash(into hasher: inout Hasher) { hasher.combine(pem) }
}

extension SAMLPrivateKey: CustomStringConvertible {
    /// `SAMLPrivateKey(redacted)`: the key never reaches a log.
    public var description: String { "SAMLPrivateKey(redacted)" }
}
