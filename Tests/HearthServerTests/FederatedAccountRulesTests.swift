import Foundation
import HearthCore
import HearthSandbox
import HearthServer
import HearthTesting
import HearthWire
import Testing

/// The account rules of `signInWithIdp` over HTTP against the sandbox, in the cases the seed scenarios do not
/// reach: clean-up of a linked anonymous account, `EMAIL_EXISTS` on link, `needConfirmation` naming the
/// providers that can prove the account, `autoCreate: false`, the legacy route and `rawUserInfo`.
@Suite("Federated sign-in: account rules over HTTP")
struct FederatedAccountRulesTests {
    static let day: TimeInterval = 86_400

    @Test("With anonymous clean-up on, linking a provider takes the account off the clean-up schedule")
    func linkingLeavesTheCleanupSchedule() async throws {
        try await withFederated({ $0.anonymousCleanup.enabled = true }) { live, client in
            let anonymous = try await client.signUpAnonymously()
            let control = try await client.signUpAnonymously()
            // Clean-up is really on: both accounts are scheduled.
            let scheduled = try #require(try await live.services.store.user(uid: anonymous.localId))
            #expect(scheduled.isAnonymous)
            #expect(scheduled.scheduledDeletionAt != nil)
            #expect(try await live.services.store.user(uid: control.localId)?.scheduledDeletionAt != nil)

            let linked = try await client.signInWithIdp(try live.sandbox.signInCredential(for: .githubUser).postBody, idToken: anonymous.idToken)
            #expect(linked.status == .ok, "\(linked.text)")
            #expect(linked.string("localId") == anonymous.localId)
            let user = try #require(try await live.services.store.user(uid: anonymous.localId))
            #expect(!user.isAnonymous)
            #expect(user.scheduledDeletionAt == nil)

            // Past the deadline, clean-up removes the control account and keeps the linked one.
            live.clock.advance(by: 31 * Self.day)
            _ = try await AnonymousCleanupService(services: live.services).runOnce()
            #expect(try await live.services.store.user(uid: control.localId) == nil)
            #expect(try await live.services.store.user(uid: anonymous.localId) != nil)
            let signedIn = try await client.signInWithIdp(try live.sandbox.signInCredential(for: .githubUser).postBody)
            #expect(signedIn.string("localId") == anonymous.localId)
        }
    }

    @Test("Linking an identity whose e-mail belongs to another account is EMAIL_EXISTS; in-band with returnIdpCredential; nothing changes")
    func linkEmailExists() async throws {
        try await withFederated { live, client in
            let email = try #require(SandboxIdentity.githubUser.email)
            let owner = try await client.signUp(email: email, password: "correct horse")
            let anonymous = try await client.signUpAnonymously()
            let credential = try live.sandbox.signInCredential(for: .githubUser)

            let refused = try await client.signInWithIdp(credential.postBody, idToken: anonymous.idToken)
            #expect(refused.status == .badRequest)
            #expect(refused.errorMessage == "EMAIL_EXISTS")

            let inBand = try await client.signInWithIdp(credential.postBody, idToken: anonymous.idToken, returnIdpCredential: true)
            #expect(inBand.status == .ok, "\(inBand.text)")
            #expect(inBand.string("errorMessage") == "EMAIL_EXISTS")
            #expect(inBand.string("providerId") == "github.com")
            #expect(inBand.string("email") == email)
            #expect(inBand.string("oauthAccessToken") == credential.accessToken)
            #expect(inBand.string("pendingToken") != nil)
            #expect(inBand["idToken"] == nil && inBand["refreshToken"] == nil && inBand["localId"] == nil)

            let unchanged = try #require(try await live.services.store.user(uid: anonymous.localId))
            #expect(unchanged.isAnonymous)
            #expect(unchanged.providers.isEmpty)
            #expect(try await live.services.store.user(uid: owner.localId)?.providers.isEmpty == true)
            #expect(try await live.services.store.user(providerID: "github.com", rawID: SandboxIdentity.githubUser.subject) == nil)
        }
    }

