import Configuration
import Foundation
import HearthConfiguration
import HearthCore
import HearthProviders
import HearthSandbox
import HearthServer
import HearthTesting
import HearthWire
import Testing

/// Firebase's own mode of browser sign-in over HTTP against the sandbox: `createAuthUri` with the app's
/// redirect URI as `continueUri` → the provider's page → the provider sends the browser to the app (never to
/// Hearth) → the app calls `signInWithIdp` with that callback URL as `requestUri` (Apple: the posted form as
/// `postBody`) and the `sessionId`.
@Suite("Browser sign-in with the app's own redirect URI (Firebase's callback mode)")
struct BrowserCallbackModeTests {
    static let callbackURL = "https://app.example.com/__/auth/callback"
    static let nativeCallbackURL = "com.googleusercontent.apps.123-abc:/oauth2redirect"

    /// A live server whose browser sign-in knows the app's two redirect URIs.
    func withCallbackBrowser(
        providers: @escaping @Sendable (inout ProvidersConfiguration) -> Void = { _ in },
        _ body: (LiveHearth, FirebaseTestClient, TestBrowser) async throws -> Void
    ) async throws {
        try await withBrowser(
            providers: {
                $0.browserSignIn.callbackURLs = [Self.callbackURL, Self.nativeCallbackURL]
                providers(&$0)
            }, body)
    }

    // MARK: Every provider

    @Test(
        "Round trip for every provider: the provider's callback handed to signInWithIdp",
        arguments: BrowserSignInTests.everyProvider)
    func roundTrip(providerID: String, subject: String, federatedID: String) async throws {
        try await withCallbackBrowser { live, client, browser in
            let sessionID = "callback-\(providerID)"
            let started = try await client.createAuthUri(providerID: providerID, continueUri: Self.callbackURL, sessionId: sessionID)
            #expect(started.status == .ok, "\(started.text)")
            let authUri = try #require(started.string("authUri"))
            if providerID != "twitter.com" {
                // The provider is told to send the browser to the app, not to Hearth.
                #expect(try #require(URL(string: authUri)).queryItems["redirect_uri"] == Self.callbackURL)
            }

            let callback = try await browser.providerCallback(authUri, subject: subject)
            #expect(callback.requestUri.hasPrefix(Self.callbackURL + "?") || callback.postBody != nil)
            let signedIn = try await client.finishCallback(callback, sessionId: sessionID, returnIdpCredential: true)
            #expect(signedIn.status == .ok, "\(signedIn.text)")
            #expect(signedIn.string("providerId") == providerID)
            #expect(signedIn.string("federatedId") == federatedID)
            #expect(signedIn["isNewUser"] == .bool(true))
            #expect(signedIn.string("oauthAccessToken") != nil || signedIn.string("oauthIdToken") != nil)
            let idToken = try #require(signedIn.string("idToken"))
            #expect(jwtClaims(idToken)["firebase"]?.objectValue?["sign_in_provider"] == .string(providerID))
            #expect(try await live.services.store.countUsers() == 1)

            // The same callback again: the state was used.
            let replayed = try await client.finishCallback(callback, sessionId: sessionID)
            #expect(replayed.status == .badRequest)
            #expect(replayed.errorMessage == "INVALID_IDP_RESPONSE : The browser sign-in state is unknown or was already used.")
        }
    }

