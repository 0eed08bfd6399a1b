import Foundation
import HearthSAML
import Testing

/// Responses HearthSAML must accept, each signed (and encrypted) by scripts/saml-idp.py, with everything read
/// as the IdP wrote it.
@Suite("SAML responses that verify")
struct SAMLResponseAcceptanceTests {
    func expectAda(_ assertion: SAMLAssertion, _ fixture: SAMLFixture, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(assertion.nameID == "ada@corp.example", sourceLocation: sourceLocation)
        #expect(assertion.nameIDFormat == "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress", sourceLocation: sourceLocation)
        #expect(assertion.sessionIndex == "_session-1", sourceLocation: sourceLocation)
        #expect(assertion.issuer == SAMLFixture.idpEntityID, sourceLocation: sourceLocation)
        #expect(assertion.id == fixture.spec["assertionID"] as? String, sourceLocation: sourceLocation)
        #expect(
            assertion.attributes == [
                "email": ["ada@corp.example"], "groups": ["engineering", "admins"], "displayName": ["Ada Lovelace"],
            ], sourceLocation: sourceLocation)
        #expect(assertion.notOnOrAfter == SAMLFixture.now.addingTimeInterval(300), sourceLocation: sourceLocation)
    }

    @Test("a signed Response (the assertion inside it unsigned)")
    func signedResponse() throws {
        let fixture = try SAMLFixture()
        expectAda(try fixture.check(try fixture.response(["sign": ["response"]])), fixture)
    }

    @Test("a signed Assertion in an unsigned Response")
    func signedAssertion() throws {
        let fixture = try SAMLFixture()
        expectAda(try fixture.check(try fixture.response(["sign": ["assertion"]])), fixture)
    }

    @Test("both signed")
    func bothSigned() throws {
        let fixture = try SAMLFixture()
        expectAda(try fixture.check(try fixture.response(["sign": ["assertion", "response"]])), fixture)
    }

    @Test("an EncryptedAssertion (AES-256-CBC, RSA-OAEP, the key in EncryptedData's KeyInfo), signed inside")
    func encryptedAssertion() throws {
        let fixture = try SAMLFixture()
        expectAda(try fixture.check(try fixture.response(["encryptTo": fixture.keys.certificate("sp")])), fixture)
    }

    @Test("an EncryptedAssertion (AES-128-GCM, the EncryptedKey beside the EncryptedData) in a signed Response")
    func encryptedAssertionSignedResponse() throws {
        let fixture = try SAMLFixture()
        let xml = try fixture.response([
            "encryptTo": fixture.keys.certificate("sp"), "contentEncryption": "aes128-gcm", "keyPlacement": "beside", "sign": ["response"],
        ])
        expectAda(try fixture.check(xml), fixture)
    }

    @Test("the IdP's key rolled over: any configured certificate verifies")
    func rollover() throws {
        var fixture = try SAMLFixture()
        fixture.provider.idpCertificates = [try SAMLCertificate(fixture.keys.certificatePEM("other")), fixture.provider.idpCertificates[0]]
        expectAda(try fixture.check(try fixture.response()), fixture)
        // Bare base64, as Firebase's x509Certificate may hold it.
        let pem = try fixture.keys.certificatePEM("idp")
        let bare = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        #expect(try SAMLCertificate(bare) == fixture.provider.idpCertificates[1])
    }

    @Test("the skew: two minutes either side of the validity period")
    func skew() throws {
        let fixture = try SAMLFixture()
        let xml = try fixture.response()
        _ = try fixture.check(xml, at: SAMLFixture.now.addingTimeInterval(300 + 119))
        _ = try fixture.check(xml, at: SAMLFixture.now.addingTimeInterval(-60 - 119))
    }

    @Test("an IdP-initiated response when the settings allow it")
    func unsolicitedAllowed() throws {
        var fixture = try SAMLFixture()
        fixture.provider.allowsUnsolicitedResponses = true
        let xml = try fixture.response(["inResponseTo": NSNull()])
        expectAda(try fixture.check(xml, expectedRequestID: nil), fixture)
    }

    @Test("a comment inside NameID does not cut it short: the whole text is the NameID")
    func commentInNameID() throws {
        let fixture = try SAMLFixture()
        let signed = try fixture.response(["nameID": "user@corp.com.evil.com"])
        let attacked = try PythonIdP.attack("nameid-comment", on: signed)
        #expect(attacked.contains(">user@corp.com<!---->.evil.com</saml:NameID>"))
        #expect(try fixture.check(attacked).nameID == "user@corp.com.evil.com")
    }

    @Test("32 verifications at once on as many threads: libxmlsec1 initialised once, no shared state between them")
    func concurrent() async throws {
        let fixture = try SAMLFixture()
        let xml = try fixture.response(["sign": ["assertion", "response"], "encryptTo": fixture.keys.certificate("sp")])
        let names = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<32 { group.addTask { try fixture.check(xml).nameID } }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(names == Array(repeating: "ada@corp.example", count: 32))
    }

    @Test("verifyResponse records the assertion: the same response a second time is refused as replayed")
    func replay() async throws {
        let fixture = try SAMLFixture()
        let posted = SAMLFixture.posted(try fixture.response())
        let guardian = InMemorySAMLReplayGuard { SAMLFixture.now }
        let first = try await fixture.provider.verifyResponse(
            posted, expectedRequestID: SAMLFixture.requestID, now: SAMLFixture.now, replayGuard: guardian)
        #expect(first.nameID == "ada@corp.example")
        await #expect(throws: SAMLError.replayed(first.id)) {
            try await fixture.provider.verifyResponse(posted, expectedRequestID: SAMLFixture.requestID, now: SAMLFixture.now, replayGuard: guardian)
        }
        #expect(
            SAMLServiceProvider.replayFingerprint(issuer: first.issuer, assertionID: first.id)
                != SAMLServiceProvider.replayFingerprint(issuer: "https://other.example", assertionID: first.id))
    }
}
