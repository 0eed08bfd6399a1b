import Foundation
import HearthSAML
import Testing

/// AuthnRequests for the HTTP-Redirect binding, inflated and their signatures checked by scripts/saml-idp.py
/// (zlib and cryptography), not by HearthSAML's own code.
@Suite("SAML AuthnRequests (HTTP-Redirect binding)")
struct SAMLAuthenticationRequestTests {
    struct Checked: Decodable {
        let request: String
        let relayState: String?
        let signed: Bool
    }

    func check(_ url: String, certificate: String) throws -> Checked {
        try JSONDecoder().decode(Checked.self, from: PythonIdP.run(["redirect-check", certificate, url]))
    }

    @Test("unsigned: SAMLRequest (raw DEFLATE, base64, URL-encoded) and RelayState; the XML names ID, times and URLs")
    func unsigned() throws {
        let fixture = try SAMLFixture()
        let request = try fixture.provider.authenticationRequest(relayState: "session/42 +&=", now: SAMLFixture.now)
        #expect(request.id.hasPrefix("_") && request.id.count == 33)
        #expect(request.url.hasPrefix("https://idp.example.com/sso?SAMLRequest="))
        #expect(!request.url.contains("Signature="))
        let checked = try check(request.url, certificate: fixture.keys.certificate("sp"))
        #expect(checked.relayState == "session/42 +&=")
        #expect(!checked.signed)
        #expect(checked.request == request.xml)
        for part in [
            "ID=\"\(request.id)\"", "Version=\"2.0\"", "IssueInstant=\"2027-01-15T08:00:00Z\"", "Destination=\"https://idp.example.com/sso\"",
            "AssertionConsumerServiceURL=\"\(SAMLFixture.callbackURL)\"", "<saml:Issuer>\(SAMLFixture.spEntityID)</saml:Issuer>",
            "ProtocolBinding=\"urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST\"",
        ] {
            #expect(checked.request.contains(part), "\(part)")
        }
        #expect(try fixture.provider.authenticationRequest(relayState: nil, now: SAMLFixture.now).id != request.id)
    }

    @Test("signed: SigAlg RSA-SHA256 and a Signature over the query as sent, verified with the SP's certificate")
    func signed() throws {
        var fixture = try SAMLFixture()
        fixture.provider.signsRequests = true
        fixture.provider.signingKey = try SAMLPrivateKey(pem: fixture.keys.keyPEM("sp"))
        let request = try fixture.provider.authenticationRequest(relayState: "state-1", now: SAMLFixture.now, id: "_fixed")
        #expect(request.id == "_fixed")
        #expect(request.url.contains("&RelayState=state-1&SigAlg=http%3A%2F%2Fwww.w3.org%2F2001%2F04%2Fxmldsig-more%23rsa-sha256&Signature="))
        let checked = try check(request.url, certificate: fixture.keys.certificate("sp"))
        #expect(checked.signed)
        #expect(checked.request.contains("ID=\"_fixed\""))
        // Another RelayState under the same signature, or another key's certificate, does not verify.
        #expect(throws: PythonIdPError.self) {
            try check(
                request.url.replacingOccurrences(of: "RelayState=state-1", with: "RelayState=state-2"), certificate: fixture.keys.certificate("sp"))
        }
        #expect(throws: PythonIdPError.self) { try check(request.url, certificate: fixture.keys.certificate("idp")) }
    }

    @Test("refused: a RelayState over 80 bytes, signRequest without a key, a key that is not one")
    func refusals() throws {
        var fixture = try SAMLFixture()
        #expect(throws: SAMLError.requestFailed("RelayState is 81 bytes long, more than 80")) {
            try fixture.provider.authenticationRequest(relayState: String(repeating: "r", count: 81), now: SAMLFixture.now)
        }
        fixture.provider.signsRequests = true
        #expect(throws: SAMLError.incompleteSettings("signRequest is on and no SP signing key is configured")) {
            try fixture.provider.authenticationRequest(relayState: nil, now: SAMLFixture.now)
        }
        #expect(throws: SAMLError.self) { try SAMLPrivateKey(pem: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n") }
        #expect(throws: SAMLError.self) { try SAMLPrivateKey(pem: try fixture.keys.certificatePEM("sp")) }
        #expect(throws: SAMLError.self) { try SAMLCertificate("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n") }
        #expect(throws: SAMLError.self) { try SAMLCertificate(try fixture.keys.keyPEM("sp")) }
    }

    @Test("a private key prints redacted")
    func redaction() throws {
        let fixture = try SAMLFixture()
        let key = try SAMLPrivateKey(pem: fixture.keys.keyPEM("sp"))
        #expect("\(key)" == "SAMLPrivateKey(redacted)")
        #expect(!String(reflecting: key).contains("PRIVATE"))
    }
}