    @Test("Google: PKCE and nonce as in the handler mode; a native app's own scheme works as the redirect URI")
    func googleNativeRedirect() async throws {
        try await withCallbackBrowser { live, client, browser in
            let started = try await client.createAuthUri(providerID: "google.com", continueUri: Self.nativeCallbackURL, sessionId: "native")
            let authUri = try #require(started.string("authUri"))
            let query = try #require(URL(string: authUri)).queryItems
            #expect(query["redirect_uri"] == Self.nativeCallbackURL)
            #expect(query["code_challenge_method"] == "S256")
            #expect(query["nonce"]?.count == 64)
            let callback = try await browser.providerCallback(authUri, subject: SandboxIdentity.googleGmail.subject)
            #expect(callback.requestUri.hasPrefix(Self.nativeCallbackURL + "?"))
            let signedIn = try await client.finishCallback(callback, sessionId: "native")
            #expect(signedIn.status == .ok, "\(signedIn.text)")
            #expect(signedIn.string("email") == SandboxIdentity.googleGmail.email)
            // Without returnIdpCredential the provider's tokens stay on the server, as in the handler mode.
            #expect(signedIn["oauthAccessToken"] == nil)
        }
    }

    @Test("Apple: the form_post handed over as postBody, with the first-time name")
    func appleFormPost() async throws {
        try await withCallbackBrowser { live, client, browser in
            let started = try await client.createAuthUri(providerID: "apple.com", continueUri: Self.callbackURL, sessionId: "apple")
            let authUri = try #require(started.string("authUri"))
            #expect(try #require(URL(string: authUri)).queryItems["response_mode"] == "form_post")
            let callback = try await browser.providerCallback(authUri, subject: SandboxIdentity.appleAlice.subject)
            #expect(callback.requestUri == Self.callbackURL)
            let postBody = try #require(callback.postBody)
            #expect(postBody.contains("code=") && postBody.contains("state=") && postBody.contains("user="))
            let signedIn = try await client.finishCallback(callback, sessionId: "apple", providerID: "apple.com")
            #expect(signedIn.status == .ok, "\(signedIn.text)")
            #expect(signedIn.string("firstName") == "Alice")
            #expect(signedIn.string("displayName") == "Alice Appleseed")
        }
    }

    // MARK: Refusals

    @Test("The callback is bound to the sessionId of createAuthUri, and used up by a wrong one")
    func boundToSession() async throws {
        try await withCallbackBrowser { live, client, browser in
            let callback = try await browser.startAndApprove(client, "github.com", SandboxIdentity.githubUser.subject, sessionId: "mine")
            let none = try await client.finishCallback(callback, sessionId: nil)
            #expect(none.status == .badRequest)
            #expect(none.errorMessage == "INVALID_IDP_RESPONSE : The browser sign-in needs the sessionId of createAuthUri.")
            let wrong = try await client.finishCallback(callback, sessionId: "theirs")
            #expect(wrong.errorMessage == "INVALID_IDP_RESPONSE : The browser sign-in belongs to another session.")
            let after = try await client.finishCallback(callback, sessionId: "mine")
            #expect(after.errorMessage == "INVALID_IDP_RESPONSE : The browser sign-in state is unknown or was already used.")
            #expect(try await live.services.store.countUsers() == 0)
        }
    }

    @Test("A requestUri that is not the continueUri is refused, compared as parsed URLs")
    func mismatchedRequestUri() async throws {
        try await withCallbackBrowser { live, client, browser in
            let lookAlikes = [
                "https://app.example.com/__/auth/other", "https://app.example.com.evil.example/__/auth/callback",
                "http://app.example.com/__/auth/callback", "https://app.example.com:8443/__/auth/callback",
                "https://app.example.com@evil.example/__/auth/callback", "https://app.example.com/__/auth/callback/../callback",
                "https://app.example.com/__/auth/callback%00",
            ]
            for lookAlike in lookAlikes {
                var callback = try await browser.startAndApprove(client, "google.com", SandboxIdentity.googleGmail.subject, sessionId: "s")
                callback.requestUri = callback.requestUri.replacingOccurrences(of: Self.callbackURL, with: lookAlike)
                let refused = try await client.finishCallback(callback, sessionId: "s")
                #expect(refused.status == .badRequest, "\(lookAlike)")
                #expect(refused.errorMessage == "INVALID_IDP_RESPONSE : The requestUri is not the continueUri of createAuthUri.", "\(lookAlike)")
            }
            // Case in the scheme and host and the default port are the same URL.
            var callback = try await browser.startAndApprove(client, "google.com", SandboxIdentity.googleGmail.subject, sessionId: "s")
            callback.requestUri = callback.requestUri.replacingOccurrences(of: Self.callbackURL, with: "HTTPS://App.Example.com:443/__/auth/callback")
            let same = try await client.finishCallback(callback, sessionId: "s")
            #expect(same.status == .ok, "\(same.text)")
            #expect(try await live.services.store.countUsers() == 1)
        }
    }

