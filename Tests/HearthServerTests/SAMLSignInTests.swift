import Foundation
import HTTPTypes
import HearthCore
import HearthSandbox
import HearthTesting
import HearthWire
import Testing

/// SAML providers (`saml.<name>`) over HTTP against a live server and the sandbox's SAML IdP: the admin API's
/// `inboundSamlConfigs` in the project and in a tenant, and sign-in through the redirect handler or with the posted
/// response in `signInWithIdp`'s `postBody`, with each class of refusal.
@Suite("SAML sign-in over HTTP against the sandbox IdP")
struct SAMLSignInTests {
    static let owner: HTTPFields = [.authorization: "Bearer owner", .contentType: "application/json"]
    static let returnURL = BrowserSignInTests.returnURL
    static let ada = "ada@saml.sandbox.test"

    // MARK: The admin API

    @Test("inboundSamlConfigs: create, get, list in pages, patch with updateMask, delete; the SP key never answered")
    func crud() async throws {
        try await withBrowser { live, client, _ in
            let base = "/v2/projects/\(live.projectID)/inboundSamlConfigs"
            let created = try await Self.createConfig(live, client, id: "saml.okta")
            #expect(created.status == .ok, "\(created.text)")
            #expect(created.string("name") == "projects/\(live.projectID)/inboundSamlConfigs/saml.okta")
            #expect(created.json["enabled"] == .bool(true))
            let config = try created.decode(InboundSamlConfig.self)
            #expect(config.idpConfig?.idpEntityId == live.sandbox.samlEntityID)
            #expect(config.idpConfig?.idpCertificates?.first?.x509Certificate == (try live.sandbox.samlCertificatePEM()))
            #expect(config.spConfig?.spEntityId == "https://hearth.example/sp")
            let spCertificate = try #require(config.spConfig?.spCertificates?.first?.x509Certificate)
            #expect(spCertificate.hasPrefix("-----BEGIN CERTIFICATE-----"))
            #expect(!created.text.contains("PRIVATE KEY"))

            let again = try await Self.createConfig(live, client, id: "saml.okta")
            #expect(again.errorMessage == "CONFIGURATION_EXISTS")
            _ = try await Self.createConfig(live, client, id: "saml.entra")
            let got = try await client.raw("\(base)/saml.entra", method: .get, headers: Self.owner)
            #expect(got.status == .ok)
            #expect(got.string("name")?.hasSuffix("/saml.entra") == true)

            let firstPage = try await client.raw("\(base)?pageSize=1", method: .get, headers: Self.owner)
            let listed = try firstPage.decode(ListInboundSamlConfigsResponse.self)
            #expect(listed.inboundSamlConfigs?.map(\.name) == ["projects/\(live.projectID)/inboundSamlConfigs/saml.entra"])
            let token = try #require(listed.nextPageToken)
            let second = try await client.raw("\(base)?pageSize=1&pageToken=\(token)", method: .get, headers: Self.owner)
            #expect(try second.decode(ListInboundSamlConfigsResponse.self).inboundSamlConfigs?.count == 1)
            // The OIDC collection does not list SAML providers.
            let oidc = try await client.raw("/v2/projects/\(live.projectID)/oauthIdpConfigs", method: .get, headers: Self.owner)
            #expect(!oidc.text.contains("saml."))

            let patched = try await client.raw(
                "\(base)/saml.okta?updateMask=displayName,idpConfig.ssoUrl,enabled", method: .patch,
                body: Data(#"{"displayName":"Okta","idpConfig":{"ssoUrl":"https://okta.example/sso"},"enabled":false}"#.utf8),
                headers: Self.owner)
            #expect(patched.status == .ok, "\(patched.text)")
            let after = try patched.decode(InboundSamlConfig.self)
            #expect(after.displayName == "Okta" && after.enabled == false)
            #expect(after.idpConfig?.ssoUrl == "https://okta.example/sso")
            #expect(after.idpConfig?.idpEntityId == live.sandbox.samlEntityID)
            // The SP certificate is kept across changes.
            #expect(after.spConfig?.spCertificates?.first?.x509Certificate == spCertificate)

            #expect(try await client.raw("\(base)/saml.okta", method: .delete, headers: Self.owner).status == .ok)
            #expect(try await client.raw("\(base)/saml.okta", method: .get, headers: Self.owner).errorMessage == "CONFIGURATION_NOT_FOUND")
            #expect(try await client.raw("\(base)/saml.okta", method: .delete, headers: Self.owner).errorMessage == "CONFIGURATION_NOT_FOUND")
        }
    }

    @Test("inboundSamlConfigs refuses a bad id and incomplete or unreadable settings")
    func validation() async throws {
        try await withBrowser { live, client, _ in
            let pem = try live.sandbox.samlCertificatePEM()
            let refused = try await Self.createConfig(live, client, id: "oidc.okta")
            #expect(refused.errorMessage?.hasPrefix("INVALID_PROVIDER_ID") == true, "\(refused.text)")
            let upper = try await Self.createConfig(live, client, id: "saml.")
            #expect(upper.errorMessage?.hasPrefix("INVALID_PROVIDER_ID") == true)
            let cases: [(String, String)] = [
                (
                    #"{"idpConfig":{"ssoUrl":"https://idp/sso","idpCertificates":[{"x509Certificate":"PEM"}]},"spConfig":{"spEntityId":"sp"}}"#,
                    "idpEntityId"
                ),
                (#"{"idpConfig":{"idpEntityId":"idp","idpCertificates":[{"x509Certificate":"PEM"}]},"spConfig":{"spEntityId":"sp"}}"#, "ssoUrl"),
                (#"{"idpConfig":{"idpEntityId":"idp","ssoUrl":"https://idp/sso"},"spConfig":{"spEntityId":"sp"}}"#, "idpCertificates"),
                (
                    #"{"idpConfig":{"idpEntityId":"idp","ssoUrl":"https://idp/sso","idpCertificates":[{"x509Certificate":"not a certificate"}]},"spConfig":{"spEntityId":"sp"}}"#,
                    "idpCertificates[0]"
                ),
                (#"{"idpConfig":{"idpEntityId":"idp","ssoUrl":"https://idp/sso","idpCertificates":[{"x509Certificate":"PEM"}]}}"#, "spEntityId"),
            ]
            for (body, field) in cases {
                let json = body.replacingOccurrences(of: "\"PEM\"", with: JSONValue.string(pem).jsonText)
                let answer = try await client.raw(
                    "/v2/projects/\(live.projectID)/inboundSamlConfigs?inboundSamlConfigId=saml.bad", method: .post, body: Data(json.utf8),
                    headers: Self.owner)
                #expect(answer.status == .badRequest)
                #expect(answer.errorMessage?.hasPrefix("INVALID_CONFIG : ") == true && answer.errorMessage?.contains(field) == true, "\(answer.text)")
            }
        }
    }

    // MARK: Sign-in

    @Test("Through the redirect handler: AuthnRequest, the IdP's posted response, the app's link, signInWithIdp; attributes in the token")
    func handlerRoundTrip() async throws {
        try await withBrowser { live, client, browser in
            try #require(try await Self.createConfig(live, client, id: "saml.sandbox").status == .ok)
            let started = try await client.createAuthUri(providerID: "saml.sandbox", continueUri: Self.returnURL, sessionId: "saml-1")
            #expect(started.status == .ok, "\(started.text)")
            #expect(started.string("providerId") == "saml.sandbox")
            let authUri = try #require(started.string("authUri"))
            #expect(authUri.hasPrefix(live.sandbox.samlSSOURL + "?SAMLRequest="))
            #expect(try #require(URL(string: authUri)).queryItems["RelayState"]?.utf8.count == 43)

            // The IdP's page posts SAMLResponse and RelayState to the handler, which sends the browser to the app.
            let app = try await browser.follow(try await browser.get(authUri))
            let sent = try #require(live.sandbox.lastSAMLRequest())
            #expect(sent.assertionConsumerServiceURL == live.baseURL + "/__/auth/handler")
            #expect(sent.issuer == "https://hearth.example/sp")
            #expect(app.absoluteString.hasPrefix(Self.returnURL + "?link="), "\(app)")
            let link = try #require(app.queryValue("link"))

            let signedIn = try await client.completeBrowserSignIn(requestUri: link, sessionId: "saml-1", providerID: "saml.sandbox")
            #expect(signedIn.status == .ok, "\(signedIn.text)")
            #expect(signedIn.string("providerId") == "saml.sandbox")
            #expect(signedIn.string("federatedId") == Self.ada)
            #expect(signedIn.string("email") == Self.ada)
            #expect(signedIn.string("firstName") == "Ada")
            #expect(signedIn["isNewUser"] == .bool(true))
            let raw = try #require(signedIn.string("rawUserInfo").flatMap(JSONValue.object(fromJSON:)))
            #expect(raw["groups"] == .array([.string("engineering"), .string("admins")]))
            #expect(raw["firstName"] == .string("Ada"))
            let idToken = try #require(signedIn.string("idToken"))
            let firebase = try #require(jwtClaims(idToken)["firebase"]?.objectValue)
            #expect(firebase["sign_in_provider"] == .string("saml.sandbox"))
            #expect(firebase["sign_in_attributes"]?.objectValue?["lastName"] == .string("Lovelace"))
            #expect(firebase["identities"]?.objectValue?["saml.sandbox"] == .array([.string(Self.ada)]))

            // A refreshed token keeps the attributes of the sign-in.
            let refreshed = try await client.refresh(try #require(signedIn.string("refreshToken")))
            let refreshedToken = try #require(refreshed.string("id_token"), "\(refreshed.text)")
            let again = try #require(jwtClaims(refreshedToken)["firebase"]?.objectValue)
            #expect(again["sign_in_attributes"]?.objectValue?["groups"] == .array([.string("engineering"), .string("admins")]))

            // The result is used up, and a second sign-in finds the same account.
            let reused = try await client.completeBrowserSignIn(requestUri: link, sessionId: "saml-1", providerID: "saml.sandbox")
            #expect(reused.errorMessage?.hasPrefix("INVALID_IDP_RESPONSE") == true)
            let second = try await Self.signInThroughHandler(live, client, browser, providerID: "saml.sandbox", sessionID: "saml-2")
            #expect(second.status == .ok && second["isNewUser"] == nil, "\(second.text)")
            #expect(second.string("localId") == signedIn.string("localId"))
        }
    }

    @Test("With the posted response in postBody (Firebase's handler does this), and with linking to a signed-in account")
    func postBody() async throws {
        try await withBrowser { live, client, browser in
            try #require(try await Self.createConfig(live, client, id: "saml.sandbox").status == .ok)
            let anonymous = try await client.signUpAnonymously()
            let posted = try await Self.postedResponse(live, client, browser, providerID: "saml.sandbox", sessionID: "saml-post")
            let linked = try await Self.signInWithPostBody(
                client, posted: posted, requestUri: live.baseURL + "/__/auth/handler", sessionID: "saml-post", idToken: anonymous.idToken)
            #expect(linked.status == .ok, "\(linked.text)")
            #expect(linked.string("localId") == anonymous.localId)
            #expect(linked.string("providerId") == "saml.sandbox")
            let lookup = try await client.lookup(try #require(linked.string("idToken")))
            #expect(lookup.text.contains("\"providerId\":\"saml.sandbox\"") && lookup.text.contains("\"rawId\":\"\(Self.ada)\""), "\(lookup.text)")
        }
    }

    @Test("Every refusal is INVALID_IDP_RESPONSE (OPERATION_NOT_ALLOWED for a provider switched off), never a 500")
    func refusals() async throws {
        try await withBrowser { live, client, browser in
            try #require(try await Self.createConfig(live, client, id: "saml.sandbox").status == .ok)
            let handler = live.baseURL + "/__/auth/handler"
            func expectRefused(_ answer: WireResult, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
                #expect(answer.status == .badRequest, "\(what)", sourceLocation: sourceLocation)
                #expect(answer.errorMessage?.hasPrefix("INVALID_IDP_RESPONSE : ") == true, "\(what): \(answer.text)", sourceLocation: sourceLocation)
            }

            // Another session's id.
            var posted = try await Self.postedResponse(live, client, browser, providerID: "saml.sandbox", sessionID: "s-1")
            expectRefused(try await Self.signInWithPostBody(client, posted: posted, requestUri: handler, sessionID: "s-other"), "another session")
            // The state is used up by that refusal: the same response again is refused.
            expectRefused(try await Self.signInWithPostBody(client, posted: posted, requestUri: handler, sessionID: "s-1"), "used state")

            // A tampered response: the signature no longer verifies.
            posted = try await Self.postedResponse(live, client, browser, providerID: "saml.sandbox", sessionID: "s-2")
            var xml = try #require(Data(base64Encoded: posted.response).map { String(decoding: $0, as: UTF8.self) })
            xml = xml.replacingOccurrences(of: Self.ada, with: "eve@saml.sandbox.test")
            let tampered = (Data(xml.utf8).base64EncodedString(), posted.relayState)
            expectRefused(try await Self.signInWithPostBody(client, posted: tampered, requestUri: handler, sessionID: "s-2"), "tampered")

            // Not base64.
            posted = try await Self.postedResponse(live, client, browser, providerID: "saml.sandbox", sessionID: "s-3")
            expectRefused(
                try await Self.signInWithPostBody(client, posted: ("%%%not base64", posted.relayState), requestUri: handler, sessionID: "s-3"),
                "not base64")

            // Unsigned.
            live.sandbox.setSAMLSigning(assertion: false, response: false)
            posted = try await Self.postedResponse(live, client, browser, providerID: "saml.sandbox", sessionID: "s-4")
            expectRefused(try await Self.signInWithPostBody(client, posted: posted, requestUri: handler, sessionID: "s-4"), "unsigned")
            live.sandbox.setSAMLSigning(assertion: true, response: true)

            // Expired: the assertion lives 5 minutes, and 2 more are allowed for the clocks (the sign-in lives 10).
            posted = try await Self.postedResponse(live, client, browser, providerID: "saml.sandbox", sessionID: "s-5")
            live.clock.advance(by: 430)
            expectRefused(try await Self.signInWithPostBody(client, posted: posted, requestUri: handler, sessionID: "s-5"), "expired")

            // A response to another sign-in's request, posted with this sign-in's RelayState.
            let first = try await Self.postedResponse(live, client, browser, providerID: "saml.sandbox", sessionID: "s-6")
            let other = try await Self.postedResponse(live, client, browser, providerID: "saml.sandbox", sessionID: "s-6")
            expectRefused(
                try await Self.signInWithPostBody(client, posted: (first.response, other.relayState), requestUri: handler, sessionID: "s-6"),
                "InResponseTo of another request")

            // Addressed to another SP (the audience), signed by the IdP all the same.
            posted = try await Self.postedResponse(live, client, browser, providerID: "saml.sandbox", sessionID: "s-7")
            let request = try #require(live.sandbox.lastSAMLRequest())
            let foreign = try live.sandbox.samlResponse(
                for: SandboxSAMLUser.presets[0], audience: "https://someone-else.example", acsURL: handler, inResponseTo: request.id)
            expectRefused(
                try await Self.signInWithPostBody(
                    client, posted: (Data(foreign.utf8).base64EncodedString(), posted.relayState), requestUri: handler, sessionID: "s-7"),
                "another audience")

            // An unknown RelayState, and none.
            expectRefused(
                try await Self.signInWithPostBody(
                    client, posted: (posted.response, String(repeating: "A", count: 43)), requestUri: handler, sessionID: "s-7"),
                "unknown RelayState")
            expectRefused(
                try await Self.signInWithPostBody(client, posted: (posted.response, ""), requestUri: handler, sessionID: "s-7"), "no RelayState")

            // A SAML "credential" the app makes up: SAML has none.
            let madeUp = try await client.post(
                "/v1/accounts:signInWithIdp",
                [
                    "requestUri": .string(handler), "returnSecureToken": .bool(true),
                    "postBody": .string("providerId=saml.sandbox&id_token=x&saml_profile=%7B%22providerID%22%3A%22saml.sandbox%22%7D"),
                ])
            expectRefused(madeUp, "a made-up credential")

            // The handler shows the refusal to the app as firebaseError, never a 500.
            posted = try await Self.postedResponse(live, client, browser, providerID: "saml.sandbox", sessionID: "s-8")
            let answer = try await browser.post(handler, form: [("SAMLResponse", tampered.0), ("RelayState", posted.relayState)])
            #expect(answer.status == .seeOther, "\(answer.text)")
            #expect(answer.location?.hasPrefix(Self.returnURL + "?firebaseError=") == true, "\(answer.location ?? "")")
            // As FirebaseAuth names INVALID_IDP_RESPONSE: the app sees the same code as from signInWithIdp.
            let firebaseError = URLComponents(string: answer.location ?? "")?.queryItems?.first { $0.name == "firebaseError" }?.value ?? ""
            #expect(firebaseError.contains(#""code":"auth/invalid-credential""#), "\(firebaseError)")

            // Switched off.
            _ = try await client.raw(
                "/v2/projects/\(live.projectID)/inboundSamlConfigs/saml.sandbox?updateMask=enabled", method: .patch,
                body: Data(#"{"enabled":false}"#.utf8), headers: Self.owner)
            let off = try await client.createAuthUri(providerID: "saml.sandbox", continueUri: Self.returnURL)
            #expect(off.errorMessage == "OPERATION_NOT_ALLOWED", "\(off.text)")
        }
    }

    @Test("In a tenant: its own inboundSamlConfigs, sign-in through the handler, tokens of the tenant; the project's users untouched")
    func tenant() async throws {
        try await withBrowser { live, client, browser in
            let made = try await client.raw(
                "/v2/projects/\(live.projectID)/tenants", method: .post, body: Data(#"{"displayName":"Acme"}"#.utf8), headers: Self.owner)
            let tenantID = try #require(made.string("tenantId"), "\(made.text)")
            let created = try await Self.createConfig(live, client, id: "saml.acme", tenantID: tenantID)
            #expect(created.string("name") == "projects/\(live.projectID)/tenants/\(tenantID)/inboundSamlConfigs/saml.acme", "\(created.text)")
            // Not the project's.
            let projects = try await client.raw("/v2/projects/\(live.projectID)/inboundSamlConfigs/saml.acme", method: .get, headers: Self.owner)
            #expect(projects.errorMessage == "CONFIGURATION_NOT_FOUND")
            let outside = try await client.createAuthUri(providerID: "saml.acme", continueUri: Self.returnURL)
            #expect(outside.status == .badRequest)

            let signedIn = try await Self.signInThroughHandler(live, client, browser, providerID: "saml.acme", sessionID: "t-1", tenantID: tenantID)
            #expect(signedIn.status == .ok, "\(signedIn.text)")
            let claims = jwtClaims(try #require(signedIn.string("idToken")))
            #expect(claims["firebase"]?.objectValue?["tenant"] == .string(tenantID))
            #expect(claims["firebase"]?.objectValue?["sign_in_provider"] == .string("saml.acme"))
            #expect(try await live.services.store.countUsers() == 0)
        }
    }

    // MARK: Helpers

    /// Creates `saml.<name>` pointing at the sandbox IdP, in the project or a tenant.
    static func createConfig(_ live: LiveHearth, _ client: FirebaseTestClient, id: String, tenantID: String? = nil) async throws -> WireResult {
        let config = InboundSamlConfig(
            idpConfig: .init(
                idpEntityId: live.sandbox.samlEntityID, ssoUrl: live.sandbox.samlSSOURL,
                idpCertificates: [.init(x509Certificate: try live.sandbox.samlCertificatePEM())], signRequest: false),
            spConfig: .init(spEntityId: "https://hearth.example/sp"), displayName: "Sandbox", enabled: true)
        let scope = tenantID.map { "/tenants/\($0)" } ?? ""
        return try await client.raw(
            "/v2/projects/\(live.projectID)\(scope)/inboundSamlConfigs?inboundSamlConfigId=\(id)", method: .post,
            body: try JSONEncoder().encode(config), headers: owner)
    }

    /// createAuthUri, the IdP's page, and the form it would post: `SAMLResponse` and `RelayState`.
    static func postedResponse(
        _ live: LiveHearth, _ client: FirebaseTestClient, _ browser: TestBrowser, providerID: String, sessionID: String, tenantID: String? = nil
    ) async throws -> (response: String, relayState: String) {
        var body: [String: JSONValue] = [
            "providerId": .string(providerID), "continueUri": .string(returnURL), "sessionId": .string(sessionID),
        ]
        if let tenantID { body["tenantId"] = .string(tenantID) }
        let started = try await client.post("/v1/accounts:createAuthUri", body)
        let authUri = try #require(started.string("authUri"), "\(started.text)")
        let page = try await browser.get(authUri)
        let fields = Dictionary(page.hiddenInputs) { first, _ in first }
        return (try #require(fields["SAMLResponse"]), try #require(fields["RelayState"]))
    }

    static func signInWithPostBody(
        _ client: FirebaseTestClient, posted: (response: String, relayState: String), requestUri: String, sessionID: String,
        idToken: String? = nil, tenantID: String? = nil
    ) async throws -> WireResult {
        var body: [String: JSONValue] = [
            "requestUri": .string(requestUri), "sessionId": .string(sessionID), "returnSecureToken": .bool(true),
            "postBody": .string("SAMLResponse=\(formEncoded(posted.response))&RelayState=\(formEncoded(posted.relayState))"),
        ]
        if let idToken { body["idToken"] = .string(idToken) }
        if let tenantID { body["tenantId"] = .string(tenantID) }
        return try await client.post("/v1/accounts:signInWithIdp", body)
    }

    /// The whole sign-in through the redirect handler: createAuthUri, the IdP, the handler, signInWithIdp.
    static func signInThroughHandler(
        _ live: LiveHearth, _ client: FirebaseTestClient, _ browser: TestBrowser, providerID: String, sessionID: String, tenantID: String? = nil
    ) async throws -> WireResult {
        let posted = try await postedResponse(live, client, browser, providerID: providerID, sessionID: sessionID, tenantID: tenantID)
        let answer = try await browser.post(
            live.baseURL + "/__/auth/handler", form: [("SAMLResponse", posted.response), ("RelayState", posted.relayState)])
        let app = try #require(answer.location.flatMap(URL.init(string:)), "\(answer.status) \(answer.text)")
        let link = try #require(app.queryValue("link"), "\(app)")
        var body: [String: JSONValue] = [
            "requestUri": .string(link), "sessionId": .string(sessionID), "returnSecureToken": .bool(true),
            "postBody": .string("providerId=\(providerID)"),
        ]
        if let tenantID { body["tenantId"] = .string(tenantID) }
        return try await client.post("/v1/accounts:signInWithIdp", body)
    }
}
