import AsyncHTTPClient
import Foundation
import HearthCore
import HearthProviders
import HearthSandbox
import HearthServer
import HearthTesting
import HearthWire
import NIOCore
import NIOHTTP1
import Testing

/// Browser sign-in over HTTP against a live server and the sandbox's consent pages: createAuthUri → the
/// provider's page → approve → the provider sends the browser to /__/auth/handler → the handler sends it to
/// the app's return URL → signInWithIdp with requestUri + sessionId.
@Suite("Browser sign-in over HTTP against the sandbox")
struct BrowserSignInTests {
    static let returnURL = "com.example.hearth:/oauth2redirect"
    /// Every provider with a browser flow: its id, a sandbox account, and the `federatedId` it signs in as.
    static let everyProvider = [
        ("google.com", SandboxIdentity.googleGmail.subject, "https://accounts.google.com/" + SandboxIdentity.googleGmail.subject),
        ("microsoft.com", SandboxIdentity.microsoftWork.subject, SandboxIdentity.microsoftWork.subject),
        ("apple.com", SandboxIdentity.appleAlice.subject, SandboxIdentity.appleAlice.subject),
        ("facebook.com", SandboxIdentity.facebookUser.subject, SandboxIdentity.facebookUser.subject),
        ("github.com", SandboxIdentity.githubUser.subject, SandboxIdentity.githubUser.subject),
        ("twitter.com", SandboxIdentity.twitterUser.subject, SandboxIdentity.twitterUser.subject),
        ("yahoo.com", SandboxIdentity.yahooUser.subject, SandboxIdentity.yahooUser.subject),
        ("oidc.sandbox", SandboxIdentity.oidcUser.subject, SandboxIdentity.oidcUser.subject),
    ]

    // MARK: Every provider

    @Test(
        "Round trip for every provider: authUri, consent, handler, return URL, signInWithIdp",
        arguments: Self.everyProvider)
    func roundTrip(providerID: String, subject: String, federatedID: String) async throws {
        try await withBrowser { live, client, browser in
            let started = try await client.createAuthUri(providerID: providerID, continueUri: Self.returnURL, sessionId: "session-\(providerID)")
            #expect(started.status == .ok, "\(started.text)")
            #expect(started.string("providerId") == providerID)
            #expect(started.string("sessionId") == "session-\(providerID)")
            let authUri = try #require(started.string("authUri"))
            #expect(authUri.hasPrefix(live.baseURL + "/sandbox/"))

            // The consent page is a real page listing the provider's test accounts.
            let page = try await browser.get(authUri)
            #expect(page.status == .ok)
            #expect(page.text.contains("Approve") && page.text.contains(subject))

            let app = try await browser.approve(authUri, subject: subject)
            #expect(app.absoluteString.hasPrefix(Self.returnURL + "?link="))
            let link = try #require(app.queryValue("link"))
            #expect(link.hasPrefix(live.baseURL + "/__/auth/handler?authResult="))

            let signedIn = try await client.completeBrowserSignIn(requestUri: link, sessionId: "session-\(providerID)", providerID: providerID)
            #expect(signedIn.status == .ok, "\(signedIn.text)")
            #expect(signedIn.string("providerId") == providerID)
            #expect(signedIn.string("federatedId") == federatedID)
            #expect(signedIn["isNewUser"] == .bool(true))
            let idToken = try #require(signedIn.string("idToken"))
            #expect(jwtClaims(idToken)["firebase"]?.objectValue?["sign_in_provider"] == .string(providerID))
            #expect(try await live.services.store.countUsers() == 1)
        }
    }