    @Test(
        "Pre-registration hijack: a verified provider claiming an unverified account unlinks everything the first owner added and ends its sessions")
    func preRegistrationHijack() async throws {
        try await withFederated { live, client in
            // The attacker registers Ada's address (never verified) and links their own GitHub account to it.
            let email = try #require(SandboxIdentity.googleWorkspace.email)
            let attacker = try await client.signUp(email: email, password: "attacker's password")
            let attackerGitHub = try live.sandbox.signInCredential(for: .githubUser)
            let linked = try await client.signInWithIdp(attackerGitHub.postBody, idToken: attacker.idToken)
            #expect(linked.status == .ok, "\(linked.text)")
            _ = try await client.post("/v1/accounts:update", ["idToken": .string(attacker.idToken!), "displayName": .string("Not Ada")])

            // A minute later Ada signs in with Google, which vouches for the address: the account becomes hers.
            live.clock.advance(by: 60)
            let ada = try await client.signInWithIdp(try live.sandbox.signInCredential(for: .googleWorkspace).postBody)
            #expect(ada.status == .ok, "\(ada.text)")
            #expect(ada.string("localId") == attacker.localId)
            let user = try #require(try await live.services.store.user(uid: attacker.localId))
            #expect(user.providers.map(\.providerID) == ["google.com"])
            #expect(user.passwordHash == nil)
            #expect(user.emailVerified)
            #expect(user.displayName == SandboxIdentity.googleWorkspace.displayName)

            // Nothing the attacker had still opens it: not GitHub (a new account), not the password, not their tokens.
            let gitHubAgain = try await client.signInWithIdp(attackerGitHub.postBody)
            #expect(gitHubAgain.status == .ok)
            #expect(gitHubAgain.string("localId") != attacker.localId)
            #expect(try await client.signIn(email: email, password: "attacker's password").errorMessage == "INVALID_PASSWORD")
            #expect(try await client.refresh(attacker.refreshToken!).errorMessage == "TOKEN_EXPIRED")
            #expect(try await client.refresh(try #require(linked.string("refreshToken"))).errorMessage == "TOKEN_EXPIRED")
            #expect(try await client.post("/v1/accounts:lookup", ["idToken": .string(attacker.idToken!)]).errorMessage == "TOKEN_EXPIRED")
            // Ada's own session works.
            #expect(try await client.refresh(try #require(ada.string("refreshToken"))).status == .ok)
        }
    }

