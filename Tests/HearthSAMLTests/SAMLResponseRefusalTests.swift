import Foundation
import HearthSAML
import Testing

/// Responses HearthSAML must refuse, one reason each, signed by scripts/saml-idp.py and, for the attacks,
/// changed by it afterwards.
@Suite("SAML responses that are refused")
struct SAMLResponseRefusalTests {
    @Test("unsigned: neither the Response nor the Assertion")
    func unsigned() throws {
        let fixture = try SAMLFixture()
        #expect(fixture.refusal(try fixture.response(["sign": [String]()])) == .unsigned)
    }

    @Test("signed by another key, whose certificate the response carries in its own KeyInfo")
    func anotherKey() throws {
        let fixture = try SAMLFixture()
        let xml = try fixture.response(["key": fixture.keys.key("other"), "cert": fixture.keys.certificate("other")])
        guard case .signatureInvalid = fixture.refusal(xml) else {
            Issue.record("not refused as an invalid signature")
            return
        }
        // Also when the Response is signed by the other key and the assertion not at all.
        let response = try fixture.response([
            "key": fixture.keys.key("other"), "cert": fixture.keys.certificate("other"), "sign": ["response"],
        ])
        guard case .signatureInvalid = fixture.refusal(response) else {
            Issue.record("not refused as an invalid signature")
            return
        }
    }

    @Test("RSA-SHA1 with a SHA-1 digest")
    func sha1() throws {
        let fixture = try SAMLFixture()
        let xml = try fixture.response(["signatureAlgorithm": "rsa-sha1"])
        #expect(fixture.refusal(xml) == .algorithmRefused("http://www.w3.org/2000/09/xmldsig#rsa-sha1"))
    }

    @Test("an attribute value changed after signing")
    func tamperedAttribute() throws {
        let fixture = try SAMLFixture()
        let xml = try PythonIdP.attack("tamper-attribute", on: try fixture.response())
        #expect(xml.contains(">admin<"))
        guard case .signatureInvalid = fixture.refusal(xml) else {
            Issue.record("not refused as an invalid signature")
            return
        }
    }

    /// The eight signature-wrapping variants of "On Breaking SAML" (Somorovsky et al., 2012) as SAML Raider applies
    /// them: XSW1 and XSW2 wrap a signed Response, the others a signed Assertion.
    @Test("signature wrapping", arguments: ["xsw1", "xsw2", "xsw3", "xsw4", "xsw5", "xsw6", "xsw7", "xsw8"])
    func wrapping(_ variant: String) throws {
        let fixture = try SAMLFixture()
        let signed = try fixture.response(["sign": variant == "xsw1" || variant == "xsw2" ? ["response"] : ["assertion"]])
        let attacked = try PythonIdP.attack(variant, on: signed)
        #expect(attacked.contains("attacker@evil.example"))
        let refusal = fixture.refusal(attacked)
        switch refusal {
        case .assertionCount, .duplicateID, .signatureReference, .signatureInvalid: break
        default: Issue.record("\(variant) refused for an unexpected reason: \(String(describing: refusal))")
        }
    }

    @Test("a valid signature of the Response moved into the assertion: it covers another element than its own")
    func movedSignature() throws {
        let fixture = try SAMLFixture()
        let xml = try PythonIdP.attack("move-signature", on: try fixture.response(["sign": ["response"]]))
        guard case .signatureReference = fixture.refusal(xml) else {
            Issue.record("not refused as a signature of another element")
            return
        }
    }

    @Test("two elements with one ID")
    func duplicateID() throws {
        let fixture = try SAMLFixture()
        let xml = try PythonIdP.attack("duplicate-id", on: try fixture.response())
        #expect(fixture.refusal(xml) == .duplicateID(fixture.spec["assertionID"] as? String ?? ""))
    }

