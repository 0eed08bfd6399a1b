import Foundation
import HearthCore
import HearthWire
import Testing

@Suite("accounts:update and accounts:delete")
struct UpdateAndDeleteTests {
    @Test("profile changes need no recent login and return no new tokens")
    func profile() async throws {
        try await withHearth { hearth, client async throws in
            let created = try await client.signUp(email: "ada@example.com")
            hearth.clock.advance(by: 1_000)
            let fresh = try #require(try await client.refresh(created.refreshToken!).string("id_token"))
            let result = try await client.post(
                "/v1/accounts:update",
                [
                    "idToken": .string(fresh), "displayName": .string("Ada"), "photoUrl": .string("https://example.com/a.png"),
                    "returnSecureToken": .bool(true),
                ])
            #expect(result.status == .ok)
            #expect(result.string("kind") == "identitytoolkit#SetAccountInfoResponse")
            #expect(result.string("displayName") == "Ada")
            #expect(result.string("photoUrl") == "https://example.com/a.png")
            #expect(result["idToken"] == nil)
            #expect(result.string("passwordHash") == "UkVEQUNURUQ=")
            let cleared = try await client.post(
                "/v1/accounts:update", ["idToken": .string(fresh), "deleteAttribute": .array([.string("DISPLAY_NAME"), .string("PHOTO_URL")])])
            #expect(cleared["displayName"] == nil && cleared["photoUrl"] == nil)
            let refreshed = try #require(try await client.refresh(created.refreshToken!).string("id_token"))
            #expect(jwtClaims(refreshed)["name"] == nil)
        }
    }

    @Test("changing e-mail or password needs a recent sign-in")
    func recentLogin() async throws {
        try await withHearth { hearth, client async throws in
            let created = try await client.signUp(email: "ada@example.com")
            hearth.clock.advance(by: 301)
            let fresh = try #require(try await client.refresh(created.refreshToken!).string("id_token"))
            #expect(
                try await client.post("/v1/accounts:update", ["idToken": .string(fresh), "password": .string("another1")]).errorMessage
                    == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
            #expect(
                try await client.post("/v1/accounts:update", ["idToken": .string(fresh), "email": .string("new@example.com")]).errorMessage
                    == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
            #expect(try await client.post("/v1/accounts:delete", ["idToken": .string(fresh)]).errorMessage == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
            #expect(try await hearth.services.store.user(uid: created.localId) != nil)
            // Signing in again makes it recent.
            let again = try #require(try await client.signIn(email: "ada@example.com").string("idToken"))
            let changed = try await client.post("/v1/accounts:update", ["idToken": .string(again), "email": .string("New@Example.com")])
            #expect(changed.status == .ok)
            #expect(changed.string("email") == "new@example.com")
            #expect(changed["emailVerified"] == .bool(false))
            #expect(changed.string("idToken") != nil)
            #expect(try await client.signIn(email: "new@example.com").status == .ok)
            #expect(try await client.signIn(email: "ada@example.com").errorMessage == "EMAIL_NOT_FOUND")
        }
    }

    @Test("signUp with an ID token meets the same recent-sign-in rule as update: no e-mail or password replaced with an old token")
    func signUpWithStaleToken() async throws {
        try await withHearth { hearth, client async throws in
            let victim = try await client.signUp(email: "ada@example.com")
            hearth.clock.advance(by: 3_000)
            let stale = try #require(try await client.refresh(victim.refreshToken!).string("id_token"))
            let viaSignUp = try await client.post(
                "/v1/accounts:signUp",
                [
                    "idToken": .string(stale), "email": .string("attacker@example.com"), "password": .string("attacker-password"),
                ])
            #expect(viaSignUp.errorMessage == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
            let viaUpdate = try await client.post(
                "/v1/accounts:update",
                [
                    "idToken": .string(stale), "email": .string("attacker@example.com"), "password": .string("attacker-password"),
                ])
            #expect(viaUpdate.errorMessage == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
            // Same e-mail, new password: still a replaced password.
            let samePassword = try await client.post(
                "/v1/accounts:signUp",
                [
                    "idToken": .string(stale), "email": .string("ada@example.com"), "password": .string("attacker-password"),
                ])
            #expect(samePassword.errorMessage == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
            #expect(try await client.signIn(email: "ada@example.com").status == .ok)
            #expect(try await client.signIn(email: "attacker@example.com").errorMessage == "EMAIL_NOT_FOUND")

            // A fresh sign-in may replace them through either endpoint.
            let fresh = try #require(try await client.signIn(email: "ada@example.com").string("idToken"))
            let replaced = try await client.post(
                "/v1/accounts:signUp",
                [
                    "idToken": .string(fresh), "email": .string("ada2@example.com"), "password": .string("new password"),
                ])
            #expect(replaced.status == .ok, "\(replaced.text)")
            #expect(replaced.string("localId") == victim.localId)
        }
    }