    @Test(
        "needConfirmation names the providers that can prove the account (verifiedProvider), and the pending credential links after signing in with one"
    )
    func needConfirmationWithVerifiedProvider() async throws {
        try await withFederated { live, client in
            let email = try #require(SandboxIdentity.googleGmail.email)
            let google = try await client.signInWithIdp(try live.sandbox.signInCredential(for: .googleGmail).postBody)
            #expect(google.status == .ok, "\(google.text)")
            let ownerID = try #require(google.string("localId"))

            // A Facebook account with the same address; Facebook does not verify e-mail addresses.
            let facebook = SandboxIdentity(
                provider: .facebook, subject: "10158000000000042", email: email, displayName: "Grace on Facebook")
            live.sandbox.add(facebook)
            let conflict = try await client.signInWithIdp(try live.sandbox.signInCredential(for: facebook).postBody)
            #expect(conflict.status == .ok, "\(conflict.text)")
            #expect(conflict["needConfirmation"] == .bool(true))
            #expect(conflict["verifiedProvider"] == .array([.string("google.com")]))
            #expect(conflict.string("localId") == ownerID)
            #expect(conflict.string("email") == email)
            #expect(conflict.string("providerId") == "facebook.com")
            #expect(conflict["idToken"] == nil && conflict["refreshToken"] == nil)
            let pending = try #require(conflict.string("pendingToken"))
            #expect(try await live.services.store.user(uid: ownerID)?.providers.map(\.providerID) == ["google.com"])

            let again = try await client.signInWithIdp(try live.sandbox.signInCredential(for: .googleGmail).postBody)
            let linked = try await client.signInWithIdp(nil, idToken: try #require(again.string("idToken")), pendingToken: pending)
            #expect(linked.status == .ok, "\(linked.text)")
            #expect(linked.string("localId") == ownerID)
            #expect(try await live.services.store.user(uid: ownerID)?.providers.map(\.providerID).sorted() == ["facebook.com", "google.com"])
            #expect(try await live.services.store.countUsers() == 1)
        }
    }

    @Test("autoCreate false (reauthentication) signs in an existing user and never creates one: USER_NOT_FOUND")
    func autoCreateFalse() async throws {
        try await withFederated { live, client in
            func signIn(_ identity: SandboxIdentity) async throws -> WireResult {
                try await client.post(
                    "/v1/accounts:signInWithIdp",
                    [
                        "requestUri": .string("http://localhost"), "returnSecureToken": .bool(true), "autoCreate": .bool(false),
                        "postBody": .string(try live.sandbox.signInCredential(for: identity).postBody),
                    ])
            }
            let unknown = try await signIn(.microsoftWork)
            #expect(unknown.status == .badRequest)
            #expect(unknown.errorMessage == "USER_NOT_FOUND")
            #expect(try await live.services.store.countUsers() == 0)

            let created = try await client.signInWithIdp(try live.sandbox.signInCredential(for: .microsoftWork).postBody)
            #expect(created["isNewUser"] == .bool(true))
            let existing = try await signIn(.microsoftWork)
            #expect(existing.status == .ok, "\(existing.text)")
            #expect(existing.string("localId") == created.string("localId"))
            #expect(existing["isNewUser"] == nil)
            #expect(try await live.services.store.countUsers() == 1)
        }
    }

    @Test(
        "The legacy verifyAssertion route signs in like accounts:signInWithIdp",
        arguments: ["/www.googleapis.com/identitytoolkit/v3/relyingparty/verifyAssertion", "/identitytoolkit/v3/relyingparty/verifyAssertion"])
    func legacyVerifyAssertion(path: String) async throws {
        try await withFederated { live, client in
            let credential = try live.sandbox.signInCredential(for: .twitterUser)
            let body: [String: JSONValue] = [
                "requestUri": .string("http://localhost"), "postBody": .string(credential.postBody),
                "returnSecureToken": .bool(true), "returnIdpCredential": .bool(true),
            ]
            let first = try await client.post(path, body)
            #expect(first.status == .ok, "\(first.text)")
            #expect(first.string("kind") == "identitytoolkit#VerifyAssertionResponse")
            #expect(first.string("providerId") == "twitter.com")
            #expect(first.string("federatedId") == SandboxIdentity.twitterUser.subject)
            #expect(first.string("screenName") == SandboxIdentity.twitterUser.screenName)
            #expect(first.string("oauthTokenSecret") == credential.oauthTokenSecret)
            #expect(first["isNewUser"] == .bool(true))
            #expect(first.string("idToken") != nil && first.string("refreshToken") != nil)

            let second = try await client.post("/v1/accounts:signInWithIdp", body)
            #expect(second.string("localId") == first.string("localId"))
            #expect(second["isNewUser"] == nil)

            let refused = try await client.post(
                path, ["requestUri": .string("http://localhost"), "postBody": .string("providerId=myspace.com&access_token=x")])
            #expect(refused.errorMessage == "INVALID_CREDENTIAL_OR_PROVIDER_ID : Invalid IdP response/credential: http://localhost")
        }
    }

    @Test("rawUserInfo is the provider's profile as a JSON string")
    func rawUserInfo() async throws {
        try await withFederated { live, client in
            func info(_ identity: SandboxIdentity) async throws -> [String: JSONValue] {
                let result = try await client.signInWithIdp(try live.sandbox.signInCredential(for: identity).postBody)
                #expect(result.status == .ok, "\(result.text)")
                let text = try #require(result.string("rawUserInfo"), "\(identity.subject)")
                return try #require(JSONValue.object(fromJSON: text), "\(text)")
            }
            // Google: the v2 userinfo shape Firebase returns.
            let grace = SandboxIdentity.googleGmail
            #expect(
                try await info(grace) == [
                    "id": .string(grace.subject), "email": .string(grace.email!), "verified_email": .bool(true),
                    "name": .string("Grace Hopper"), "given_name": .string("Grace"), "family_name": .string("Hopper"),
                    "picture": .string(grace.photoURL!), "locale": .string("en"),
                ])
            // GitHub: the /user answer.
            let github = try await info(.githubUser)
            #expect(github["login"] == .string("sandbox-mona"))
            #expect(github["id"] == .number(9_919_191))
            #expect(github["name"] == .string("Mona Lisa Octocat"))
            // Twitter: verify_credentials, with id_str.
            let twitter = try await info(.twitterUser)
            #expect(twitter["id_str"] == .string(SandboxIdentity.twitterUser.subject))
            #expect(twitter["screen_name"] == .string("sandbox_jack"))
            // Microsoft and Apple: the ID token's claims.
            let microsoft = try await info(.microsoftWork)
            #expect(microsoft["oid"] == .string(SandboxIdentity.microsoftWork.subject))
            #expect(microsoft["tid"] == .string(SandboxMicrosoftTenant.contoso.id))
            let apple = try await info(.appleAlice)
            #expect(apple["sub"] == .string(SandboxIdentity.appleAlice.subject))
            #expect(apple["email"] == .string("alice@example.com"))
            // Facebook: Graph /me.
            let facebook = try await info(.facebookUser)
            #expect(facebook["id"] == .string(SandboxIdentity.facebookUser.subject))
            #expect(facebook["name"] == .string("Frank Sandbox"))
        }
    }
}