    @Test("a DOCTYPE of any kind: plain, an external entity, billion laughs, in UTF-16")
    func doctype() throws {
        let fixture = try SAMLFixture()
        let signed = try fixture.response()
        let body = signed.hasPrefix("<?xml") ? String(signed[signed.range(of: "?>")!.upperBound...]) : signed
        let external = body.replacingOccurrences(of: "ada@corp.example</saml:NameID>", with: "&xxe;</saml:NameID>")
        var laughs = "<!DOCTYPE r [<!ENTITY lol \"lol\">"
        for level in 1...9 {
            laughs += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level == 1 ? "" : String(level - 1));", count: 10) + "\">"
        }
        laughs += "]>"
        let documents = [
            "<!DOCTYPE samlp:Response>" + body,
            "<!DOCTYPE r [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>" + external,
            "<!DOCTYPE r SYSTEM \"http://127.0.0.1:9/evil.dtd\">" + body,
            laughs + body.replacingOccurrences(of: "ada@corp.example</saml:NameID>", with: "&lol9;</saml:NameID>"),
        ]
        for document in documents {
            #expect(fixture.refusal(document) == .documentTypeDeclaration, "\(document.prefix(80))")
        }
        // The same document in UTF-16 with a byte-order mark: the parser, not a text search, finds the DOCTYPE.
        let utf16 = "<?xml version=\"1.0\" encoding=\"UTF-16\"?><!DOCTYPE samlp:Response>" + body
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in utf16.utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(throws: SAMLError.documentTypeDeclaration) {
            try fixture.provider.checkResponse(Data(bytes).base64EncodedString(), expectedRequestID: SAMLFixture.requestID, now: SAMLFixture.now)
        }
    }

    @Test("the audience is another SP")
    func wrongAudience() throws {
        let fixture = try SAMLFixture()
        let xml = try fixture.response(["audience": ["https://other-sp.example.com"]])
        #expect(fixture.refusal(xml) == .wrongAudience(["https://other-sp.example.com"]))
    }

    @Test("the Recipient is another URL")
    func wrongRecipient() throws {
        let fixture = try SAMLFixture()
        let xml = try fixture.response(["recipient": "https://evil.example.com/acs"])
        #expect(fixture.refusal(xml) == .wrongRecipient("https://evil.example.com/acs"))
    }

    @Test("the Destination is another URL, or missing from a signed Response")
    func wrongDestination() throws {
        let fixture = try SAMLFixture()
        #expect(
            fixture.refusal(try fixture.response(["destination": "https://evil.example.com/acs"]))
                == .wrongDestination("https://evil.example.com/acs"))
        #expect(fixture.refusal(try fixture.response(["destination": NSNull(), "sign": ["response"]])) == .wrongDestination(nil))
    }

    @Test("InResponseTo: another request, none, or one where none was expected")
    func inResponseTo() throws {
        let fixture = try SAMLFixture()
        #expect(
            fixture.refusal(try fixture.response(["inResponseTo": "_another-request"]))
                == .wrongInResponseTo(expected: SAMLFixture.requestID, found: "_another-request"))
        #expect(
            fixture.refusal(try fixture.response(["inResponseTo": NSNull()]))
                == .wrongInResponseTo(expected: SAMLFixture.requestID, found: nil))
        // No request (IdP-initiated), refused by default.
        #expect(fixture.refusal(try fixture.response(["inResponseTo": NSNull()]), expectedRequestID: nil) == .unsolicited)
        var allowing = fixture
        allowing.provider.allowsUnsolicitedResponses = true
        #expect(
            allowing.refusal(try fixture.response(), expectedRequestID: nil)
                == .wrongInResponseTo(expected: nil, found: SAMLFixture.requestID))
    }

    @Test("expired, and not yet valid, beyond the skew")
    func validity() throws {
        let fixture = try SAMLFixture()
        let xml = try fixture.response()
        guard case .expired = fixture.refusal(xml, at: SAMLFixture.now.addingTimeInterval(300 + 120)) else {
            Issue.record("not refused as expired")
            return
        }
        guard case .notYetValid("Conditions@NotBefore", _) = fixture.refusal(xml, at: SAMLFixture.now.addingTimeInterval(-60 - 121)) else {
            Issue.record("not refused as not yet valid")
            return
        }
        // The confirmation alone expired.
        let confirmation = try fixture.response(["confirmationNotOnOrAfter": Int(SAMLFixture.now.timeIntervalSince1970) - 200])
        guard case .expired("SubjectConfirmationData@NotOnOrAfter", _) = fixture.refusal(confirmation) else {
            Issue.record("not refused as an expired confirmation")
            return
        }
    }

    @Test("a status other than Success, with its second-level code")
    func status() throws {
        let fixture = try SAMLFixture()
        let xml = try fixture.response([
            "status": "urn:oasis:names:tc:SAML:2.0:status:Responder", "subStatus": "urn:oasis:names:tc:SAML:2.0:status:AuthnFailed",
            "sign": [String](),
        ])
        #expect(
            fixture.refusal(xml)
                == .status("urn:oasis:names:tc:SAML:2.0:status:Responder / urn:oasis:names:tc:SAML:2.0:status:AuthnFailed"))
    }

    @Test("another issuer, signed with the trusted key")
    func wrongIssuer() throws {
        let fixture = try SAMLFixture()
        #expect(fixture.refusal(try fixture.response(["issuer": "https://evil.example.com"])) == .wrongIssuer("https://evil.example.com"))
    }

    @Test("an encrypted assertion without a decryption key, or with RSA PKCS #1 v1.5 key transport")
    func encryption() throws {
        var fixture = try SAMLFixture()
        let rsa15 = try fixture.response(["encryptTo": fixture.keys.certificate("sp"), "keyTransport": "rsa-1_5"])
        #expect(fixture.refusal(rsa15) == .algorithmRefused("http://www.w3.org/2001/04/xmlenc#rsa-1_5"))
        let encrypted = try fixture.response(["encryptTo": fixture.keys.certificate("sp")])
        fixture.provider.decryptionKey = nil
        #expect(fixture.refusal(encrypted) == .encryptedWithoutKey)
        // Encrypted to another SP's key.
        fixture.provider.decryptionKey = try SAMLPrivateKey(pem: fixture.keys.keyPEM("other"))
        guard case .decryptionFailed = fixture.refusal(encrypted) else {
            Issue.record("not refused as undecryptable")
            return
        }
    }

    @Test("not a Response, not base64, not XML, too large")
    func notAResponse() throws {
        var fixture = try SAMLFixture()
        let request = "<samlp:AuthnRequest xmlns:samlp=\"urn:oasis:names:tc:SAML:2.0:protocol\" ID=\"_a\" Version=\"2.0\"/>"
        guard case .notAResponse = fixture.refusal(request) else {
            Issue.record("an AuthnRequest was not refused as such")
            return
        }
        guard case .notWellFormed = fixture.refusal("<samlp:Response") else {
            Issue.record("broken XML was not refused as such")
            return
        }
        #expect(throws: SAMLError.notBase64) {
            try fixture.provider.checkResponse("not base64!", expectedRequestID: SAMLFixture.requestID, now: SAMLFixture.now)
        }
        fixture.provider.maximumResponseSize = 100
        guard case .tooLarge = fixture.refusal(try fixture.response()) else {
            Issue.record("not refused as too large")
            return
        }
    }
}