    @Test("adding an e-mail and password to a provider-only account needs a recent sign-in; an anonymous upgrade does not")
    func addingCredentials() async throws {
        try await withHearth { hearth, client async throws in
            // A provider-only account (custom-token sign-in), an hour after it signed in.
            let token = CustomTokenTests.unsigned(["uid": .string("backend-user")], now: hearth.clock.now)
            let signedIn = try await client.post("/v1/accounts:signInWithCustomToken", ["token": .string(token), "returnSecureToken": .bool(true)])
            let refreshToken = try #require(signedIn.string("refreshToken"))
            hearth.clock.advance(by: 3_600)
            let stale = try #require(try await client.refresh(refreshToken).string("id_token"))
            for path in ["/v1/accounts:signUp", "/v1/accounts:update"] {
                let added = try await client.post(
                    path, ["idToken": .string(stale), "email": .string("eve@example.com"), "password": .string("eve's password")])
                #expect(added.errorMessage == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN", "\(path)")
            }
            #expect(try await hearth.services.store.user(uid: "backend-user")?.passwordHash == nil)

            // An anonymous account has no other way in: its ID token alone upgrades it, however old.
            let anonymous = try await client.signUpAnonymously()
            hearth.clock.advance(by: 3_000)
            let old = try #require(try await client.refresh(anonymous.refreshToken!).string("id_token"))
            let upgraded = try await client.post(
                "/v1/accounts:signUp", ["idToken": .string(old), "email": .string("anon@example.com"), "password": .string("anon password")])
            #expect(upgraded.status == .ok, "\(upgraded.text)")
            #expect(upgraded.string("localId") == anonymous.localId)
        }
    }

    @Test("an ID token of an older sign-in, minted in the very second of a password change, is refused (auth_time against validSince)")
    func sameSecondRevocation() async throws {
        try await withHearth { hearth, client async throws in
            let created = try await client.signUp(email: "ada@example.com")
            hearth.clock.advance(by: 100.2)
            // Within one second: the old session mints a token, then a fresh sign-in changes the password.
            let minted = try #require(try await client.refresh(created.refreshToken!).string("id_token"))
            let fresh = try #require(try await client.signIn(email: "ada@example.com").string("idToken"))
            hearth.clock.advance(by: 0.5)
            let changed = try await client.post("/v1/accounts:update", ["idToken": .string(fresh), "password": .string("new password")])
            #expect(changed.status == .ok, "\(changed.text)")
            #expect(jwtClaims(minted)["iat"] == jwtClaims(try #require(changed.string("idToken")))["iat"])
            #expect(try await client.post("/v1/accounts:lookup", ["idToken": .string(minted)]).errorMessage == "TOKEN_EXPIRED")
            #expect(try await client.refresh(created.refreshToken!).errorMessage == "TOKEN_EXPIRED")
            #expect(try await client.post("/v1/accounts:lookup", ["idToken": .string(try #require(changed.string("idToken")))]).status == .ok)
        }
    }