    @Test("A tampered or unknown state is refused; an expired one too; nothing is created")
    func badStates() async throws {
        try await withCallbackBrowser { live, client, browser in
            var callback = try await browser.startAndApprove(client, "microsoft.com", SandboxIdentity.microsoftWork.subject, sessionId: "s")
            let state = try #require(URL(string: callback.requestUri)?.queryItems["state"])
            let genuine = callback.requestUri
            // One character in the middle changed to a different one (never the same, never padding bits).
            let middle = state.index(state.startIndex, offsetBy: state.count / 2)
            let altered = state.replacingCharacters(in: middle...middle, with: state[middle] == "A" ? "B" : "A")
            callback.requestUri = genuine.replacingOccurrences(of: "state=\(state)", with: "state=\(altered)")
            let tampered = try await client.finishCallback(callback, sessionId: "s")
            #expect(tampered.errorMessage == "INVALID_IDP_RESPONSE : The browser sign-in state is unknown or was already used.")
            callback.requestUri = genuine.replacingOccurrences(of: "state=\(state)", with: "state=short")
            let malformed = try await client.finishCallback(callback, sessionId: "s")
            #expect(malformed.errorMessage == "INVALID_IDP_RESPONSE : The browser sign-in state is unknown or was already used.")
            callback.requestUri = genuine.replacingOccurrences(of: "state=\(state)", with: "state=\(state)%00")
            let withNUL = try await client.finishCallback(callback, sessionId: "s")
            #expect(withNUL.errorMessage == "INVALID_IDP_RESPONSE : The browser sign-in state is unknown or was already used.")

            live.clock.advance(by: 601)
            callback.requestUri = genuine
            let expired = try await client.finishCallback(callback, sessionId: "s")
            #expect(expired.errorMessage == "INVALID_IDP_RESPONSE : The browser sign-in has expired; sign in again.")
            #expect(try await live.services.store.countUsers() == 0)
        }
    }

