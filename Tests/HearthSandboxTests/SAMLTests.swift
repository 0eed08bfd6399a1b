import Foundation
import HearthSAML
import HearthSandbox
import Hummingbird
import HummingbirdTesting
import Testing

/// The sandbox's SAML IdP, driven as a service provider drives it (an AuthnRequest from HearthSAML over the
/// Redirect binding) and its answers verified by HearthSAML against the sandbox's certificate: the SP's rules,
/// not the sandbox's signing code, decide.
@Suite("SAML IdP")
struct SAMLTests {
    static let callbackURL = "https://hearth.test/__/auth/handler"

    func serviceProvider(_ sandbox: Sandbox) throws -> SAMLServiceProvider {
        SAMLServiceProvider(
            entityID: "https://hearth.test/saml", callbackURL: Self.callbackURL, idpEntityID: sandbox.samlEntityID, ssoURL: sandbox.samlSSOURL,
            idpCertificates: [try SAMLCertificate(try sandbox.samlCertificatePEM())])
    }

    /// The form field `name`'s value in the auto-posting page.
    func field(_ name: String, in page: String) -> String? {
        guard let start = page.range(of: "name=\"\(name)\" value=\"") else { return nil }
        guard let end = page[start.upperBound...].firstIndex(of: "\"") else { return nil }
        return String(page[start.upperBound..<end]).replacingOccurrences(of: "&amp;", with: "&")
    }

    @Test("sso answers a Redirect-binding AuthnRequest with a form posting a signed SAMLResponse and the RelayState to the ACS URL")
    func singleSignOn() async throws {
        try await withSandbox { sandbox, client in
            let provider = try serviceProvider(sandbox)
            let request = try provider.authenticationRequest(relayState: "relay & state", now: Date())
            let answer = try await client.get(String(request.url.dropFirst("http://sandbox.test".count)))
            #expect(answer.status == .ok)
            #expect(answer.headers[.contentType] == "text/html; charset=utf-8")
            #expect(answer.text.contains("<form method=\"post\" action=\"\(Self.callbackURL)\">"))
            #expect(field("RelayState", in: answer.text) == "relay & state")
            let posted = try #require(field("SAMLResponse", in: answer.text))
            let assertion = try provider.checkResponse(posted, expectedRequestID: request.id, now: Date())
            #expect(assertion.nameID == "ada@saml.sandbox.test")
            #expect(assertion.issuer == sandbox.samlEntityID)
            #expect(assertion.attributes["groups"] == ["engineering", "admins"])
            #expect(assertion.attributes["firstName"] == ["Ada"])
            #expect(sandbox.lastSAMLRequest()?.id == request.id)
            #expect(sandbox.lastSAMLRequest()?.issuer == "https://hearth.test/saml")
            // Both the Response and the Assertion are signed.
            let xml = String(decoding: try #require(Data(base64Encoded: posted)), as: UTF8.self)
            #expect(xml.components(separatedBy: "<ds:SignatureValue>").count == 3)
            // The same response twice is one use too many.
            let guardian = InMemorySAMLReplayGuard()
            _ = try await provider.verifyResponse(posted, expectedRequestID: request.id, now: Date(), replayGuard: guardian)
            await #expect(throws: SAMLError.self) {
                try await provider.verifyResponse(posted, expectedRequestID: request.id, now: Date(), replayGuard: guardian)
            }
        }
    }

    @Test("subject= picks a user; added users carry their attributes; unknown users and bad requests are 400")
    func users() async throws {
        try await withSandbox { sandbox, client in
            let provider = try serviceProvider(sandbox)
            sandbox.addSAMLUser(SandboxSAMLUser(nameID: "linus@corp.test", attributes: ["role": ["maintainer"]]))
            let request = try provider.authenticationRequest(relayState: nil, now: Date())
            let path = String(request.url.dropFirst("http://sandbox.test".count))
            let grace = try await client.get(path + "&subject=grace%40saml.sandbox.test")
            let graceAssertion = try provider.checkResponse(
                try #require(field("SAMLResponse", in: grace.text)), expectedRequestID: request.id, now: Date())
            #expect(graceAssertion.nameID == "grace@saml.sandbox.test")
            #expect(!grace.text.contains("RelayState"))
            let linus = try await client.get(path + "&subject=linus%40corp.test")
            let linusAssertion = try provider.checkResponse(
                try #require(field("SAMLResponse", in: linus.text)), expectedRequestID: request.id, now: Date())
            #expect(linusAssertion.attributes == ["role": ["maintainer"]])

            #expect(try await client.get(path + "&subject=nobody%40corp.test").status == .badRequest)
            #expect(try await client.get("/saml/sso").status == .badRequest)
            #expect(try await client.get("/saml/sso?SAMLRequest=bm90IGRlZmxhdGU%3D").status == .badRequest)
        }
    }

    @Test("what it signs can be chosen; unsigned responses are refused by the SP")
    func signing() async throws {
        try await withSandbox { sandbox, _ in
            let provider = try serviceProvider(sandbox)
            let user = SandboxSAMLUser.presets[0]
            for (assertion, response) in [(true, false), (false, true)] {
                sandbox.setSAMLSigning(assertion: assertion, response: response)
                let xml = try sandbox.samlResponse(for: user, audience: provider.entityID, acsURL: Self.callbackURL, inResponseTo: "_r1")
                let verified = try provider.checkResponse(Data(xml.utf8).base64EncodedString(), expectedRequestID: "_r1", now: Date())
                #expect(verified.nameID == user.nameID)
            }
            sandbox.setSAMLSigning(assertion: false, response: false)
            let unsigned = try sandbox.samlResponse(for: user, audience: provider.entityID, acsURL: Self.callbackURL, inResponseTo: "_r1")
            #expect(throws: SAMLError.unsigned) {
                try provider.checkResponse(Data(unsigned.utf8).base64EncodedString(), expectedRequestID: "_r1", now: Date())
            }
            // Another sandbox's certificate does not verify this one's responses.
            sandbox.setSAMLSigning(assertion: true, response: true)
            let signed = try sandbox.samlResponse(for: user, audience: provider.entityID, acsURL: Self.callbackURL, inResponseTo: "_r1")
            var stranger = provider
            stranger.idpCertificates = [try SAMLCertificate(try Sandbox().samlCertificatePEM())]
            #expect(throws: SAMLError.self) {
                try stranger.checkResponse(Data(signed.utf8).base64EncodedString(), expectedRequestID: "_r1", now: Date())
            }
        }
    }

    @Test("metadata names the entity ID, the SSO URL and the signing certificate")
    func metadata() async throws {
        try await withSandbox { sandbox, client in
            let answer = try await client.get("/saml/metadata")
            #expect(answer.status == .ok)
            #expect(answer.text.contains("entityID=\"http://sandbox.test/saml\""))
            #expect(answer.text.contains("Location=\"http://sandbox.test/saml/sso\""))
            let pem = try sandbox.samlCertificatePEM()
            let base64 = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
            #expect(answer.text.contains("<ds:X509Certificate>\(base64)</ds:X509Certificate>"))
        }
    }
}
