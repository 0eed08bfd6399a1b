import CXMLSec
import CXMLSecSupport
import Foundation

extension SAMLServiceProvider {
    /// The longest `RelayState` the bindings allow (SAML Bindings §3.4.3: 80 bytes).
    public static let maximumRelayStateLength = 80

    /// Makes an AuthnRequest for the HTTP-Redirect binding (SAML Bindings §3.4): its XML, raw DEFLATE, base64
    /// and URL-encoding as `SAMLRequest`, then `RelayState`, and, when ``signsRequests``, `SigAlg` (RSA-SHA256) and
    /// `Signature` over exactly the query string sent (`SAMLRequest=…&RelayState=…&SigAlg=…`, each value URL-encoded).
    ///
    /// The request asks for the HTTP-POST binding back to ``callbackURL`` and names it in
    /// `AssertionConsumerServiceURL`; its `Destination` is ``ssoURL``.
    /// - Parameters:
    ///   - relayState: the opaque value the IdP posts back with its response (at most 80 bytes), or `nil`.
    ///   - now: the request's `IssueInstant`.
    ///   - id: the request's ID; a fresh random one (`_` and 32 hex digits) by default.
    /// - Returns: the request: keep its ``SAMLAuthenticationRequest/id`` with the browser's session.
    /// - Throws: ``SAMLError/incompleteSettings(_:)`` when requests are signed without a key,
    ///   ``SAMLError/requestFailed(_:)`` when the relay state is too long or signing fails.
    public func authenticationRequest(relayState: String?, now: Date, id: String = Self.newRequestID()) throws(SAMLError)
        -> SAMLAuthenticationRequest
    {
        if let relayState, relayState.utf8.count > Self.maximumRelayStateLength {
            throw .requestFailed("RelayState is \(relayState.utf8.count) bytes long, more than 80")
        }
        let instant = SAMLDateTime.string(from: now)
        let xml =
            "<samlp:AuthnRequest xmlns:samlp=\"\(SAMLNames.protocolNamespace)\" xmlns:saml=\"\(SAMLNames.assertionNamespace)\""
            + " ID=\"\(XMLEscaping.attribute(id))\" Version=\"2.0\" IssueInstant=\"\(instant)\""
            + " Destination=\"\(XMLEscaping.attribute(ssoURL))\" AssertionConsumerServiceURL=\"\(XMLEscaping.attribute(callbackURL))\""
            + " ProtocolBinding=\"\(SAMLNames.postBinding)\">"
            + "<saml:Issuer>\(XMLEscaping.text(entityID))</saml:Issuer>"
            + "<samlp:NameIDPolicy AllowCreate=\"true\"/>"
            + "</samlp:AuthnRequest>"
        let deflated = try RawDeflate.deflate(Array(xml.utf8))
        var query = "SAMLRequest=" + URLQueryEncoding.encode(Data(deflated).base64EncodedString())
        if let relayState { query += "&RelayState=" + URLQueryEncoding.encode(relayState) }
        if signsRequests {
            guard let signingKey else { throw .incompleteSettings("signRequest is on and no SP signing key is configured") }
            query += "&SigAlg=" + URLQueryEncoding.encode(SAMLNames.rsaSHA256)
            let signature = try RedirectSignature.sign(Array(query.utf8), with: signingKey)
            query += "&Signature=" + URLQueryEncoding.encode(Data(signature).base64EncodedString())
        }
        let separator = ssoURL.contains("?") ? "&" : "?"
        return SAMLAuthenticationRequest(id: id, issueInstant: now, url: ssoURL + separator + query, xml: xml)
    }

    /// A fresh request ID: `_` and 128 random bits in hex (an `xs:ID` must not start with a digit).
    public static func newRequestID() -> String {
        var generator = SystemRandomNumberGenerator()
        let hex: [Character] = Array("0123456789abcdef")
        return "_" + String((0..<32).map { _ in hex[Int(generator.next() % 16)] })
    }
}

/// The Redirect binding's signature: RSA-SHA256 (PKCS #1 v1.5) over the query's bytes, by libxmlsec1's
/// OpenSSL transform with the SP key. (HearthSAML links OpenSSL through libxmlsec1 already and depends on nothing
/// else, so swift-crypto's `_RSA` is not used here.)
enum RedirectSignature {
    /// The signature of `bytes` with `key`.
    static func sign(_ bytes: [UInt8], with key: SAMLPrivateKey) throws(SAMLError) -> [UInt8] {
        XMLSecurityLibrary.clearError()
        guard let context = xmlSecTransformCtxCreate() else { throw .requestFailed("xmlSecTransformCtxCreate failed") }
        defer { xmlSecTransformCtxDestroy(context) }
        guard let transform = xmlSecTransformCtxCreateAndAppend(context, cxmlsec_transform_rsa_sha256()) else {
            throw .requestFailed(XMLSecurityLibrary.lastError(or: "no RSA-SHA256 transform"))
        }
        transform.pointee.operation = xmlSecTransformOperationSign
        guard let loaded = key.key() else { throw .invalidPrivateKey(XMLSecurityLibrary.lastError(or: "the signing key")) }
        defer { xmlSecKeyDestroy(loaded) }
        guard xmlSecTransformSetKey(transform, loaded) >= 0 else {
            throw .requestFailed(XMLSecurityLibrary.lastError(or: "the key does not suit RSA-SHA256"))
        }
        let executed = bytes.withUnsafeBufferPointer { buffer in
            xmlSecTransformCtxBinaryExecute(context, buffer.baseAddress, cxmlsec_size(buffer.count))
        }
        guard executed >= 0, let result = context.pointee.result, let data = xmlSecBufferGetData(result) else {
            throw .requestFailed(XMLSecurityLibrary.lastError(or: "signing failed"))
        }
        return Array(UnsafeBufferPointer(start: data, count: Int(xmlSecBufferGetSize(result))))
    }
}

/// Raw DEFLATE (RFC 1951) by zlib, for the Redirect binding.
enum RawDeflate {
    /// `bytes` deflated.
    static func deflate(_ bytes: [UInt8]) throws(SAMLError) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: bytes.count + bytes.count / 8 + 64)
        let written = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { hearth_raw_deflate(input.baseAddress, input.count, $0.baseAddress, $0.count) }
        }
        guard written >= 0 else { throw .requestFailed("DEFLATE failed") }
        return Array(output.prefix(written))
    }
}

/// Percent-encoding of a query value: everything but RFC 3986's unreserved characters.
enum URLQueryEncoding {
    static func encode(_ value: String) -> String {
        var encoded = ""
        let hex: [Character] = Array("0123456789ABCDEF")
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.append(Character(UnicodeScalar(byte)))
            default:
                encoded += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0xF)])
            }
        }
        return encoded
    }
}

/// Escaping for XML that HearthSAML writes.
enum XMLEscaping {
    /// `value` for a double-quoted attribute.
    static func attribute(_ value: String) -> String {
        text(value).replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// `value` for element content.
    static func text(_ value: String) -> String {
        value.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
