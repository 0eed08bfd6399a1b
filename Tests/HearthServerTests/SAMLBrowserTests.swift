import Foundation
import HearthCore
import HearthTesting
import Testing

/// SAML sign-in as a person's browser runs it, in a real headless Chromium: createAuthUri, the sandbox IdP's page,
/// which posts the signed response to Hearth's handler by itself, the handler's redirect to the app, and
/// signInWithIdp with the link; in the project and in a tenant. Serialized: each test runs its own Chromium.
@Suite("SAML sign-in in Chromium", .serialized)
struct SAMLBrowserTests {
    @Test("In the project: the IdP's auto-posting form, the handler, the app's link, signInWithIdp", arguments: [false, true])
    func signIn(inTenant: Bool) async throws {
        try await withTestSite { site in
            try await withLiveHearth { live in
                let client = FirebaseTestClient(baseURL: live.baseURL)
                var tenantID: String?
                if inTenant {
                    let made = try await client.raw(
                        "/v2/projects/\(live.projectID)/tenants", method: .post, body: Data(#"{"displayName":"Acme"}"#.utf8),
                        headers: SAMLSignInTests.owner)
                    let id = try #require(made.string("tenantId"), "\(made.text)")
                    tenantID = id
                }
                let created = try await SAMLSignInTests.createConfig(live, client, id: "saml.sandbox", tenantID: tenantID)
                try #require(created.status == .ok, "\(created.text)")
                let returnURL = site.url("/done").absoluteString
                var body: [String: JSONValue] = [
                    "providerId": .string("saml.sandbox"), "continueUri": .string(returnURL), "sessionId": .string("chromium-saml"),
                ]
                if let tenantID { body["tenantId"] = .string(tenantID) }
                let started = try await client.post("/v1/accounts:createAuthUri", body)
                let authUri = try #require(started.string("authUri"), "\(started.text)")

                let link = try await HeadlessBrowser.with { browser in
                    let page = try await browser.newPage()
                    _ = try await page.navigate(to: try #require(URL(string: authUri)))
                    // The IdP's page submits itself; the handler sends the browser on to the app.
                    let landed = try await page.waitForURL { $0.path == "/done" }
                    #expect(landed.absoluteString.hasPrefix(returnURL + "?link="), "\(landed)")
                    #expect(try await page.text(of: "body") == "Signed in")
                    return try #require(landed.queryItems["link"])
                }
                #expect(link.hasPrefix(live.baseURL + "/__/auth/handler?authResult="))

                var finish: [String: JSONValue] = [
                    "requestUri": .string(link), "sessionId": .string("chromium-saml"), "returnSecureToken": .bool(true),
                    "postBody": .string("providerId=saml.sandbox"),
                ]
                if let tenantID { finish["tenantId"] = .string(tenantID) }
                let signedIn = try await client.post("/v1/accounts:signInWithIdp", finish)
                #expect(signedIn.status == .ok, "\(signedIn.text)")
                #expect(signedIn.string("federatedId") == SAMLSignInTests.ada)
                let firebase = jwtClaims(try #require(signedIn.string("idToken")))["firebase"]?.objectValue
                #expect(firebase?["sign_in_provider"] == .string("saml.sandbox"))
                #expect(firebase?["tenant"] == tenantID.map(JSONValue.string))
                #expect(firebase?["sign_in_attributes"]?.objectValue?["firstName"] == .string("Ada"))
            }
        }
    }
}