    @Test("A code already exchanged is refused by the provider, even under a fresh state")
    func reusedCode() async throws {
        try await withCallbackBrowser { live, client, browser in
            let first = try await browser.startAndApprove(client, "github.com", SandboxIdentity.githubUser.subject, sessionId: "one")
            let signedIn = try await client.finishCallback(first, sessionId: "one")
            #expect(signedIn.status == .ok, "\(signedIn.text)")
            let code = try #require(URL(string: first.requestUri)?.queryItems["code"])

            let second = try await browser.startAndApprove(client, "github.com", SandboxIdentity.githubUser.subject, sessionId: "two")
            let secondCode = try #require(URL(string: second.requestUri)?.queryItems["code"])
            var replay = second
            replay.requestUri = second.requestUri.replacingOccurrences(of: "code=\(secondCode)", with: "code=\(code)")
            let refused = try await client.finishCallback(replay, sessionId: "two")
            #expect(refused.status == .badRequest)
            #expect(
                refused.errorMessage
                    == "INVALID_IDP_RESPONSE : The identity provider refused the sign-in. github.com: bad_verification_code: The code has already been used."
            )
            #expect(try await live.services.store.countUsers() == 1)
        }
    }

    @Test("The person declining at the provider is USER_CANCELLED", arguments: ["google.com", "apple.com", "twitter.com", "facebook.com"])
    func cancelled(providerID: String) async throws {
        try await withCallbackBrowser { live, client, browser in
            let started = try await client.createAuthUri(providerID: providerID, continueUri: Self.callbackURL, sessionId: "no")
            let callback = try await browser.providerCallback(try #require(started.string("authUri")), subject: nil)
            let refused = try await client.finishCallback(callback, sessionId: "no")
            #expect(refused.status == .badRequest, "\(refused.text)")
            #expect(refused.errorMessage == "USER_CANCELLED")
            #expect(try await live.services.store.countUsers() == 0)
        }
    }

    @Test("Of parallel signInWithIdp calls with one callback exactly one signs in")
    func parallelCallbacks() async throws {
        try await withCallbackBrowser { live, client, browser in
            let callback = try await browser.startAndApprove(client, "google.com", SandboxIdentity.googleGmail.subject, sessionId: "race")
            let statuses = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        let result = try await client.finishCallback(callback, sessionId: "race")
                        return (Int(result.status.code), result.errorMessage)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            // One 200, and every other answer this very refusal: a 500 (or any other error) fails.
            #expect(statuses.count == 8)
            #expect(statuses.filter { $0.0 == 200 }.count == 1, "\(statuses)")
            let refusal = "INVALID_IDP_RESPONSE : The browser sign-in state is unknown or was already used."
            #expect(statuses.filter { $0.0 == 400 && $0.1 == refusal }.count == 7, "\(statuses)")
            #expect(try await live.services.store.countUsers() == 1)
        }
    }

    @Test("A postBody naming another provider is refused")
    func otherProvider() async throws {
        try await withCallbackBrowser { _, client, browser in
            let callback = try await browser.startAndApprove(client, "google.com", SandboxIdentity.googleGmail.subject, sessionId: "s")
            let refused = try await client.finishCallback(callback, sessionId: "s", providerID: "facebook.com")
            #expect(refused.errorMessage == "INVALID_CREDENTIAL_OR_PROVIDER_ID : Invalid IdP response/credential: providerId=facebook.com")
        }
    }

    @Test("The two modes never cross: Hearth's handler refuses a callback-mode state, signInWithIdp a handler-mode one")
    func modesDoNotCross() async throws {
        try await withCallbackBrowser { live, client, browser in
            // A callback-mode state presented at Hearth's handler.
            let callback = try await browser.startAndApprove(client, "google.com", SandboxIdentity.googleGmail.subject, sessionId: "s")
            let query = try #require(URL(string: callback.requestUri)?.query)
            let atHandler = try await browser.get(live.baseURL + "/__/auth/handler?" + query)
            #expect(atHandler.status == .badRequest)
            #expect(atHandler.text.contains("This sign-in link is not valid"))
            #expect(atHandler.location == nil)

            // A handler-mode state handed to signInWithIdp as though it were the app's callback.
            let started = try await client.createAuthUri(
                providerID: "google.com", continueUri: BrowserSignInTests.returnURL, sessionId: "h")
            let back = try await browser.get(
                try #require(started.string("authUri")) + "&sandbox_subject=\(SandboxIdentity.googleGmail.subject)&sandbox_decision=approve")
            let handlerURL = try #require(back.location)
            let handed = try await client.finishCallback(
                ProviderCallback(requestUri: handlerURL, postBody: nil), sessionId: "h")
            #expect(handed.errorMessage == "INVALID_IDP_RESPONSE : The browser sign-in state is unknown or was already used.")
            #expect(try await live.services.store.countUsers() == 0)
        }
    }

    @Test("browserSignIn.callbackURLs is read strictly: a URL Hearth cannot compare stops start-up naming the key")
    func callbackURLsSetting() throws {
        func read(_ urls: [String]) throws -> ServerConfiguration {
            try ServerConfiguration(
                reader: ConfigReader(
                    provider: InMemoryProvider(values: ["browserSignIn.callbackURLs": .init(.stringArray(urls), isSecret: false)])))
        }
        let good = try read([Self.callbackURL, Self.nativeCallbackURL])
        #expect(good.providers.browserSignIn.isCallbackURL("HTTPS://APP.example.com/__/auth/callback?x=1"))
        #expect(!good.providers.browserSignIn.isCallbackURL("https://app.example.com/__/auth/callback/x"))
        for bad in ["https://app.example.com@evil.example/cb", "https://app.example.com/a/../cb", "not a url", "https://app.example.com/c\u{0}b"] {
            #expect("\(bad)") {
                try read([bad])
            } throws: { error in
                (error as? ConfigurationError)?.key == "browserSignIn.callbackURLs"
            }
        }
    }

    @Test("Only the configured callback URLs select the mode; an unknown web URL is UNAUTHORIZED_DOMAIN")
    func onlyConfiguredCallbacks() async throws {
        try await withCallbackBrowser { _, client, _ in
            for continueUri in ["https://app.example.com/__/auth/callback/more", "https://evil.example/__/auth/callback"] {
                let refused = try await client.createAuthUri(providerID: "google.com", continueUri: continueUri)
                #expect(refused.errorMessage == "UNAUTHORIZED_DOMAIN : Domain not whitelisted by project", "\(continueUri)")
            }
        }
    }
}

