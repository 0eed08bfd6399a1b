import CXMLSec
import CXMLSecSupport
import Foundation

/// Builds and signs the sandbox SAML IdP's Responses with libxmlsec1: enveloped XML-DSig signatures, exclusive
/// canonicalisation, RSA-SHA256 over SHA-256 digests, the certificate in KeyInfo, as Okta, Entra ID and ADFS sign.
struct SandboxSAMLSigner {
    let key: SandboxSAMLKey

    /// What a response says.
    struct Content {
        let responseID: String
        let assertionID: String
        let issuer: String
        let destination: String
        let audience: String
        let inResponseTo: String?
        let user: SandboxSAMLUser
        let sessionIndex: String
        let now: Date
        let lifetime: TimeInterval
    }

    /// The Response's XML, the assertion and (with `signsResponse`) the Response signed.
    func response(_ content: Content, signsAssertion: Bool, signsResponse: Bool) throws -> String {
        guard hearth_xmlsec_initialise() == 0 else { throw SandboxSAMLError.signingFailed("libxmlsec1 did not initialise") }
        let xml = Self.unsignedXML(content)
        let bytes = Array(xml.utf8)
        var refusal: Int32 = 0
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { hearth_xml_parse($0.baseAddress, Int32($0.count), &refusal) }
        }
        guard let parsed else { throw SandboxSAMLError.signingFailed("the response's own XML did not parse") }
        let document = parsed.assumingMemoryBound(to: xmlDoc.self)
        defer { xmlFreeDoc(document) }
        guard let response = xmlDocGetRootElement(document),
            let assertion = SandboxSAMLXML.children(response).first(where: {
                SandboxSAMLXML.isNamed($0, "Assertion", in: SandboxSAMLXML.assertionNamespace)
            })
        else { throw SandboxSAMLError.signingFailed("the response's own XML has no assertion") }
        for node in [response, assertion] {
            guard let attribute = xmlHasNsProp(node, "ID", nil), let value = SandboxSAMLXML.attribute(node, "ID"),
                xmlAddID(nil, document, value, attribute) != nil
            else { throw SandboxSAMLError.signingFailed("registering the IDs failed") }
        }
        if signsAssertion { try sign(assertion, id: content.assertionID, in: document) }
        if signsResponse { try sign(response, id: content.responseID, in: document) }
        var output: UnsafeMutablePointer<xmlChar>?
        var size: Int32 = 0
        xmlDocDumpMemoryEnc(document, &output, &size, "UTF-8")
        guard let output else { throw SandboxSAMLError.signingFailed("serialising failed") }
        defer { cxmlsec_free(output) }
        return String(decoding: UnsafeBufferPointer(start: output, count: Int(size)), as: UTF8.self)
    }

    /// Signs `element` (whose `ID` is `id`) with an enveloped signature placed right after its Issuer.
    private func sign(_ element: xmlNodePtr, id: String, in document: xmlDocPtr) throws {
        hearth_xmlsec_clear_error()
        guard
            let signature = xmlSecTmplSignatureCreateNsPref(
                document, cxmlsec_transform_exc_c14n(), cxmlsec_transform_rsa_sha256(), nil, "ds"),
            let reference = xmlSecTmplSignatureAddReference(signature, cxmlsec_transform_sha256(), nil, "#" + id, nil),
            xmlSecTmplReferenceAddTransform(reference, cxmlsec_transform_enveloped()) != nil,
            xmlSecTmplReferenceAddTransform(reference, cxmlsec_transform_exc_c14n()) != nil,
            let keyInfo = xmlSecTmplSignatureEnsureKeyInfo(signature, nil), xmlSecTmplKeyInfoAddX509Data(keyInfo) != nil
        else { throw SandboxSAMLError.signingFailed(String(cString: hearth_xmlsec_last_error())) }
        guard
            let issuer = SandboxSAMLXML.children(element).first(where: { SandboxSAMLXML.isNamed($0, "Issuer", in: SandboxSAMLXML.assertionNamespace) }
            ),
            xmlAddNextSibling(issuer, signature) != nil
        else {
            xmlFreeNode(signature)
            throw SandboxSAMLError.signingFailed("no Issuer to place the signature after")
        }
        guard let context = xmlSecDSigCtxCreate(nil) else { throw SandboxSAMLError.signingFailed("xmlSecDSigCtxCreate failed") }
        defer { xmlSecDSigCtxDestroy(context) }
        let pem = Array(key.privateKeyPEM.utf8)
        guard
            let loaded = pem.withUnsafeBufferPointer({
                xmlSecOpenSSLAppKeyLoadMemory($0.baseAddress, cxmlsec_size($0.count), xmlSecKeyDataFormatPem, nil, nil, nil)
            })
        else { throw SandboxSAMLError.signingFailed(String(cString: hearth_xmlsec_last_error())) }
        // The context owns the key from here.
        context.pointee.signKey = loaded
        let attached = key.certificateDER.withUnsafeBufferPointer {
            xmlSecOpenSSLAppKeyCertLoadMemory(loaded, $0.baseAddress, cxmlsec_size($0.count), xmlSecKeyDataFormatCertDer)
        }
        guard attached >= 0, xmlSecDSigCtxSign(context, signature) >= 0 else {
            throw SandboxSAMLError.signingFailed(String(cString: hearth_xmlsec_last_error()))
        }
    }

    /// The Response before signing: Issuer, Status Success, and an Assertion with Issuer, Subject (NameID, a bearer
    /// confirmation for `destination`), Conditions (`audience`), AuthnStatement and the user's attributes.
    static func unsignedXML(_ content: Content) -> String {
        let e = SandboxSAMLXML.escaped
        let now = instant(content.now)
        let notBefore = instant(content.now.addingTimeInterval(-60))
        let notOnOrAfter = instant(content.now.addingTimeInterval(content.lifetime))
        let answered = content.inResponseTo.map { " InResponseTo=\"\(e($0))\"" } ?? ""
        var attributes = ""
        if !content.user.attributes.isEmpty {
            attributes = "<saml:AttributeStatement>"
            for name in content.user.attributes.keys.sorted() {
                attributes += "<saml:Attribute Name=\"\(e(name))\" NameFormat=\"urn:oasis:names:tc:SAML:2.0:attrname-format:basic\">"
                for value in content.user.attributes[name] ?? [] {
                    attributes += "<saml:AttributeValue>\(e(value))</saml:AttributeValue>"
                }
                attributes += "</saml:Attribute>"
            }
            attributes += "</saml:AttributeStatement>"
        }
        return "<samlp:Response xmlns:samlp=\"\(SandboxSAMLXML.protocolNamespace)\" xmlns:saml=\"\(SandboxSAMLXML.assertionNamespace)\""
            + " ID=\"\(e(content.responseID))\" Version=\"2.0\" IssueInstant=\"\(now)\" Destination=\"\(e(content.destination))\"\(answered)>"
            + "<saml:Issuer>\(e(content.issuer))</saml:Issuer>"
            + "<samlp:Status><samlp:StatusCode Value=\"urn:oasis:names:tc:SAML:2.0:status:Success\"/></samlp:Status>"
            + "<saml:Assertion ID=\"\(e(content.assertionID))\" Version=\"2.0\" IssueInstant=\"\(now)\">"
            + "<saml:Issuer>\(e(content.issuer))</saml:Issuer>"
            + "<saml:Subject><saml:NameID Format=\"\(e(content.user.nameIDFormat))\">\(e(content.user.nameID))</saml:NameID>"
            + "<saml:SubjectConfirmation Method=\"urn:oasis:names:tc:SAML:2.0:cm:bearer\">"
            + "<saml:SubjectConfirmationData NotOnOrAfter=\"\(notOnOrAfter)\" Recipient=\"\(e(content.destination))\"\(answered)/>"
            + "</saml:SubjectConfirmation></saml:Subject>"
            + "<saml:Conditions NotBefore=\"\(notBefore)\" NotOnOrAfter=\"\(notOnOrAfter)\">"
            + "<saml:AudienceRestriction><saml:Audience>\(e(content.audience))</saml:Audience></saml:AudienceRestriction></saml:Conditions>"
            + "<saml:AuthnStatement AuthnInstant=\"\(now)\" SessionIndex=\"\(e(content.sessionIndex))\">"
            + "<saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport"
            + "</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>"
            + attributes
            + "</saml:Assertion></samlp:Response>"
    }

    /// `date` as SAML writes times: `xs:dateTime` in UTC, whole seconds.
    static func instant(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}
