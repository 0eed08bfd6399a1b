import Foundation
import HearthCore
import HearthWire
import Testing

@Suite("accounts:signInWithPassword")
struct SignInWithPasswordTests {
    @Test("a correct password signs in and updates lastLoginAt")
    func success() async throws {
        try await withHearth { hearth, client async throws in
            let created = try await client.signUp(email: "ada@example.com", password: "secret1")
            hearth.clock.advance(by: 60)
            let result = try await client.signIn(email: "ADA@example.com", password: "secret1")
            #expect(result.status == .ok)
            #expect(result.string("kind") == "identitytoolkit#VerifyPasswordResponse")
            #expect(result["registered"] == .bool(true))
            #expect(result.string("localId") == created.localId)
            #expect(result.string("email") == "ada@example.com")
            #expect(result.string("displayName") == "")
            #expect(result.string("expiresIn") == "3600")
            let user = try #require(try await hearth.services.store.user(uid: created.localId))
            #expect(user.lastLoginAt == hearth.clock.now)
        }
    }

    @Test("failures say EMAIL_NOT_FOUND, INVALID_PASSWORD, USER_DISABLED and the missing field")
    func failures() async throws {
        try await withHearth { hearth, client async throws in
            let created = try await client.signUp(email: "ada@example.com", password: "secret1")
            #expect(try await client.signIn(email: "nobody@example.com").errorMessage == "EMAIL_NOT_FOUND")
            #expect(try await client.signIn(email: "ada@example.com", password: "wrong!!").errorMessage == "INVALID_PASSWORD")
            #expect(try await client.post("/v1/accounts:signInWithPassword", json: #"{"password":"x"}"#).errorMessage == "MISSING_EMAIL")
            #expect(
                try await client.post("/v1/accounts:signInWithPassword", json: #"{"email":"ada@example.com"}"#).errorMessage == "MISSING_PASSWORD")
            #expect(
                try await client.post("/v1/accounts:signInWithPassword", json: #"{"email":"ada@","password":"secret1"}"#).errorMessage
                    == "INVALID_EMAIL")
            try await hearth.services.store.updateUser(uid: created.localId, session: nil) { $0.disabled = true }
            #expect(try await client.signIn(email: "ada@example.com", password: "secret1").errorMessage == "USER_DISABLED")
        }
    }

    @Test("an anonymous user's e-mail without a password gives INVALID_PASSWORD")
    func noPassword() async throws {
        try await withHearth { hearth, client async throws in
            let anonymous = try await client.signUpAnonymously()
            let update = try await client.post("/v1/accounts:update", ["idToken": .string(anonymous.idToken!), "email": .string("bare@example.com")])
            #expect(update.status == .ok)
            #expect(try await client.signIn(email: "bare@example.com").errorMessage == "INVALID_PASSWORD")
        }
    }

    @Test("with e-mail enumeration protection both failures say INVALID_LOGIN_CREDENTIALS")
    func enumerationProtection() async throws {
        try await withHearth({ $0.signIn.emailEnumerationProtection = true }) { _, client async throws in
            _ = try await client.signUp(email: "ada@example.com", password: "secret1")
            #expect(try await client.signIn(email: "nobody@example.com").errorMessage == "INVALID_LOGIN_CREDENTIALS")
            #expect(try await client.signIn(email: "ada@example.com", password: "wrong!!").errorMessage == "INVALID_LOGIN_CREDENTIALS")
            #expect(try await client.signIn(email: "ada@example.com", password: "secret1").status == .ok)
        }
    }
}

/// Firebase's answer while an account's password lockout lasts.
let accountLockedMessage =
    "TOO_MANY_ATTEMPTS_TRY_LATER : Access to this account has been temporarily disabled due to many failed login attempts. You can immediately restore it by resetting your password or you can try again later."

@Suite("Password guessing is throttled")
struct PasswordThrottleTests {
    @Test("after the limit of wrong passwords even the right one waits: TOO_MANY_ATTEMPTS_TRY_LATER, until the wait passes")
    func throttle() async throws {
        try await withHearth({ $0.abuse.lockout.account.failuresBeforeWait = 3 }) { hearth, client async throws in
            _ = try await client.signUp(email: "ada@example.com", password: "secret1")
            for _ in 0..<3 {
                #expect(try await client.signIn(email: "ada@example.com", password: "guess!!").errorMessage == "INVALID_PASSWORD")
            }
            #expect(try await client.signIn(email: "ada@example.com", password: "secret1").errorMessage == accountLockedMessage)
            #expect(try await client.signIn(email: "other@example.com", password: "secret1").errorMessage == "EMAIL_NOT_FOUND")
            hearth.clock.advance(by: 61)
            #expect(try await client.signIn(email: "ada@example.com", password: "secret1").status == .ok)
        }
    }
}
