import CXMLSec
import CXMLSecSupport
import Foundation

/// An AuthnRequest as the sandbox SAML IdP received it over the HTTP-Redirect binding: `SAMLRequest` is base64
/// of raw DEFLATE of the XML. Only what the answer needs is read; the request's own signature, if any, is not
/// checked (the sandbox knows no SP certificates).
public struct SandboxSAMLRequest: Sendable, Equatable {
    /// The request's `ID`: the response's `InResponseTo`.
    public let id: String
    /// The SP's entity ID (the request's Issuer): the assertion's Audience.
    public let issuer: String
    /// Where the response is posted (`AssertionConsumerServiceURL`): its Destination and Recipient.
    public let assertionConsumerServiceURL: String

    /// Reads a Redirect-binding `SAMLRequest` value (already URL-decoded).
    /// - Throws: ``SandboxSAMLError/invalidRequest(_:)`` when it is not base64 of DEFLATE of an AuthnRequest with an ID,
    ///   an Issuer and an AssertionConsumerServiceURL, or has a DOCTYPE.
    public init(redirectValue: String) throws {
        guard hearth_xmlsec_initialise() == 0 else { throw SandboxSAMLError.invalidRequest("libxmlsec1 did not initialise") }
        guard let deflated = Data(base64Encoded: redirectValue.filter { !$0.isWhitespace }) else {
            throw SandboxSAMLError.invalidRequest("SAMLRequest is not base64")
        }
        let input = [UInt8](deflated)
        var output = [UInt8](repeating: 0, count: 64 * 1024)
        let length = input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { hearth_raw_inflate(source.baseAddress, source.count, $0.baseAddress, $0.count) }
        }
        guard length > 0 else { throw SandboxSAMLError.invalidRequest("SAMLRequest is not raw DEFLATE (or inflates to over 64 KiB)") }
        var refusal: Int32 = 0
        let parsed = output.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { hearth_xml_parse($0.baseAddress, Int32(length), &refusal) }
        }
        guard let parsed else { throw SandboxSAMLError.invalidRequest("SAMLRequest is not well-formed XML without a DOCTYPE") }
        let document = parsed.assumingMemoryBound(to: xmlDoc.self)
        defer { xmlFreeDoc(document) }
        guard let root = xmlDocGetRootElement(document), SandboxSAMLXML.isNamed(root, "AuthnRequest", in: SandboxSAMLXML.protocolNamespace)
        else {
            throw SandboxSAMLError.invalidRequest("SAMLRequest is not an AuthnRequest")
        }
        guard let id = SandboxSAMLXML.attribute(root, "ID"), !id.isEmpty else { throw SandboxSAMLError.invalidRequest("the AuthnRequest has no ID") }
        guard let acs = SandboxSAMLXML.attribute(root, "AssertionConsumerServiceURL"), !acs.isEmpty else {
            throw SandboxSAMLError.invalidRequest("the AuthnRequest names no AssertionConsumerServiceURL")
        }
        guard
            let issuer = SandboxSAMLXML.children(root).first(where: { SandboxSAMLXML.isNamed($0, "Issuer", in: SandboxSAMLXML.assertionNamespace) }),
            let text = xmlNodeGetContent(issuer)
        else {
            throw SandboxSAMLError.invalidRequest("the AuthnRequest has no Issuer")
        }
        defer { cxmlsec_free(text) }
        self.id = id
        self.issuer = String(cString: text)
        self.assertionConsumerServiceURL = acs
    }
}