    @Test("behind a proxy: with server.publicURL and no browserSignIn.handlerURL, providers get the public handler, and the console shows it")
    func handlerAtThePublicURL() async throws {
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        do {
            try await withLiveHearth({ $0.publicURL = "https://auth.example.com" }) { live in
                let client = FirebaseTestClient(baseURL: live.baseURL)
                let started = try await client.createAuthUri(providerID: "google.com", continueUri: Self.returnURL)
                let authUri = try #require(started.string("authUri"))
                #expect(try #require(URL(string: authUri)).queryItems["redirect_uri"] == "https://auth.example.com/__/auth/handler")
                // Development mode: this machine's browser is the console's owner.
                let browser = TestBrowser(client: http, baseURL: live.baseURL)
                for path in ["/console/settings", "/console/settings/providers"] {
                    let page = try await browser.get(live.baseURL + path)
                    #expect(
                        page.text.contains("<code id=\"callback-url\">https://auth.example.com/__/auth/handler</code>") || path.hasSuffix("providers")
                    )
                    #expect(
                        page.text.contains("https://auth.example.com/__/auth/handler") && !page.text.contains(live.baseURL + "/__/auth/handler"),
                        "\(path)")
                }
            }
        } catch {
            try? await http.shutdown()
            throw error
        }
        try await http.shutdown()
    }

    @Test("Google: the person submits the consent form; PKCE and nonce are used; tokens come back when asked for")
    func googleThroughTheForm() async throws {
        try await withBrowser { live, client, browser in
            let started = try await client.createAuthUri(providerID: "google.com", continueUri: Self.returnURL)
            let sessionID = try #require(started.string("sessionId"))
            let authUri = try #require(started.string("authUri"))
            let query = try #require(URL(string: authUri)).queryItems
            #expect(query["code_challenge_method"] == "S256")
            #expect(query["code_challenge"]?.count == 43)
            #expect(query["nonce"]?.count == 64)
            #expect(query["scope"] == "openid email profile")
            #expect(query["redirect_uri"] == live.baseURL + "/__/auth/handler")

            let page = try await browser.get(authUri)
            var fields = page.hiddenInputs
            fields.append(("sandbox_subject", SandboxIdentity.googleGmail.subject))
            fields.append(("sandbox_decision", "approve"))
            let back = try await browser.post(authUri, form: fields)
            let app = try await browser.follow(back)

            let link = try #require(app.queryValue("link"))
            let signedIn = try await client.completeBrowserSignIn(
                requestUri: link, sessionId: sessionID, providerID: "google.com", returnIdpCredential: true)
            #expect(signedIn.status == .ok, "\(signedIn.text)")
            #expect(signedIn.string("email") == SandboxIdentity.googleGmail.email)
            #expect(signedIn.string("displayName") == "Grace Hopper")
            let oauthIdToken = try #require(signedIn.string("oauthIdToken"))
            #expect(jwtClaims(oauthIdToken)["sub"] == .string(SandboxIdentity.googleGmail.subject))
            #expect(signedIn.string("oauthAccessToken")?.hasPrefix("ya29.") == true)
            // Google's rawUserInfo names the scopes the token response says were granted (Google spells them out).
            let rawUserInfo = try #require(signedIn.string("rawUserInfo"))
            #expect(
                JSONValue.object(fromJSON: rawUserInfo)?["granted_scopes"]
                    == .string("openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile"),
                "\(rawUserInfo)")
        }
    }

    @Test("Without returnIdpCredential the provider's tokens stay on the server")
    func tokensOnlyWhenAsked() async throws {
        try await withBrowser { _, client, browser in
            let (link, sessionID) = try await browser.signIn(client, providerID: "github.com", subject: SandboxIdentity.githubUser.subject)
            let signedIn = try await client.completeBrowserSignIn(requestUri: link, sessionId: sessionID, providerID: "github.com")
            #expect(signedIn.status == .ok, "\(signedIn.text)")
            #expect(signedIn["oauthAccessToken"] == nil)
            #expect(signedIn.string("screenName") == "sandbox-mona")
        }
    }

    // MARK: Apple

    @Test("Apple: form_post with the first-time name; the second sign-in carries none and keeps the stored name")
    func appleFirstTimeName() async throws {
        try await withBrowser { live, client, browser in
            let subject = SandboxIdentity.appleAlice.subject
            let first = try await client.createAuthUri(providerID: "apple.com", continueUri: Self.returnURL, sessionId: "apple-1")
            let firstURI = try #require(first.string("authUri"))
            let firstQuery = try #require(URL(string: firstURI)).queryItems
            #expect(firstQuery["response_mode"] == "form_post")
            #expect(firstQuery["scope"] == "name email")
            let firstPost = try await browser.get(firstURI + "&sandbox_subject=\(formEncoded(subject))&sandbox_decision=approve")
            let firstFields = Dictionary(firstPost.hiddenInputs, uniquingKeysWith: { a, _ in a })
            #expect(firstFields["user"]?.contains("Appleseed") == true)
            let firstApp = try await browser.follow(firstPost)
            let firstSignIn = try await client.completeBrowserSignIn(
                requestUri: try #require(firstApp.queryValue("link")), sessionId: "apple-1", providerID: "apple.com", returnIdpCredential: true)
            #expect(firstSignIn.status == .ok, "\(firstSignIn.text)")
            #expect(firstSignIn.string("displayName") == "Alice Appleseed")
            #expect(firstSignIn.string("firstName") == "Alice")
            #expect(firstSignIn["isNewUser"] == .bool(true))
            #expect(firstSignIn.string("oauthIdToken") != nil)

            let second = try await client.createAuthUri(providerID: "apple.com", continueUri: Self.returnURL, sessionId: "apple-2")
            let secondPost = try await browser.get(
                try #require(second.string("authUri")) + "&sandbox_subject=\(formEncoded(subject))&sandbox_decision=approve")
            #expect(!secondPost.hiddenInputs.contains { $0.0 == "user" })
            let secondApp = try await browser.follow(secondPost)
            let secondSignIn = try await client.completeBrowserSignIn(
                requestUri: try #require(secondApp.queryValue("link")), sessionId: "apple-2", providerID: "apple.com")
            #expect(secondSignIn.status == .ok, "\(secondSignIn.text)")
            #expect(secondSignIn.string("localId") == firstSignIn.string("localId"))
            #expect(secondSignIn["firstName"] == nil)
            #expect(secondSignIn["isNewUser"] == nil)
            let uid = try #require(firstSignIn.string("localId"))
            let user = try #require(try await live.services.store.user(uid: uid))
            #expect(user.displayName == "Alice Appleseed")
        }
    }

    @Test("Apple's client secret is signed by Hearth, reused while young and renewed before it expires")
    func appleClientSecretRenewal() throws {
        var apple = ProvidersConfiguration.Apple(enabled: true, serviceIDs: ["com.example.web"])
        apple.teamID = "TEAM123456"
        apple.keyID = "KEY1234567"
        apple.privateKey = ProviderSecret(P256PrivateKeyPEM.make())
        apple.clientSecretLifetime = 180 * 86_400
        let t0 = Date(timeIntervalSince1970: 1_900_000_000)
        let first = try AppleClientSecretSigner.secret(for: apple, clientID: "com.example.web", now: t0)
        let header = jwtHeader(first)
        let claims = jwtClaims(first)
        #expect(header["alg"] == .string("ES256") && header["kid"] == .string("KEY1234567"))
        #expect(claims["iss"] == .string("TEAM123456") && claims["sub"] == .string("com.example.web"))
        #expect(claims["aud"] == .string("https://appleid.apple.com"))
        #expect(claims["exp"] == .number(1_900_000_000 + 180 * 86_400))
        #expect(try AppleClientSecretSigner.secret(for: apple, clientID: "com.example.web", now: t0.addingTimeInterval(86_400)) == first)
        let renewed = try AppleClientSecretSigner.secret(for: apple, clientID: "com.example.web", now: t0.addingTimeInterval(170 * 86_400))
        #expect(renewed != first)
        #expect(jwtClaims(renewed)["iat"] == .number(1_900_000_000 + 170 * 86_400))

        apple.clientSecretLifetime = 400 * 86_400
        let capped = try AppleClientSecretSigner.secret(for: apple, clientID: "com.example.other", now: t0)
        #expect(jwtClaims(capped)["exp"] == .number(1_900_000_000 + 15_777_000))
    }

    // MARK: Twitter

    @Test("Twitter: OAuth 1.0a through the browser; the token secret is on the credential and works")
    func twitterTokenSecret() async throws {
        try await withBrowser { live, client, browser in
            // The sandbox refuses oauth_* parameters sent two ways (RFC 5849 §3.5), so this also proves that the
            // request-token and access-token POSTs carry oauth_callback and oauth_verifier in the header.
            let started = try await client.createAuthUri(
                providerID: "twitter.com", continueUri: "http://127.0.0.1:49152/callback", customParameter: ["lang": "fr"], sessionId: "tw")
            #expect(started.status == .ok, "\(started.text)")
            let authUri = try #require(started.string("authUri"))
            #expect(authUri.contains("/sandbox/twitter/oauth/authenticate?oauth_token="))
            #expect(try #require(URL(string: authUri)).queryItems["lang"] == "fr")
            let app = try await browser.approve(authUri, subject: SandboxIdentity.twitterUser.subject)
            #expect(live.sandbox.lastAuthorizationRequest(.twitter)?["lang"] == "fr")
            #expect(app.absoluteString.hasPrefix("http://127.0.0.1:49152/callback?link="))
            let signedIn = try await client.completeBrowserSignIn(
                requestUri: try #require(app.queryValue("link")), sessionId: "tw", providerID: "twitter.com", returnIdpCredential: true)
            #expect(signedIn.status == .ok, "\(signedIn.text)")
            #expect(signedIn.string("screenName") == SandboxIdentity.twitterUser.screenName)
            let token = try #require(signedIn.string("oauthAccessToken"))
            let secret = try #require(signedIn.string("oauthTokenSecret"))
            #expect(!secret.isEmpty)

            // The same token and secret sign the user in again through the token path.
            let again = try await client.signInWithIdp(
                "providerId=twitter.com&access_token=\(formEncoded(token))&oauth_token_secret=\(formEncoded(secret))")
            #expect(again.status == .ok, "\(again.text)")
            #expect(again.string("localId") == signedIn.string("localId"))
        }
    }

    @Test("Twitter: a request token refused by Twitter (wrong consumer secret) fails createAuthUri with INVALID_IDP_RESPONSE")
    func twitterRequestTokenRefused() async throws {
        try await withBrowser(providers: { $0.twitter.consumerSecret = "hearth-test-wrong-consumer-secret" }) { live, client, _ in
            let refused = try await client.createAuthUri(
                providerID: "twitter.com", continueUri: Self.returnURL, customParameter: ["lang": "fr"], sessionId: "tw-refused")
            #expect(refused.status == .badRequest)
            #expect(refused.errorMessage == "INVALID_IDP_RESPONSE : Twitter refused the request token.")
            #expect(!refused.text.contains("hearth-test-wrong-consumer-secret"))
            #expect(try await live.services.store.countUsers() == 0)
        }
    }

    // MARK: Microsoft

    @Test("Microsoft: the tenant comes from the custom parameter and is checked against the allowed tenants")
    func microsoftTenants() async throws {
        let contoso = "3f2a9c1e-5b7d-4e8a-9c0f-1a2b3c4d5e6f"
        let fabrikam = "b4c7e2d1-8a3f-4c6b-9e5d-7f1a2b3c4d5e"
        try await withBrowser(providers: { $0.microsoft.allowedTenantIDs = [contoso] }) { live, client, browser in
            // A tenant the rule refuses is refused before the browser goes anywhere.
            let refused = try await client.createAuthUri(
                providerID: "microsoft.com", continueUri: Self.returnURL, customParameter: ["tenant": fabrikam])
            #expect(refused.status == .badRequest)
            #expect(refused.errorMessage == "INVALID_PROVIDER_ID : The Microsoft tenant \(fabrikam) is not allowed for this app.")

            // The allowed tenant: its authorize URL, its accounts.
            let allowed = try await client.createAuthUri(
                providerID: "microsoft.com", continueUri: Self.returnURL, customParameter: ["tenant": contoso], sessionId: "ms-1")
            let allowedURI = try #require(allowed.string("authUri"))
            #expect(allowedURI.contains("/sandbox/microsoft/\(contoso)/oauth2/v2.0/authorize?"))
            #expect(try #require(URL(string: allowedURI)).queryItems["tenant"] == nil)
            let page = try await browser.get(allowedURI)
            #expect(page.text.contains(SandboxIdentity.microsoftWork.subject))
            #expect(!page.text.contains(SandboxIdentity.microsoftUnverifiedEmail.subject))
            let app = try await browser.approve(allowedURI, subject: SandboxIdentity.microsoftWork.subject)
            let signedIn = try await client.completeBrowserSignIn(
                requestUri: try #require(app.queryValue("link")), sessionId: "ms-1", providerID: "microsoft.com", returnIdpCredential: true)
            #expect(signedIn.status == .ok, "\(signedIn.text)")
            #expect(signedIn.string("oauthAccessToken") != nil && signedIn.string("oauthIdToken") != nil)

            // `common` at the provider, but an account of a tenant the rule refuses: refused at signInWithIdp.
            let common = try await client.createAuthUri(providerID: "microsoft.com", continueUri: Self.returnURL, sessionId: "ms-2")
            let other = try await browser.approve(try #require(common.string("authUri")), subject: SandboxIdentity.microsoftUnverifiedEmail.subject)
            let rejected = try await client.completeBrowserSignIn(
                requestUri: try #require(other.queryValue("link")), sessionId: "ms-2", providerID: "microsoft.com")
            #expect(rejected.status == .badRequest)
            #expect(
                rejected.errorMessage
                    == "INVALID_IDP_RESPONSE : Invalid Microsoft id_token: accounts of tenant \(fabrikam) may not sign in to this app.")
            #expect(try await live.services.store.countUsers() == 1)
        }
    }

    @Test("Custom parameters reach the provider; reserved ones never override Hearth's; scopes are added")
    func customAndReservedParameters() async throws {
        try await withBrowser { live, client, browser in
            let started = try await client.createAuthUri(
                providerID: "microsoft.com", continueUri: Self.returnURL,
                customParameter: [
                    "prompt": "consent", "login_hint": "adele@contoso.com", "client_id": "evil-client",
                    "redirect_uri": "https://evil.example/steal", "response_type": "token", "state": "forged", "scope": "all",
                    "response_mode": "fragment",
                ],
                oauthScope: "User.Read email", sessionId: "params")
            #expect(started.status == .ok, "\(started.text)")
            let authUri = try #require(started.string("authUri"))
            let query = try #require(URL(string: authUri)).queryItems
            #expect(query["prompt"] == "consent")
            #expect(query["login_hint"] == "adele@contoso.com")
            #expect(query["client_id"] == live.sandbox.credentials.microsoft.clientID)
            #expect(query["redirect_uri"] == live.baseURL + "/__/auth/handler")
            #expect(query["response_type"] == "code")
            #expect(query["response_mode"] == "query")
            #expect(query["state"] != "forged")
            #expect(query["scope"] == "openid profile email User.Read")
            #expect(!authUri.contains("evil"))

            // At the provider: the page shows the passed parameter and preselects the hinted account.
            let page = try await browser.get(authUri)
            let received = try #require(live.sandbox.lastAuthorizationRequest(.microsoft))
            #expect(received["login_hint"] == "adele@contoso.com" && received["prompt"] == "consent")
            #expect(received["client_id"] == live.sandbox.credentials.microsoft.clientID)
            #expect(received["redirect_uri"] == live.baseURL + "/__/auth/handler")
            #expect(page.text.contains("login_hint=adele@contoso.com"))
            #expect(page.text.contains("value=\"\(SandboxIdentity.microsoftWork.subject)\" checked"))
            let app = try await browser.approve(authUri, subject: SandboxIdentity.microsoftWork.subject)
            let signedIn = try await client.completeBrowserSignIn(
                requestUri: try #require(app.queryValue("link")), sessionId: "params", providerID: "microsoft.com")
            #expect(signedIn.status == .ok, "\(signedIn.text)")
        }
    }

    // MARK: State

    @Test("A replayed state is refused with a page and creates nothing")
    func stateReplay() async throws {
        try await withBrowser { live, client, browser in
            let started = try await client.createAuthUri(providerID: "google.com", continueUri: Self.returnURL, sessionId: "replay")
            let authUri = try #require(started.string("authUri"))
            let back = try await browser.get(authUri + "&sandbox_subject=\(SandboxIdentity.googleGmail.subject)&sandbox_decision=approve")
            let handlerURL = try #require(back.location)
            let first = try await browser.get(handlerURL)
            #expect(first.status == .seeOther)
            let replayed = try await browser.get(handlerURL)
            #expect(replayed.status == .badRequest)
            #expect(replayed.text.contains("This sign-in link is not valid"))
            #expect(replayed.location == nil)
            #expect(try await live.services.store.countUsers() == 0)
        }
    }

    @Test("A tampered state is refused with a page; the genuine one still works")
    func stateTampered() async throws {
        try await withBrowser { live, client, browser in
            let started = try await client.createAuthUri(providerID: "github.com", continueUri: Self.returnURL, sessionId: "tamper")
            let back = try await browser.get(
                try #require(started.string("authUri")) + "&sandbox_subject=\(SandboxIdentity.githubUser.subject)&sandbox_decision=approve")
            let handlerURL = try #require(back.location)
            let state = try #require(URL(string: handlerURL)?.queryItems["state"])
            let tamperedState = String(state.dropLast()) + (state.hasSuffix("A") ? "B" : "A")
            let tampered = try await browser.get(handlerURL.replacingOccurrences(of: "state=\(state)", with: "state=\(tamperedState)"))
            #expect(tampered.status == .badRequest)
            #expect(tampered.text.contains("This sign-in link is not valid"))
            let missing = try await browser.get(live.baseURL + "/__/auth/handler?code=abc")
            #expect(missing.status == .badRequest && missing.text.contains("incomplete"))
            #expect(try await live.services.store.countUsers() == 0)

            let genuine = try await browser.follow(back)
            let signedIn = try await client.completeBrowserSignIn(
                requestUri: try #require(genuine.queryValue("link")), sessionId: "tamper", providerID: "github.com")
            #expect(signedIn.status == .ok, "\(signedIn.text)")
        }
    }

    @Test("An expired state is refused with a page and creates nothing")
    func stateExpiry() async throws {
        try await withBrowser { live, client, browser in
            let started = try await client.createAuthUri(providerID: "google.com", continueUri: Self.returnURL, sessionId: "slow")
            let back = try await browser.get(
                try #require(started.string("authUri")) + "&sandbox_subject=\(SandboxIdentity.googleGmail.subject)&sandbox_decision=approve")
            live.clock.advance(by: 601)
            let expired = try await browser.get(try #require(back.location))
            #expect(expired.status == .badRequest)
            #expect(expired.text.contains("This sign-in link has expired"))
            #expect(try await live.services.store.countUsers() == 0)
        }
    }

    @Test("The result is bound to the sessionId and used once")
    func resultBoundToSession() async throws {
        try await withBrowser { live, client, browser in
            let (link, sessionID) = try await browser.signIn(client, providerID: "facebook.com", subject: SandboxIdentity.facebookUser.subject)
            let wrong = try await client.completeBrowserSignIn(requestUri: link, sessionId: "someone-else", providerID: "facebook.com")
            #expect(wrong.status == .badRequest)
            #expect(wrong.errorMessage == "INVALID_IDP_RESPONSE : The browser sign-in belongs to another session.")
            let after = try await client.completeBrowserSignIn(requestUri: link, sessionId: sessionID, providerID: "facebook.com")
            #expect(after.errorMessage == "INVALID_IDP_RESPONSE : The browser sign-in result is unknown or was already used.")
            #expect(try await live.services.store.countUsers() == 0)

            let (link2, session2) = try await browser.signIn(client, providerID: "facebook.com", subject: SandboxIdentity.facebookUser.subject)
            let noSession = try await client.completeBrowserSignIn(requestUri: link2, sessionId: nil, providerID: "facebook.com")
            #expect(noSession.errorMessage == "INVALID_IDP_RESPONSE : The browser sign-in needs the sessionId of createAuthUri.")
            let ok = try await client.completeBrowserSignIn(requestUri: link2, sessionId: session2, providerID: "facebook.com")
            #expect(ok.status == .ok, "\(ok.text)")
            let twice = try await client.completeBrowserSignIn(requestUri: link2, sessionId: session2, providerID: "facebook.com")
            #expect(twice.errorMessage == "INVALID_IDP_RESPONSE : The browser sign-in result is unknown or was already used.")
        }
    }

    // MARK: Cancel

    @Test(
        "Cancelling at the provider sends the app auth/web-context-cancelled and creates nothing",
        arguments: ["google.com", "apple.com", "twitter.com", "github.com"])
    func cancel(providerID: String) async throws {
        try await withBrowser { live, client, browser in
            let started = try await client.createAuthUri(providerID: providerID, continueUri: Self.returnURL)
            let answer = try await browser.get(try #require(started.string("authUri")) + "&sandbox_decision=cancel")
            let app = try await browser.follow(answer)
            #expect(app.queryValue("link") == nil)
            let error = try #require(app.queryValue("firebaseError"))
            let object = try #require(JSONValue.object(fromJSON: error))
            #expect(object["code"] == .string("auth/web-context-cancelled"))
            #expect(object["message"] == .string("The interaction was cancelled by the user."))
            #expect(try await live.services.store.countUsers() == 0)
        }
    }

    // MARK: The provider refuses Hearth's client

    @Test(
        "A token endpoint that refuses Hearth's client secret reaches the app as firebaseError auth/invalid-oauth-client-id; nothing is created",
        arguments: [
            ("google.com", SandboxIdentity.googleGmail.subject, "invalid_client: Client authentication failed."),
            (
                "microsoft.com", SandboxIdentity.microsoftWork.subject,
                "invalid_client: AADSTS7000215: Invalid client secret provided. Client authentication failed."
            ),
            ("github.com", SandboxIdentity.githubUser.subject, "incorrect_client_credentials: Client authentication failed."),
        ])
    func wrongClientSecretAtTheHandler(providerID: String, subject: String, detail: String) async throws {
        let wrong = "hearth-test-wrong-client-secret"
        try await withBrowser(providers: { providers in
            providers.google.clientSecret = ProviderSecret(wrong)
            providers.microsoft.clientSecret = ProviderSecret(wrong)
            providers.gitHub.clientSecret = ProviderSecret(wrong)
        }) { live, client, browser in
            let started = try await client.createAuthUri(providerID: providerID, continueUri: Self.returnURL, sessionId: "wrong-secret")
            #expect(started.status == .ok, "\(started.text)")
            let app = try await browser.approve(try #require(started.string("authUri")), subject: subject)
            #expect(app.absoluteString.hasPrefix(Self.returnURL + "?firebaseError="))
            #expect(app.queryValue("link") == nil)
            let error = try #require(app.queryValue("firebaseError"))
            let object = try #require(JSONValue.object(fromJSON: error))
            #expect(
                object == [
                    "code": .string("auth/invalid-oauth-client-id"),
                    "message": .string("The OAuth client ID provided is either invalid or does not match the specified API key. \(detail)"),
                ])
            #expect(!error.contains(wrong))
            #expect(try await live.services.store.countUsers() == 0)
        }
    }

    // MARK: Link

    @Test("Link through the browser: an anonymous user adds GitHub with the session")
    func linkThroughBrowser() async throws {
        try await withBrowser { live, client, browser in
            let anonymous = try await client.signUpAnonymously()
            let (link, sessionID) = try await browser.signIn(client, providerID: "github.com", subject: SandboxIdentity.githubUser.subject)
            let linked = try await client.completeBrowserSignIn(
                requestUri: link, sessionId: sessionID, providerID: "github.com", idToken: anonymous.idToken)
            #expect(linked.status == .ok, "\(linked.text)")
            #expect(linked.string("localId") == anonymous.localId)
            #expect(linked["isNewUser"] == nil)
            let user = try #require(try await live.services.store.user(uid: anonymous.localId))
            #expect(user.providers.map(\.providerID) == ["github.com"])
            #expect(!user.isAnonymous)
        }
    }

    // MARK: Secrets

    @Test("Client secrets, Apple's key, codes, states and provider tokens stay out of the log, even at trace level")
    func secretsStayOutOfLogs() async throws {
        let logs = CapturedLogs()
        let live = try await LiveHearth.start(logger: logs.logger())
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        var seen: [String] = []
        do {
            let client = FirebaseTestClient(baseURL: live.baseURL)
            let browser = TestBrowser(client: http, baseURL: live.baseURL)
            for (providerID, subject) in [
                ("google.com", SandboxIdentity.googleGmail.subject), ("apple.com", SandboxIdentity.appleAlice.subject),
                ("twitter.com", SandboxIdentity.twitterUser.subject), ("microsoft.com", SandboxIdentity.microsoftWork.subject),
            ] {
                let started = try await client.createAuthUri(providerID: providerID, continueUri: Self.returnURL)
                let authUri = try #require(started.string("authUri"))
                let answer = try await browser.get(authUri + "&sandbox_subject=\(formEncoded(subject))&sandbox_decision=approve")
                if let location = answer.location, let items = URL(string: location)?.queryItems {
                    seen += [items["code"], items["state"], items["oauth_verifier"]].compactMap { $0 }
                }
                let app = try await browser.follow(answer)
                let link = try #require(app.queryValue("link"))
                seen.append(try #require(URL(string: link)?.queryItems["authResult"]))
                let sessionID = try #require(started.string("sessionId"))
                let signedIn = try await client.completeBrowserSignIn(
                    requestUri: link, sessionId: sessionID, providerID: providerID, returnIdpCredential: true)
                #expect(signedIn.status == .ok, "\(signedIn.text)")
                seen += [signedIn.string("oauthAccessToken"), signedIn.string("oauthTokenSecret"), signedIn.string("oauthIdToken")].compactMap { $0 }
            }
            let credentials = live.sandbox.credentials
            seen += [
                credentials.google.webClientSecret, credentials.twitter.consumerSecret, credentials.microsoft.clientSecret,
                String(credentials.apple.privateKeyPEM.split(separator: "\n")[1]),
            ]
        } catch {
            try? await http.shutdown()
            try? await live.stop()
            throw error
        }
        try await http.shutdown()
        try await live.stop()
        let text = logs.text
        #expect(text.contains("browser sign-in"))
        for secret in seen where secret.count >= 8 {
            #expect(!text.contains(secret), "a secret reached the log: \(secret.prefix(6))…")
        }
    }

    // MARK: Return URLs

    @Test("A look-alike of a registered return URL cannot carry a victim's sign-in to an attacker")
    func lookAlikeReturnURLs() async throws {
        try await withBrowser(providers: { $0.browserSignIn.returnURLs = ["https://app.example.com"] }) { live, client, browser in
            for stolen in [
                "https://app.example.com.evil.example/steal", "https://app.example.com:8443/", "ftp://evil.example/",
                "ws://evil.example/", "vbscript:msgbox(1)",
            ] {
                let started = try await client.createAuthUri(providerID: "google.com", continueUri: stolen, sessionId: "attacker-session")
                #expect(started.status == .badRequest, "\(stolen): \(started.text)")
                #expect(started.errorMessage == "UNAUTHORIZED_DOMAIN : Domain not whitelisted by project", "\(stolen)")
            }
            for malformed in [
                "https://app.example.com@evil.example/", "https://app.example.com%40evil.example/", "https://app.example.com\\@evil.example/",
                "https://app.example.com\t.evil.example/", "https://app.example.com/\u{0000}",
            ] {
                let started = try await client.createAuthUri(providerID: "google.com", continueUri: malformed, sessionId: "attacker-session")
                #expect(started.errorMessage == "INVALID_CONTINUE_URI", "\(malformed.debugDescription)")
            }
            // The registered origin still works end to end.
            let returnURL = "https://app.example.com/auth/done"
            let started = try await client.createAuthUri(providerID: "google.com", continueUri: returnURL, sessionId: "app-session")
            let authUri = try #require(started.string("authUri"), "\(started.text)")
            let app = try await browser.approve(authUri, subject: SandboxIdentity.googleGmail.subject)
            #expect(app.absoluteString.hasPrefix(returnURL + "?link="))
            let link = try #require(app.queryValue("link"))
            let signedIn = try await client.completeBrowserSignIn(requestUri: link, sessionId: "app-session", providerID: "google.com")
            #expect(signedIn.status == .ok, "\(signedIn.text)")
            #expect(try await live.services.store.countUsers() == 1)
        }
    }

    @Test("NUL bytes in a state, a sessionId, a return URL or a result id are refused the same way on both backends (found by the fuzz run)")
    func nulBytes() async throws {
        try await withBrowser { live, client, browser in
            let viaGET = try await browser.get(live.baseURL + "/__/auth/handler?state=a%00b")
            #expect(viaGET.status == .badRequest)
            #expect(viaGET.text.contains("This sign-in link is not valid"))
            let viaPOST = try await browser.post(live.baseURL + "/__/auth/handler", form: [("state", "\u{0}\u{B0}\u{16}")])
            #expect(viaPOST.status == .badRequest)
            #expect(viaPOST.text.contains("This sign-in link is not valid"))

            let session = try await client.createAuthUri(providerID: "google.com", continueUri: Self.returnURL, sessionId: "s\u{0}x")
            #expect(session.errorMessage == "Invalid JSON payload received. /sessionId must be 1 to 512 printable ASCII characters")
            let long = try await client.createAuthUri(
                providerID: "google.com", continueUri: Self.returnURL, sessionId: String(repeating: "s", count: 513))
            #expect(long.errorMessage == "Invalid JSON payload received. /sessionId must be 1 to 512 printable ASCII characters")
            let returnURL = try await client.createAuthUri(providerID: "google.com", continueUri: "com.example.app:/c\u{0}b")
            #expect(returnURL.errorMessage == "INVALID_CONTINUE_URI")

            let result = try await client.completeBrowserSignIn(
                requestUri: "http://localhost/?authResult=a%00b", sessionId: "s", providerID: "google.com")
            #expect(result.errorMessage == "INVALID_IDP_RESPONSE : The browser sign-in result is unknown or was already used.")
            #expect(try await live.services.store.countUsers() == 0)
        }
    }

    // MARK: createAuthUri input

    @Test("createAuthUri refuses unknown providers, missing and unregistered return URLs")
    func createAuthUriErrors() async throws {
        try await withBrowser { _, client, _ in
            let unknown = try await client.createAuthUri(providerID: "myspace.com", continueUri: Self.returnURL)
            #expect(unknown.errorMessage == "INVALID_PROVIDER_ID : Provider Id is not supported.")
            let missing = try await client.createAuthUri(providerID: "google.com", continueUri: nil)
            #expect(missing.errorMessage == "MISSING_CONTINUE_URI")
            let web = try await client.createAuthUri(providerID: "google.com", continueUri: "https://evil.example/")
            #expect(web.errorMessage == "UNAUTHORIZED_DOMAIN : Domain not whitelisted by project")
            let loopback = try await client.createAuthUri(providerID: "google.com", continueUri: "http://[::1]:8123/done")
            #expect(loopback.status == .ok, "\(loopback.text)")
        }
    }

    @Test("createAuthUri and signInWithIdp agree on what a known provider is: one switched off is OPERATION_NOT_ALLOWED in both")
    func knownProvidersAgree() async throws {
        try await withBrowser(providers: {
            $0.yahoo.enabled = false
            $0.oidc["sandbox"] = nil
        }) { _, client, _ in
            for providerID in ["yahoo.com", "oidc.sandbox"] {
                let started = try await client.createAuthUri(providerID: providerID, continueUri: Self.returnURL)
                #expect(started.errorMessage == "OPERATION_NOT_ALLOWED", "\(providerID)")
                let signedIn = try await client.signInWithIdp("providerId=\(providerID)&id_token=a.b.c")
                #expect(signedIn.errorMessage == "OPERATION_NOT_ALLOWED", "\(providerID)")
            }
            let unknownStart = try await client.createAuthUri(providerID: "myspace.com", continueUri: Self.returnURL)
            #expect(unknownStart.errorMessage == "INVALID_PROVIDER_ID : Provider Id is not supported.")
            let unknownSignIn = try await client.signInWithIdp("providerId=myspace.com&access_token=x")
            #expect(unknownSignIn.errorMessage?.hasPrefix("INVALID_CREDENTIAL_OR_PROVIDER_ID") == true)
        }
    }
}

// MARK: - Helpers

/// A live server, an API client, and a browser that does not follow redirects by itself.
func withBrowser(
    providers: @escaping @Sendable (inout ProvidersConfiguration) -> Void = { _ in },
    _ body: (LiveHearth, FirebaseTestClient, TestBrowser) async throws -> Void
) async throws {
    let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
    do {
        try await withLiveHearth(providers: providers) { live in
            try await body(live, FirebaseTestClient(baseURL: live.baseURL), TestBrowser(client: http, baseURL: live.baseURL))
        }
    } catch {
        try? await http.shutdown()
        throw error
    }
    try await http.shutdown()
}

/// What a browser would do with pages and redirects, one step at a time.
struct TestBrowser: Sendable {
    let client: HTTPClient
    let baseURL: String

    struct Page: Sendable {
        let status: HTTPResponseStatus
        let location: String?
        let text: String
        let url: String

        /// `<input type="hidden" name=… value=…>` of the page, unescaped.
        var hiddenInputs: [(String, String)] {
            let pattern = #"<input type="hidden" name="([^"]*)" value="([^"]*)">"#
            guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
            let range = NSRange(text.startIndex..., in: text)
            return regex.matches(in: text, range: range).compactMap { match in
                guard let name = Range(match.range(at: 1), in: text), let value = Range(match.range(at: 2), in: text) else { return nil }
                return (Self.unescape(String(text[name])), Self.unescape(String(text[value])))
            }
        }

        /// The `action` of the page's first form.
        var formAction: String? {
            guard let start = text.range(of: "action=\""), let end = text[start.upperBound...].firstIndex(of: "\"") else { return nil }
            return Self.unescape(String(text[start.upperBound..<end]))
        }

        static func unescape(_ text: String) -> String {
            text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
                .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&#39;", with: "'")
                .replacingOccurrences(of: "&amp;", with: "&")
        }
    }

    func get(_ url: String) async throws -> Page {
        try await send(HTTPClientRequest(url: url))
    }

    func post(_ url: String, form: [(String, String)]) async throws -> Page {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(string: form.map { "\(formEncoded($0.0))=\(formEncoded($0.1))" }.joined(separator: "&")))
        return try await send(request)
    }

    private func send(_ request: HTTPClientRequest) async throws -> Page {
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 4 << 20)
        return Page(status: response.status, location: response.headers.first(name: "Location"), text: String(buffer: body), url: request.url)
    }

    /// Follows the browser from a provider's answer (a redirect, or Apple's auto-submitting form) through
    /// Hearth's handler to the app's return URL, which it returns without opening.
    func follow(_ answer: Page) async throws -> URL {
        var page = answer
        for _ in 0..<5 {
            if page.status == .seeOther || page.status == .found, let location = page.location {
                guard location.hasPrefix(baseURL + "/") else { return try #require(URL(string: location)) }
                page = try await get(location)
            } else if page.status == .ok, let action = page.formAction, !action.isEmpty {
                page = try await post(action, form: page.hiddenInputs)
            } else {
                Issue.record("the browser stopped at HTTP \(page.status.code): \(page.text.prefix(300))")
                throw CancellationError()
            }
        }
        throw CancellationError()
    }

    /// Approves `subject` on the consent page at `authUri` (the scripted way) and follows to the app.
    func approve(_ authUri: String, subject: String) async throws -> URL {
        try await follow(try await get(authUri + "&sandbox_subject=\(formEncoded(subject))&sandbox_decision=approve"))
    }

    /// createAuthUri + approve: the `link` the app receives and the session id.
    func signIn(_ client: FirebaseTestClient, providerID: String, subject: String) async throws -> (link: String, sessionID: String) {
        let started = try await client.createAuthUri(providerID: providerID, continueUri: BrowserSignInTests.returnURL)
        let sessionID = try #require(started.string("sessionId"))
        let app = try await approve(try #require(started.string("authUri")), subject: subject)
        return (try #require(app.queryValue("link")), sessionID)
    }
}

extension FirebaseTestClient {
    /// `accounts:createAuthUri` with a provider.
    func createAuthUri(
        providerID: String, continueUri: String?, customParameter: [String: String] = [:], oauthScope: String? = nil,
        sessionId: String? = nil
    ) async throws -> WireResult {
        var body: [String: JSONValue] = ["providerId": .string(providerID)]
        if let continueUri { body["continueUri"] = .string(continueUri) }
        if !customParameter.isEmpty { body["customParameter"] = .object(customParameter.mapValues { .string($0) }) }
        if let oauthScope { body["oauthScope"] = .string(oauthScope) }
        if let sessionId { body["sessionId"] = .string(sessionId) }
        return try await post("/v1/accounts:createAuthUri", body)
    }

    /// `accounts:signInWithIdp` as an SDK finishes a browser sign-in: the `link` as `requestUri`, the session
    /// id, `postBody` `providerId=…`.
    func completeBrowserSignIn(
        requestUri: String, sessionId: String?, providerID: String, idToken: String? = nil, returnIdpCredential: Bool = false
    ) async throws -> WireResult {
        var body: [String: JSONValue] = [
            "requestUri": .string(requestUri), "postBody": .string("providerId=\(providerID)"), "returnSecureToken": .bool(true),
        ]
        if let sessionId { body["sessionId"] = .string(sessionId) }
        if let idToken { body["idToken"] = .string(idToken) }
        if returnIdpCredential { body["returnIdpCredential"] = .bool(true) }
        return try await post("/v1/accounts:signInWithIdp", body)
    }
}

extension URL {
    /// The first value of each query parameter, decoded.
    var queryItems: [String: String] {
        var result: [String: String] = [:]
        for item in URLComponents(url: self, resolvingAgainstBaseURL: false)?.queryItems ?? [] where result[item.name] == nil {
            result[item.name] = item.value ?? ""
        }
        return result
    }

    func queryValue(_ name: String) -> String? { queryItems[name] }
}

/// A fresh P-256 key as PKCS#8 PEM, like an Apple `.p8` file.
enum P256PrivateKeyPEM {
    static func make() -> String { SandboxCredentials.generate().apple.privateKeyPEM }
}