// MARK: - Helpers

/// What the app receives from the provider at its redirect URI: the URL the browser opened, and Apple's posted
/// form.
struct ProviderCallback: Sendable {
    var requestUri: String
    var postBody: String?
}

extension TestBrowser {
    /// Approves `subject` (or cancels, when `nil`) on the sandbox's page at `authUri` and returns what the
    /// provider sends the browser to the app with, without opening the app's URL.
    func providerCallback(_ authUri: String, subject: String?) async throws -> ProviderCallback {
        let decision = subject.map { "&sandbox_subject=\(formEncoded($0))&sandbox_decision=approve" } ?? "&sandbox_decision=cancel"
        let answer = try await get(authUri + decision)
        if let location = answer.location { return ProviderCallback(requestUri: location, postBody: nil) }
        let action = try #require(answer.formAction, "the provider neither redirected nor posted: \(answer.text.prefix(300))")
        let body = answer.hiddenInputs.map { "\(formEncoded($0.0))=\(formEncoded($0.1))" }.joined(separator: "&")
        return ProviderCallback(requestUri: action, postBody: body)
    }

    /// createAuthUri with ``BrowserCallbackModeTests/callbackURL`` and approval at the provider.
    func startAndApprove(_ client: FirebaseTestClient, _ providerID: String, _ subject: String, sessionId: String) async throws -> ProviderCallback {
        let started = try await client.createAuthUri(providerID: providerID, continueUri: BrowserCallbackModeTests.callbackURL, sessionId: sessionId)
        return try await providerCallback(try #require(started.string("authUri")), subject: subject)
    }
}

extension FirebaseTestClient {
    /// `accounts:signInWithIdp` as an app finishes Firebase's callback mode: the callback URL as `requestUri`,
    /// Apple's form (or `providerId=…`) as `postBody`.
    func finishCallback(
        _ callback: ProviderCallback, sessionId: String?, providerID: String? = nil, returnIdpCredential: Bool = false
    ) async throws -> WireResult {
        var postBody = callback.postBody
        if let providerID { postBody = [postBody, "providerId=\(providerID)"].compactMap { $0 }.joined(separator: "&") }
        var body: [String: JSONValue] = ["requestUri": .string(callback.requestUri), "returnSecureToken": .bool(true)]
        if let postBody { body["postBody"] = .string(postBody) }
        if let sessionId { body["sessionId"] = .string(sessionId) }
        if returnIdpCredential { body["returnIdpCredential"] = .bool(true) }
        return try await post("/v1/accounts:signInWithIdp", body)
    }
}
