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
