import Foundation
import HearthConfiguration
import HearthCore
import HearthProviders
import HearthSandbox
import HearthServer
import HearthTesting
import HearthWire
import Testing

/// The seeds' federated scenarios, each over HTTP against a live server whose providers are the sandbox:
/// the server fetches keys and calls the providers' APIs over loopback and runs the production verifiers.
@Suite("Federated sign-in over HTTP against the sandbox")
struct FederatedSignInTests {
    // MARK: Anonymous upgrade by linking

    // With clean-up on, see FederatedAccountRulesTests.linkingLeavesTheCleanupSchedule.
    @Test("An anonymous user links Google: same uid, no longer anonymous")
    func anonymousLinksGoogle() async throws {
        try await withFederated { live, client in
            let anonymous = try await client.signUpAnonymously()
            let credential = try live.sandbox.signInCredential(for: .googleGmail)
            let linked = try await client.signInWithIdp(credential.postBody, idToken: anonymous.idToken)
            #expect(linked.status == .ok)
            #expect(linked.string("localId") == anonymous.localId)
            #expect(linked["isNewUser"] == nil)
            #expect(linked.string("providerId") == "google.com")
            #expect(linked.string("federatedId") == "https://accounts.google.com/\(SandboxIdentity.googleGmail.subject)")
            #expect(linked.string("email") == SandboxIdentity.googleGmail.email)

            let idToken = try #require(linked.string("idToken"))
            let claims = jwtClaims(idToken)
            guard case .object(let firebase)? = claims["firebase"] else {
                Issue.record("no firebase claim")
                return
            }
            #expect(firebase["sign_in_provider"] == .string("google.com"))
            #expect(firebase["identities"]?.jsonText.contains(SandboxIdentity.googleGmail.subject) == true)

            let user = try #require(try await live.services.store.user(uid: anonymous.localId))
            #expect(!user.isAnonymous)
            #expect(user.scheduledDeletionAt == nil)
            let lookup = try await client.lookup(idToken)
            #expect(lookup.body.containsText("\"providerId\" : \"google.com\"") || lookup.body.containsText("\"providerId\":\"google.com\""))
        }
    }

    @Test("An anonymous user links Facebook; the unverified e-mail is copied as unverified")
    func anonymousLinksFacebook() async throws {
        try await withFederated { live, client in
            let anonymous = try await client.signUpAnonymously()
            let credential = try live.sandbox.signInCredential(for: .facebookUser)
            let linked = try await client.signInWithIdp(credential.postBody, idToken: anonymous.idToken)
            #expect(linked.status == .ok)
            #expect(linked.string("localId") == anonymous.localId)
            #expect(linked.string("federatedId") == SandboxIdentity.facebookUser.subject)
            let user = try #require(try await live.services.store.user(uid: anonymous.localId))
            #expect(user.providers.map(\.providerID) == ["facebook.com"])
            #expect(user.email == SandboxIdentity.facebookUser.email)
            #expect(user.emailVerified == false)
        }
    }

    @Test("An anonymous user links e-mail and password, then signs in with them")
    func anonymousLinksPassword() async throws {
        try await withFederated { live, client in
            let anonymous = try await client.signUpAnonymously()
            let upgraded = try await client.signUp(email: "upgrade@example.com", password: "correct horse", idToken: anonymous.idToken)
            #expect(upgraded.localId == anonymous.localId)
            let signedIn = try await client.signIn(email: "upgrade@example.com")
            #expect(signedIn.string("localId") == anonymous.localId)
        }
    }

    // MARK: Apple

