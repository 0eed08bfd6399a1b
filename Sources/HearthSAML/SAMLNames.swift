/// The namespaces, URIs and algorithm identifiers of SAML 2.0, XML-DSig and XML Encryption that HearthSAML
/// writes or accepts.
enum SAMLNames {
    static let protocolNamespace = "urn:oasis:names:tc:SAML:2.0:protocol"
    static let assertionNamespace = "urn:oasis:names:tc:SAML:2.0:assertion"
    static let signatureNamespace = "http://www.w3.org/2000/09/xmldsig#"
    static let encryptionNamespace = "http://www.w3.org/2001/04/xmlenc#"

    static let success = "urn:oasis:names:tc:SAML:2.0:status:Success"
    static let bearer = "urn:oasis:names:tc:SAML:2.0:cm:bearer"
    static let postBinding = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"
    static let redirectBinding = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect"

    /// The one signature algorithm accepted and used: RSA with SHA-256 (RFC 6931 §2.3.2).
    static let rsaSHA256 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"
    /// The one digest accepted.
    static let sha256 = "http://www.w3.org/2001/04/xmlenc#sha256"
    /// The transforms a Reference may list: enveloped signature, exclusive and inclusive canonicalisation
    /// (without comments).
    static let allowedTransforms: Set<String> = [
        "http://www.w3.org/2000/09/xmldsig#enveloped-signature",
        "http://www.w3.org/2001/10/xml-exc-c14n#",
        "http://www.w3.org/TR/2001/REC-xml-c14n-20010315",
    ]
    /// The SignedInfo canonicalisations accepted.
    static let allowedCanonicalisations: Set<String> = [
        "http://www.w3.org/2001/10/xml-exc-c14n#",
        "http://www.w3.org/TR/2001/REC-xml-c14n-20010315",
    ]
    /// Content encryption an EncryptedAssertion may use: AES-CBC and AES-GCM.
    static let allowedContentEncryption: Set<String> = [
        "http://www.w3.org/2001/04/xmlenc#aes128-cbc",
        "http://www.w3.org/2001/04/xmlenc#aes256-cbc",
        "http://www.w3.org/2009/xmlenc11#aes128-gcm",
        "http://www.w3.org/2009/xmlenc11#aes256-gcm",
    ]
    /// Key transport an EncryptedKey may use: RSA-OAEP only (RSA PKCS #1 v1.5 is refused: Bleichenbacher).
    static let allowedKeyTransport: Set<String> = ["http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p"]
}
