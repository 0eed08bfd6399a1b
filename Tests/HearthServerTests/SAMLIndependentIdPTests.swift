import Foundation
import HTTPTypes
import HearthCore
import HearthPythonScripts
import HearthTesting
import HearthWire
import Testing

/// SAML sign-in with an IdP that is not Hearth's: scripts/saml-idp.py (signxml, lxml, cryptography) checks Hearth's
/// signed AuthnRequest with the SP certificate the admin API answers, and signs the response posted to the handler;
/// and the official firebase-admin Python SDK's SAML provider calls (scripts/firebase-admin-saml.py).
@Suite("SAML with an independent IdP and the Python Admin SDK")
struct SAMLIndependentIdPTests {
    static let idpEntityID = "https://idp.python.example/metadata"
    static let spEntityID = "https://hearth.example/sp"

    /// `scripts/python-venv.sh saml-idp.py arguments…` with `input`; its output (the test fails on a non-zero exit).
    static func samlIdP(_ arguments: [String], input: Data = Data()) throws -> Data {
        do {
            return try PythonScript("saml-idp.py").run(arguments, input: input)
        } catch let failure as PythonScript.Failure {
            throw HarnessError(failure.message)
        }
    }

    @Test("A signed AuthnRequest the script verifies with spConfig.spCertificates; its signed response posted to the handler signs in")
    func independentSigner() async throws {
        let venv = try await AdminSDKScriptTests.run(["/usr/bin/env", "python3", "-c", "import venv, ensurepip"], timeout: 60)
        if venv.status != 0 { try Test.cancel("python3 -m venv is missing (python3 with venv and ensurepip): \(venv.output)") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-saml-signin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try Self.samlIdP(["keygen", directory.path, "idp"])
        let idpCertificate = try String(contentsOf: directory.appendingPathComponent("idp.cert.pem"), encoding: .utf8)

        try await withBrowser { live, client, browser in
            let handler = live.baseURL + "/__/auth/handler"
            let config = InboundSamlConfig(
                idpConfig: .init(
                    idpEntityId: Self.idpEntityID, ssoUrl: "https://idp.python.example/sso",
                    idpCertificates: [.init(x509Certificate: idpCertificate)],
                    signRequest: true),
                spConfig: .init(spEntityId: Self.spEntityID, callbackUri: handler), displayName: "Python", enabled: true)
            let created = try await client.raw(
                "/v2/projects/\(live.projectID)/inboundSamlConfigs?inboundSamlConfigId=saml.python", method: .post,
                body: try JSONEncoder().encode(config), headers: SAMLSignInTests.owner)
            #expect(created.status == .ok, "\(created.text)")
            let spCertificate = try #require(try created.decode(InboundSamlConfig.self).spConfig?.spCertificates?.first?.x509Certificate)
            let spCertificateFile = directory.appendingPathComponent("sp.cert.pem")
            try spCertificate.write(to: spCertificateFile, atomically: true, encoding: .utf8)

            let started = try await client.createAuthUri(providerID: "saml.python", continueUri: SAMLSignInTests.returnURL, sessionId: "python-1")
            let authUri = try #require(started.string("authUri"), "\(started.text)")
            // The script checks the Redirect binding's signature with the SP certificate and inflates the request.
            let checked = try JSONDecoder().decode(
                [String: JSONValue].self, from: try Self.samlIdP(["redirect-check", spCertificateFile.path, authUri]))
            #expect(checked["signed"] == .bool(true))
            guard case .string(let request)? = checked["request"], case .string(let relayState)? = checked["relayState"] else {
                Issue.record("saml-idp.py redirect-check answered \(checked)")
                return
            }
            let requestID = try #require(request.firstMatch(of: /ID="([^"]+)"/)?.1).description
            #expect(request.contains("AssertionConsumerServiceURL=\"\(handler)\""))
            #expect(request.contains("<saml:Issuer>\(Self.spEntityID)</saml:Issuer>"))

            let now = Int(live.clock.now.timeIntervalSince1970)
            let spec: [String: JSONValue] = [
                "issuer": .string(Self.idpEntityID), "destination": .string(handler), "recipient": .string(handler),
                "audience": .array([.string(Self.spEntityID)]), "inResponseTo": .string(requestID), "nameID": .string("grace@python.example"),
                "nameIDFormat": .string("urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress"), "sessionIndex": .string("_session-1"),
                "attributes": .object(["displayName": .array([.string("Grace Hopper")]), "department": .array([.string("Navy")])]),
                "issueInstant": .number(Double(now)), "notBefore": .number(Double(now - 60)), "notOnOrAfter": .number(Double(now + 300)),
                "confirmationNotOnOrAfter": .number(Double(now + 300)), "responseID": .string("_response-\(UUID().uuidString)"),
                "assertionID": .string("_assertion-\(UUID().uuidString)"), "sign": .array([.string("assertion"), .string("response")]),
                "key": .string(directory.appendingPathComponent("idp.key.pem").path),
                "cert": .string(directory.appendingPathComponent("idp.cert.pem").path),
            ]
            let xml = try Self.samlIdP(["response"], input: Data(JSONValue.object(spec).jsonText.utf8))
            let answer = try await browser.post(handler, form: [("SAMLResponse", xml.base64EncodedString()), ("RelayState", relayState)])
            let app = try #require(answer.location.flatMap(URL.init(string:)), "\(answer.status) \(answer.text)")
            let link = try #require(app.queryValue("link"), "\(app)")
            let signedIn = try await client.completeBrowserSignIn(requestUri: link, sessionId: "python-1", providerID: "saml.python")
            #expect(signedIn.status == .ok, "\(signedIn.text)")
            #expect(signedIn.string("federatedId") == "grace@python.example")
            #expect(signedIn.string("displayName") == "Grace Hopper")
            let firebase = jwtClaims(try #require(signedIn.string("idToken")))["firebase"]?.objectValue
            #expect(firebase?["sign_in_attributes"]?.objectValue?["department"] == .string("Navy"))

            // The same response once more, with a new sign-in's state: it answers another request.
            let again = try await client.createAuthUri(providerID: "saml.python", continueUri: SAMLSignInTests.returnURL, sessionId: "python-2")
            let againURI = try #require(again.string("authUri"))
            let againRelay = try #require(URL(string: againURI)?.queryItems["RelayState"])
            let replayed = try await client.post(
                "/v1/accounts:signInWithIdp",
                [
                    "requestUri": .string(handler), "sessionId": .string("python-2"),
                    "postBody": .string("SAMLResponse=\(formEncoded(xml.base64EncodedString()))&RelayState=\(formEncoded(againRelay))"),
                ])
            #expect(replayed.errorMessage?.hasPrefix("INVALID_IDP_RESPONSE : ") == true, "\(replayed.text)")

            // An IdP that encrypts the assertion to spConfig.spCertificates: the SP's key opens it.
            let third = try await client.createAuthUri(providerID: "saml.python", continueUri: SAMLSignInTests.returnURL, sessionId: "python-3")
            let thirdChecked = try JSONDecoder().decode(
                [String: JSONValue].self, from: try Self.samlIdP(["redirect-check", spCertificateFile.path, try #require(third.string("authUri"))]))
            guard case .string(let thirdRequest)? = thirdChecked["request"], case .string(let thirdRelay)? = thirdChecked["relayState"] else {
                Issue.record("saml-idp.py redirect-check answered \(thirdChecked)")
                return
            }
            var encrypted = spec
            encrypted["inResponseTo"] = .string(try #require(thirdRequest.firstMatch(of: /ID="([^"]+)"/)?.1).description)
            encrypted["assertionID"] = .string("_assertion-\(UUID().uuidString)")
            encrypted["encryptTo"] = .string(spCertificateFile.path)
            let sealed = try Self.samlIdP(["response"], input: Data(JSONValue.object(encrypted).jsonText.utf8))
            #expect(String(decoding: sealed, as: UTF8.self).contains("EncryptedAssertion"))
            let opened = try await client.post(
                "/v1/accounts:signInWithIdp",
                [
                    "requestUri": .string(handler), "sessionId": .string("python-3"), "returnSecureToken": .bool(true),
                    "postBody": .string("SAMLResponse=\(formEncoded(sealed.base64EncodedString()))&RelayState=\(formEncoded(thirdRelay))"),
                ])
            #expect(opened.status == .ok, "\(opened.text)")
            #expect(opened.string("federatedId") == "grace@python.example")
        }
    }

    @Test("firebase-admin's create/get/update/list/delete_saml_provider_config, in the project and in a tenant")
    func firebaseAdminSAML() async throws {
        let venv = try await AdminSDKScriptTests.run(["/usr/bin/env", "python3", "-c", "import venv, ensurepip"], timeout: 60)
        if venv.status != 0 { try Test.cancel("python3 -m venv is missing (python3 with venv and ensurepip): \(venv.output)") }
        try await withLiveHearth(clock: ManualClock(Date())) { live in
            try await AdminSDKScriptTests.followingRealTime(live.clock) {
                let script = AdminSDKScriptTests.repository.appendingPathComponent("scripts/python-venv.sh").path
                let host = String(live.baseURL.dropFirst("http://".count))
                let result = try await AdminSDKScriptTests.run(
                    ["/bin/bash", script, "firebase-admin-saml.py"],
                    environment: ["FIREBASE_AUTH_EMULATOR_HOST": host, "HEARTH_PROJECT": live.projectID], timeout: 900)
                #expect(result.status == 0, "\(result.output)")
                #expect(result.output.contains("all checks passed"), "\(result.output)")
            }
        }
    }
}