    @Test("Apple: token with the raw nonce; the first-time name is kept, there is no photo")
    func appleWithRawNonce() async throws {
        try await withFederated { live, client in
            let credential = try live.sandbox.signInCredential(for: .appleAlice, rawNonce: "a raw nonce from the app")
            let user = #"{"name":{"firstName":"Alice","lastName":"Appleseed"},"email":"ignored@example.com"}"#
            let first = try await client.signInWithIdp(credential.postBody + "&user=" + formEncoded(user))
            #expect(first.status == .ok, "\(first.text)")
            #expect(first["isNewUser"] == .bool(true))
            #expect(first.string("displayName") == "Alice Appleseed")
            #expect(first.string("email") == SandboxIdentity.appleAlice.email)
            #expect(first["photoUrl"] == nil)
            let uid = try #require(first.string("localId"))

            live.clock.advance(by: 60)
            let again = try live.sandbox.signInCredential(for: .appleAlice, rawNonce: "another raw nonce")
            let second = try await client.signInWithIdp(again.postBody)
            #expect(second.status == .ok)
            #expect(second.string("localId") == uid)
            #expect(second["isNewUser"] == nil)
            #expect(second.string("displayName") == "Alice Appleseed")
        }
    }

    @Test("Apple: NUL characters in the first-time name are dropped (they were a 500 on PostgreSQL)")
    func appleNameWithNUL() async throws {
        try await withFederated { live, client in
            let credential = try live.sandbox.signInCredential(for: .appleAlice, rawNonce: "a raw nonce from the app")
            let user = #"{"name":{"firstName":"Al\u0000ice","lastName":"\u0000"},"email":"ignored@example.com"}"#
            let first = try await client.signInWithIdp(credential.postBody + "&user=" + formEncoded(user))
            #expect(first.status == .ok, "\(first.text)")
            #expect(first.string("displayName") == "Alice")
            #expect(first.string("firstName") == "Alice")
            #expect(first["lastName"] == nil)
            let uid = try #require(first.string("localId"))
            let stored = try #require(try await live.services.store.user(uid: uid))
            #expect(stored.displayName == "Alice")
        }
    }