    @Test("a user created in the last half millisecond of a second keeps its first ID token after a restart")
    func validSinceIsNeverRoundedUp() async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000.9996))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-valid-since-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try await TestHearth.make(directory: directory, clock: clock)
        let created = try await first.withClient { try await $0.signUpAnonymously() }
        try await first.close()
        let again = try await TestHearth.make(directory: directory, clock: clock)
        let lookup = try await again.withClient { try await $0.post("/v1/accounts:lookup", ["idToken": .string(created.idToken!)]) }
        try await again.close()
        #expect(lookup.status == .ok, "\(lookup.text)")
    }

    @Test("update errors: INVALID_REQ_TYPE, INSUFFICIENT_PERMISSION, OPERATION_NOT_ALLOWED, INVALID_EMAIL, WEAK_PASSWORD, EMAIL_EXISTS")
    func errors() async throws {
        try await withHearth { _, client async throws in
            let a = try await client.signUp(email: "a@example.com")
            _ = try await client.signUp(email: "b@example.com")
            let token = JSONValue.string(a.idToken!)
            #expect(
                try await client.post("/v1/accounts:update", json: #"{"displayName":"x"}"#).errorMessage
                    == "INVALID_REQ_TYPE : Unsupported request parameters.")
            #expect(
                try await client.post("/v1/accounts:update", ["idToken": token, "customAttributes": .string(#"{"admin":true}"#)]).errorMessage
                    == "INSUFFICIENT_PERMISSION")
            #expect(
                try await client.post("/v1/accounts:update", ["idToken": token, "disableUser": .bool(true)]).errorMessage == "OPERATION_NOT_ALLOWED")
            #expect(try await client.post("/v1/accounts:update", ["idToken": token, "email": .string("nope")]).errorMessage == "INVALID_EMAIL")
            #expect(
                try await client.post("/v1/accounts:update", ["idToken": token, "password": .string("short")]).errorMessage
                    == "WEAK_PASSWORD : Password should be at least 6 characters")
            #expect(
                try await client.post("/v1/accounts:update", ["idToken": token, "email": .string("B@example.com")]).errorMessage == "EMAIL_EXISTS")
            #expect(try await client.post("/v1/accounts:update", ["idToken": .string("x.y.z")]).errorMessage == "INVALID_ID_TOKEN")
        }
    }

    @Test("an anonymous user may add an e-mail and a password without re-authenticating")
    func anonymousUpgradeThroughUpdate() async throws {
        try await withHearth { hearth, client async throws in
            let anonymous = try await client.signUpAnonymously()
            hearth.clock.advance(by: 3_000)
            let fresh = try #require(try await client.refresh(anonymous.refreshToken!).string("id_token"))
            let result = try await client.post(
                "/v1/accounts:update", ["idToken": .string(fresh), "email": .string("late@example.com"), "password": .string("secret1")])
            #expect(result.status == .ok)
            #expect(jwtClaims(try #require(result.string("idToken")))["firebase"]?.objectValue?["sign_in_provider"] == .string("password"))
            #expect(try await hearth.services.store.user(uid: anonymous.localId)?.isAnonymous == false)
        }
    }

    @Test(
        "unlinking the password provider of the last way in is allowed, as Firebase allows it: the session lives on, the clean-up leaves the account")
    func unlinkLast() async throws {
        try await withHearth { hearth, client async throws in
            let created = try await client.signUp(email: "ada@example.com")
            let result = try await client.post(
                "/v1/accounts:update", ["idToken": .string(created.idToken!), "deleteProvider": .array([.string("password")])])
            #expect(result.status == .ok, "\(result.text)")
            #expect(result["providerUserInfo"] == .array([]) && result["email"] == nil)
            let user = try #require(try await hearth.services.store.user(uid: created.localId))
            #expect(!user.hasPasswordProvider && user.email == nil && user.scheduledDeletionAt == UserRecord.neverDeleted)
            #expect(try await client.lookup(created.idToken!).status == .ok)
            #expect(try await client.refresh(created.refreshToken!).status == .ok)
            #expect(try await client.signIn(email: "ada@example.com").errorMessage == "EMAIL_NOT_FOUND")
        }
    }

    @Test("a new password answers fresh idToken, refreshToken and expiresIn, as Firebase does; the old refresh token ends")
    func passwordChangeTokens() async throws {
        try await withHearth { hearth, client async throws in
            let created = try await client.signUp(email: "ada@example.com")
            hearth.clock.advance(by: 2)
            let changed = try await client.post("/v1/accounts:update", ["idToken": .string(created.idToken!), "password": .string("another one")])
            #expect(changed.status == .ok, "\(changed.text)")
            let idToken = try #require(changed.string("idToken"))
            let refreshToken = try #require(changed.string("refreshToken"))
            #expect(changed.string("expiresIn") == "3600")
            #expect(idToken != created.idToken && refreshToken != created.refreshToken)
            #expect(try await client.lookup(idToken).status == .ok)
            #expect(try await client.refresh(refreshToken).status == .ok)
            #expect(try await client.refresh(created.refreshToken!).errorMessage == "TOKEN_EXPIRED")
        }
    }

    @Test("delete removes the account; MISSING_ID_TOKEN without a token")
    func delete() async throws {
        try await withHearth { hearth, client async throws in
            let created = try await client.signUp(email: "ada@example.com")
            #expect(try await client.post("/v1/accounts:delete", json: "{}").errorMessage == "MISSING_ID_TOKEN")
            let result = try await client.post("/v1/accounts:delete", ["idToken": .string(created.idToken!)])
            #expect(result.status == .ok)
            #expect(result.string("kind") == "identitytoolkit#DeleteAccountResponse")
            #expect(try await hearth.services.store.user(uid: created.localId) == nil)
            #expect(try await client.lookup(created.idToken!).errorMessage == "USER_NOT_FOUND")
            #expect(try await client.signIn(email: "ada@example.com").errorMessage == "EMAIL_NOT_FOUND")
        }
    }
}