    @Test("Apple: a nonce that does not match, or none at all, is MISSING_OR_INVALID_NONCE and creates nothing")
    func appleNonceRejected() async throws {
        try await withFederated { live, client in
            let credential = try live.sandbox.signInCredential(for: .appleAlice, rawNonce: "the real nonce")
            let wrong = try await client.signInWithIdp(credential.postBody.replacingOccurrences(of: "the%20real%20nonce", with: "another"))
            #expect(wrong.status == .badRequest)
            let claim = SandboxNonce.sha256Hex("the real nonce")
            #expect(
                wrong.errorMessage
                    == "MISSING_OR_INVALID_NONCE : The nonce in ID Token \"\(claim)\" does not match the SHA256 hash of the raw nonce \"another\" in the request."
            )

            let token = try #require(credential.idToken)
            let missing = try await client.signInWithIdp("providerId=apple.com&id_token=\(token)")
            #expect(missing.errorMessage == "MISSING_OR_INVALID_NONCE : Nonce is missing in the request.")
            #expect(try await live.services.store.countUsers() == 0)
        }
    }

    @Test("Apple: a private-relay address is kept")
    func applePrivateRelay() async throws {
        try await withFederated { live, client in
            let credential = try live.sandbox.signInCredential(for: .appleRelay)
            let result = try await client.signInWithIdp(credential.postBody)
            #expect(result.status == .ok)
            #expect(result.string("email") == SandboxIdentity.appleRelay.email)
            #expect(SandboxIdentity.appleRelay.email?.hasSuffix("privaterelay.appleid.com") == true)
        }
    }

    // MARK: Twitter

    @Test("Twitter: token and secret; the numeric id is the federated id, the username the screen name")
    func twitterTokenAndSecret() async throws {
        try await withFederated { live, client in
            let credential = try live.sandbox.signInCredential(for: .twitterUser)
            let result = try await client.signInWithIdp(credential.postBody, returnIdpCredential: true)
            #expect(result.status == .ok, "\(result.text)")
            #expect(result.string("federatedId") == SandboxIdentity.twitterUser.subject)
            #expect(result.string("screenName") == SandboxIdentity.twitterUser.screenName)
            #expect(result.string("oauthAccessToken") == credential.accessToken)
            #expect(result.string("oauthTokenSecret") == credential.oauthTokenSecret)
            #expect(result["isNewUser"] == .bool(true))
        }
    }

    @Test("Twitter: a tampered token secret is refused by Twitter, so by Hearth")
    func twitterTamperedSecret() async throws {
        try await withFederated { live, client in
            let credential = try live.sandbox.signInCredential(for: .twitterUser)
            let secret = try #require(credential.oauthTokenSecret)
            let tampered = credential.postBody.replacingOccurrences(of: secret, with: String(secret.reversed()))
            let result = try await client.signInWithIdp(tampered)
            #expect(result.status == .badRequest)
            #expect(result.errorMessage == "INVALID_IDP_RESPONSE : Twitter did not accept the OAuth 1.0a token and secret for this app.")
            #expect(try await live.services.store.countUsers() == 0)
        }
    }

    @Test("Seed 001: Twitter in the browser with customParameters lang=fr links to the current user; the credential (token and secret) signs in")
    func twitterSeedWithLang() async throws {
        try await withBrowser { live, client, browser in
            // provider.customParameters = ["lang": "fr"]; provider.getCredentialWith(nil)
            let current = try await client.signUpAnonymously()
            let started = try await client.createAuthUri(
                providerID: "twitter.com", continueUri: BrowserSignInTests.returnURL, customParameter: ["lang": "fr"], sessionId: "seed-001")
            #expect(started.status == .ok, "\(started.text)")
            let authUri = try #require(started.string("authUri"))
            #expect(try #require(URL(string: authUri)).queryItems["lang"] == "fr")
            let page = try await browser.get(authUri)
            #expect(page.status == .ok)
            #expect(live.sandbox.lastAuthorizationRequest(.twitter)?["lang"] == "fr")

            // Auth().currentUser.link(withCredential: credential)
            let app = try await browser.approve(authUri, subject: SandboxIdentity.twitterUser.subject)
            let linked = try await client.completeBrowserSignIn(
                requestUri: try #require(app.queryValue("link")), sessionId: "seed-001", providerID: "twitter.com", idToken: current.idToken,
                returnIdpCredential: true)
            #expect(linked.status == .ok, "\(linked.text)")
            #expect(linked.string("localId") == current.localId)
            #expect(linked.string("screenName") == SandboxIdentity.twitterUser.screenName)
            let rawUserInfo = try #require(linked.string("rawUserInfo"))
            let profile = try #require(JSONValue.object(fromJSON: rawUserInfo))
            #expect(profile["screen_name"] == .string("sandbox_jack"))
            // (authResult.credential as? OAuthCredential)?.accessToken and ?.secret
            let token = try #require(linked.string("oauthAccessToken"))
            let secret = try #require(linked.string("oauthTokenSecret"))

            // Auth.auth().signIn(with: credential) with that credential: the same, no longer anonymous, user.
            let signedIn = try await client.signInWithIdp(
                "providerId=twitter.com&access_token=\(formEncoded(token))&oauth_token_secret=\(formEncoded(secret))")
            #expect(signedIn.status == .ok, "\(signedIn.text)")
            #expect(signedIn.string("localId") == current.localId)
            #expect(signedIn["isNewUser"] == nil)
            #expect(try await live.services.store.user(uid: current.localId)?.isAnonymous == false)
        }
    }

    // MARK: Microsoft

    @Test("Microsoft: the federated id is the oid; a personal account's is its 16 hex digits")
    func microsoftObjectID() async throws {
        try await withFederated { live, client in
            let work = try await client.signInWithIdp(try live.sandbox.signInCredential(for: .microsoftWork).postBody)
            #expect(work.status == .ok, "\(work.text)")
            #expect(work.string("federatedId") == SandboxIdentity.microsoftWork.microsoftFederatedID)
            #expect(work["photoUrl"] == nil)
            let personal = try await client.signInWithIdp(try live.sandbox.signInCredential(for: .microsoftPersonal).postBody)
            #expect(personal.string("federatedId") == "fde926f844473904")
        }
    }

    @Test("Microsoft: a tenant outside the allowed tenants is refused")
    func microsoftTenantRestriction() async throws {
        let allowed = SandboxMicrosoftTenant.contoso.id
        try await withFederated(providers: { $0.microsoft.allowedTenantIDs = [allowed] }) { live, client in
            let work = try await client.signInWithIdp(try live.sandbox.signInCredential(for: .microsoftWork).postBody)
            #expect(work.status == .ok)
            let personal = try await client.signInWithIdp(try live.sandbox.signInCredential(for: .microsoftPersonal).postBody)
            #expect(personal.status == .badRequest)
            #expect(
                personal.errorMessage
                    == "INVALID_IDP_RESPONSE : Invalid Microsoft id_token: accounts of tenant \(SandboxMicrosoftTenant.personalAccountsTenantID) may not sign in to this app."
            )
        }
        try await withFederated(providers: { $0.microsoft.tenant = "organizations" }) { live, client in
            let personal = try await client.signInWithIdp(try live.sandbox.signInCredential(for: .microsoftPersonal).postBody)
            #expect(
                personal.errorMessage == "INVALID_IDP_RESPONSE : Invalid Microsoft id_token: personal Microsoft accounts may not sign in to this app."
            )
        }
    }

    // MARK: Google, GitHub, OIDC

    @Test("Google with an access token only, GitHub, Yahoo and a generic OIDC issuer sign in")
    func otherProviders() async throws {
        try await withFederated { live, client in
            let access = try live.sandbox.googleAccessToken(for: .googleWorkspace)
            let google = try await client.signInWithIdp("providerId=google.com&access_token=\(access)")
            #expect(google.status == .ok, "\(google.text)")
            #expect(google.string("email") == SandboxIdentity.googleWorkspace.email)

            let github = try await client.signInWithIdp(try live.sandbox.signInCredential(for: .githubUser).postBody)
            #expect(github.status == .ok, "\(github.text)")
            #expect(github.string("federatedId") == SandboxIdentity.githubUser.subject)

            let yahoo = try await client.signInWithIdp(try live.sandbox.signInCredential(for: .yahooUser).postBody)
            #expect(yahoo.status == .ok, "\(yahoo.text)")
            #expect(yahoo.string("providerId") == "yahoo.com")
            #expect(yahoo.string("federatedId") == SandboxIdentity.yahooUser.subject)
            #expect(yahoo.string("email") == SandboxIdentity.yahooUser.email)
            #expect(yahoo["emailVerified"] == .bool(true))
            guard case .object(let firebase)? = jwtClaims(try #require(yahoo.string("idToken")))["firebase"] else {
                Issue.record("no firebase claim")
                return
            }
            #expect(firebase["sign_in_provider"] == .string("yahoo.com"))

            let oidc = try await client.signInWithIdp(try live.sandbox.signInCredential(for: .oidcUser).postBody)
            #expect(oidc.status == .ok, "\(oidc.text)")
            #expect(oidc.string("providerId") == SandboxIdentity.oidcUser.provider.firebaseProviderID)
        }
    }

    // MARK: Credential already in use

    @Test("Credential already in use: 200 with errorMessage and a credential that signs in to its owner")
    func credentialAlreadyInUse() async throws {
        try await withFederated { live, client in
            let owner = try await client.signInWithIdp(try live.sandbox.signInCredential(for: .googleGmail).postBody)
            let ownerID = try #require(owner.string("localId"))

            let other = try await client.signUpAnonymously()
            let credential = try live.sandbox.signInCredential(for: .googleGmail)
            let plain = try await client.signInWithIdp(credential.postBody, idToken: other.idToken)
            #expect(plain.status == .badRequest)
            #expect(plain.errorMessage == "FEDERATED_USER_ID_ALREADY_LINKED")

            let again = try live.sandbox.signInCredential(for: .googleGmail)
            let inBand = try await client.signInWithIdp(again.postBody, idToken: other.idToken, returnIdpCredential: true)
            #expect(inBand.status == .ok)
            #expect(inBand.string("errorMessage") == "FEDERATED_USER_ID_ALREADY_LINKED")
            #expect(inBand.string("oauthIdToken") == again.idToken)
            #expect(inBand["idToken"] == nil)
            #expect(inBand["localId"] == nil)
            let pending = try #require(inBand.string("pendingToken"))

            let signedIn = try await client.signInWithIdp(nil, pendingToken: pending)
            #expect(signedIn.status == .ok, "\(signedIn.text)")
            #expect(signedIn.string("localId") == ownerID)
            #expect(signedIn.string("idToken") != nil)
            let user = try #require(try await live.services.store.user(uid: other.localId))
            #expect(user.isAnonymous)
        }
    }

    // MARK: Account exists with a different credential

    @Test("Account exists with a different credential: needConfirmation, fetch methods, password, link the pending credential")
    func accountExistsWithDifferentCredential() async throws {
        try await withFederated { live, client in
            let email = try #require(SandboxIdentity.facebookUser.email)
            let existing = try await client.signUp(email: email, password: "correct horse")

            let credential = try live.sandbox.signInCredential(for: .facebookUser)
            let conflict = try await client.signInWithIdp(credential.postBody)
            #expect(conflict.status == .ok)
            #expect(conflict["needConfirmation"] == .bool(true))
            #expect(conflict.string("email") == email)
            #expect(conflict["idToken"] == nil)
            #expect(conflict["refreshToken"] == nil)
            #expect(conflict["verifiedProvider"] == nil)
            let pending = try #require(conflict.string("pendingToken"))
            let unchanged = try #require(try await live.services.store.user(uid: existing.localId))
            #expect(unchanged.providers.isEmpty)

            let methods = try await client.post(
                "/v1/accounts:createAuthUri", ["identifier": .string(email), "continueUri": .string("http://localhost")])
            #expect(methods["signinMethods"] == .array([.string("password")]))

            let password = try await client.signIn(email: email)
            let idToken = try #require(password.string("idToken"))
            let linked = try await client.signInWithIdp(nil, idToken: idToken, pendingToken: pending)
            #expect(linked.status == .ok, "\(linked.text)")
            #expect(linked.string("localId") == existing.localId)
            let user = try #require(try await live.services.store.user(uid: existing.localId))
            #expect(user.providers.map(\.providerID) == ["facebook.com"])

            let after = try await client.post(
                "/v1/accounts:createAuthUri", ["identifier": .string(email), "continueUri": .string("http://localhost")])
            #expect(after["signinMethods"] == .array([.string("password"), .string("facebook.com")]))
        }
    }

    @Test("A provider that verifies the e-mail takes over an unverified password account and drops its password")
    func verifiedEmailTakesOver() async throws {
        try await withFederated { live, client in
            let email = try #require(SandboxIdentity.googleGmail.email)
            let squatter = try await client.signUp(email: email, password: "squatter's password")
            let google = try await client.signInWithIdp(try live.sandbox.signInCredential(for: .googleGmail).postBody)
            #expect(google.string("localId") == squatter.localId)
            #expect(google["emailVerified"] == .bool(true))
            let password = try await client.signIn(email: email, password: "squatter's password")
            #expect(password.status == .badRequest)
        }
    }

    // MARK: Reauthentication, unlinking, sign-out

    @Test("Reauthentication returns the same user with a fresh auth_time")
    func reauthenticate() async throws {
        try await withFederated { live, client in
            let first = try await client.signInWithIdp(try live.sandbox.signInCredential(for: .microsoftWork).postBody)
            let firstAuthTime = jwtClaims(try #require(first.string("idToken")))["auth_time"]
            live.clock.advance(by: 3_600)
            let again = try await client.signInWithIdp(try live.sandbox.signInCredential(for: .microsoftWork).postBody)
            #expect(again.string("localId") == first.string("localId"))
            let secondAuthTime = jwtClaims(try #require(again.string("idToken")))["auth_time"]
            #expect(firstAuthTime != secondAuthTime)
            if case .number(let before)? = firstAuthTime, case .number(let after)? = secondAuthTime {
                #expect(after - before == 3_600)
            }
        }
    }

    @Test("Linking an identity again to the user who has it is FEDERATED_USER_ID_ALREADY_LINKED; Twitter's screenName is on the looked-up user")
    func relinkAndScreenName() async throws {
        try await withFederated { live, client in
            let signedIn = try await client.signInWithIdp(try live.sandbox.signInCredential(for: .twitterUser).postBody)
            #expect(signedIn.status == .ok, "\(signedIn.text)")
            let idToken = try #require(signedIn.string("idToken"))
            let again = try await client.signInWithIdp(try live.sandbox.signInCredential(for: .twitterUser).postBody, idToken: idToken)
            #expect(again.status == .badRequest)
            #expect(again.errorMessage == "FEDERATED_USER_ID_ALREADY_LINKED")

            let user = try #require(try await client.lookup(idToken).decode(LookupResponse.self).users?.first)
            #expect(user.screenName == "sandbox_jack")
            #expect(user.providerUserInfo?.first { $0.providerId == "twitter.com" }?.screenName == "sandbox_jack")
        }
    }

    @Test("Unlinking a provider; the last way in may go too, as Firebase allows, and the session lives on")
    func unlink() async throws {
        try await withFederated { live, client in
            let signedIn = try await client.signInWithIdp(try live.sandbox.signInCredential(for: .githubUser).postBody)
            var idToken = try #require(signedIn.string("idToken"))
            let linked = try await client.signInWithIdp(try live.sandbox.signInCredential(for: .twitterUser).postBody, idToken: idToken)
            #expect(linked.status == .ok, "\(linked.text)")
            idToken = try #require(linked.string("idToken"))

            let unlinked = try await client.post(
                "/v1/accounts:update", ["idToken": .string(idToken), "deleteProvider": .array([.string("twitter.com")])])
            #expect(unlinked.status == .ok, "\(unlinked.text)")
            let uid = try #require(signedIn.string("localId"))
            let user = try #require(try await live.services.store.user(uid: uid))
            #expect(user.providers.map(\.providerID) == ["github.com"])

            let last = try await client.post(
                "/v1/accounts:update", ["idToken": .string(idToken), "deleteProvider": .array([.string("github.com")])])
            #expect(last.status == .ok, "\(last.text)")
            #expect(last["providerUserInfo"] == .array([]))
            let bare = try #require(try await live.services.store.user(uid: uid))
            #expect(bare.providers.isEmpty && bare.scheduledDeletionAt == UserRecord.neverDeleted)
            #expect(try await client.post("/v1/accounts:lookup", ["idToken": .string(idToken)]).status == .ok)
        }
    }

    @Test(
        "Signing out is the client forgetting its tokens (Firebase's signOut calls no server); the next sign-in finds the same account and its links")
    func signOutKeepsTheAccount() async throws {
        try await withFederated { live, client in
            let signedIn = try await client.signInWithIdp(try live.sandbox.signInCredential(for: .appleAlice).postBody)
            let uid = try #require(signedIn.string("localId"))
            let idToken = try #require(signedIn.string("idToken"))
            let linked = try await client.signInWithIdp(try live.sandbox.signInCredential(for: .githubUser).postBody, idToken: idToken)
            #expect(linked.status == .ok, "\(linked.text)")
            let refreshToken = try #require(linked.string("refreshToken"))

            // signOut() sends nothing: the server revokes nothing, so a refresh token the app kept still works.
            // (Revoking is the admin's revokeRefreshTokens or a password change, tested elsewhere.)
            #expect(try await client.refresh(refreshToken).status == .ok)

            let again = try await client.signInWithIdp(try live.sandbox.signInCredential(for: .appleAlice).postBody)
            #expect(again.string("localId") == uid)
            #expect(again["isNewUser"] == nil)
            let user = try #require(try await live.services.store.user(uid: uid))
            #expect(user.providers.map(\.providerID).sorted() == ["apple.com", "github.com"])
        }
    }

    // MARK: Rejections

    @Test(
        "Bad ID tokens are refused with INVALID_IDP_RESPONSE and create nothing",
        arguments: [
            SandboxTokenDefect.expired, .notYetValid, .wrongAudience, .wrongIssuer, .unknownKeyID, .unpublishedKey, .algNone,
            .hs256WithPublicKey, .tamperedPayload,
        ])
    func badIDTokens(defect: SandboxTokenDefect) async throws {
        try await withFederated { live, client in
            let token = try live.sandbox.googleIDToken(for: .googleGmail, defect: defect)
            let result = try await client.signInWithIdp("providerId=google.com&id_token=\(token)")
            #expect(result.status == .badRequest)
            #expect(result.errorMessage == FederatedRejectionTests.expectedError(.google, defect, token: token), "\(defect): \(result.text)")
            #expect(result.errorMessage?.contains(token) == false)
            #expect(try await live.services.store.countUsers() == 0)
        }
    }

    @Test("A nonce-bearing ID token is accepted once; a replay is refused and changes nothing")
    func replayedCredential() async throws {
        try await withFederated { live, client in
            let credential = try live.sandbox.signInCredential(for: .appleAlice, rawNonce: "used once")
            let first = try await client.signInWithIdp(credential.postBody)
            #expect(first.status == .ok)
            let anonymous = try await client.signUpAnonymously()
            let replay = try await client.signInWithIdp(credential.postBody, idToken: anonymous.idToken)
            #expect(replay.status == .badRequest)
            #expect(replay.errorMessage == "MISSING_OR_INVALID_NONCE : Duplicate credential received. Please try again with a new credential.")
            let user = try #require(try await live.services.store.user(uid: anonymous.localId))
            #expect(user.isAnonymous)
            // The record is in the shared database, so a replica that never saw the token refuses it too.
            #expect(try await live.services.store.countUsers() == 2)
        }
    }

    @Test("A wrong nonce in a Google token is MISSING_OR_INVALID_NONCE")
    func googleWrongNonce() async throws {
        try await withFederated { live, client in
            let token = try live.sandbox.googleIDToken(for: .googleGmail, nonce: .raw("expected"), defect: .wrongNonce)
            let result = try await client.signInWithIdp("providerId=google.com&id_token=\(token)&nonce=expected")
            #expect(result.errorMessage == FederatedRejectionTests.expectedError(.google, .wrongNonce, token: token, rawNonce: "expected"))
        }
    }

    @Test("Unknown providers, missing credentials and a missing requestUri get their Firebase errors")
    func malformedRequests() async throws {
        try await withFederated { _, client in
            let unknown = try await client.signInWithIdp("providerId=myspace.com&access_token=x")
            #expect(unknown.errorMessage == "INVALID_CREDENTIAL_OR_PROVIDER_ID : Invalid IdP response/credential: http://localhost")
            let noProvider = try await client.signInWithIdp("id_token=x")
            #expect(noProvider.errorMessage == "INVALID_CREDENTIAL_OR_PROVIDER_ID : Invalid IdP response/credential: http://localhost")
            let noURI = try await client.post("/v1/accounts:signInWithIdp", ["postBody": .string("providerId=google.com&id_token=x")])
            #expect(noURI.errorMessage == "MISSING_REQUEST_URI")
            let garbage = try await client.signInWithIdp("providerId=google.com&id_token=not-a-jwt")
            #expect(garbage.errorMessage == "INVALID_IDP_RESPONSE : Unable to parse Google id_token: it is not a signed JWT.")
            let badPending = try await client.signInWithIdp(nil, pendingToken: "forged")
            #expect(badPending.errorMessage == "INVALID_PENDING_TOKEN")
        }
    }

    @Test("A provider that is switched off is OPERATION_NOT_ALLOWED")
    func disabledProvider() async throws {
        try await withFederated(providers: { $0.twitter.enabled = false }) { live, client in
            let result = try await client.signInWithIdp(try live.sandbox.signInCredential(for: .twitterUser).postBody)
            #expect(result.status == .badRequest)
            #expect(result.errorMessage == "OPERATION_NOT_ALLOWED")
        }
    }

    @Test("A provider that does not answer yields a clear error after the timeout, not a hang")
    func providerDown() async throws {
        try await withFederated(providers: { providers in
            // Nothing listens on port 9 (discard) of loopback.
            providers.gitHub.apiBaseURL = URL(string: "http://127.0.0.1:9")!
            providers.network.requestTimeout = 2
        }) { live, client in
            let result = try await client.signInWithIdp(try live.sandbox.signInCredential(for: .githubUser).postBody)
            #expect(result.status == .badRequest)
            #expect(
                [
                    "INVALID_IDP_RESPONSE : The identity provider could not be reached.",
                    "INVALID_IDP_RESPONSE : The identity provider did not answer in time.",
                ]
                .contains(result.errorMessage ?? ""), "\(result.text)")
            #expect(try await live.services.store.countUsers() == 0)
        }
    }

    @Test("The sandbox console mints a credential a person can paste into signInWithIdp")
    func consoleCredential() async throws {
        try await withFederated { live, client in
            let index = try await client.raw("/sandbox/", method: .get)
            #expect(index.status == .ok)
            #expect(index.text.contains("Hearth provider sandbox"))
            let minted = try await client.raw("/sandbox/credentials/apple.com?nonce=n-1", method: .get)
            #expect(minted.status == .ok, "\(minted.text)")
            let credential = try minted.decode(SandboxSignInCredential.self)
            #expect(credential.rawNonce == "n-1")
            let result = try await client.signInWithIdp(credential.postBody)
            #expect(result.status == .ok, "\(result.text)")
            let unknown = try await client.raw("/sandbox/credentials/myspace.com", method: .get)
            #expect(unknown.status == .notFound)
        }
    }
}

// MARK: - Support

/// Runs `body` against a live server whose providers are the sandbox, with a client over a real socket.
func withFederated(
    providers: @escaping @Sendable (inout ProvidersConfiguration) -> Void = { _ in },
    _ configure: (inout ServerConfiguration) -> Void = { _ in },
    _ body: (LiveHearth, FirebaseTestClient) async throws -> Void
) async throws {
    try await withLiveHearth(providers: providers, configure) { live in
        try await body(live, FirebaseTestClient(baseURL: live.baseURL))
    }
}

/// `application/x-www-form-urlencoded` value encoding.
func formEncoded(_ value: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
}

extension FirebaseTestClient {
    /// `accounts:signInWithIdp` with `requestUri` `http://localhost` and `returnSecureToken`.
    func signInWithIdp(
        _ postBody: String?, idToken: String? = nil, pendingToken: String? = nil, returnIdpCredential: Bool = false
    ) async throws -> WireResult {
        var body: [String: JSONValue] = ["requestUri": .string("http://localhost"), "returnSecureToken": .bool(true)]
        if let postBody { body["postBody"] = .string(postBody) }
        if let idToken { body["idToken"] = .string(idToken) }
        if let pendingToken { body["pendingToken"] = .string(pendingToken) }
        if returnIdpCredential { body["returnIdpCredential"] = .bool(true) }
        return try await post("/v1/accounts:signInWithIdp", body)
    }
}

extension WireResult {
    var text: String { String(decoding: body, as: UTF8.self) }
}

extension Data {
    func containsText(_ text: String) -> Bool { String(decoding: self, as: UTF8.self).contains(text) }
}
