import Foundation
import HearthCore
import HearthWire
import Testing

@Suite("accounts:signUp")
struct SignUpTests {
    @Test("anonymous sign-up returns tokens with Firebase's anonymous claims")
    func anonymous() async throws {
        try await withHearth { hearth, client async throws in
            let result = try await client.post("/v1/accounts:signUp", ["returnSecureToken": .bool(true)])
            #expect(result.status == .ok)
            #expect(result.string("kind") == "identitytoolkit#SignupNewUserResponse")
            #expect(result.string("expiresIn") == "3600")
            #expect(result["email"] == nil)
            let response = try result.decode(SignUpResponse.self)
            #expect(response.localId.count == 28)
            let claims = jwtClaims(try #require(response.idToken))
            #expect(claims["provider_id"] == .string("anonymous"))
            #expect(claims["firebase"] == .object(["identities": .object([:]), "sign_in_provider": .string("anonymous")]))
            #expect(claims["sub"] == .string(response.localId))
            #expect(claims["user_id"] == .string(response.localId))
            #expect(claims["aud"] == .string("demo-hearth"))
            #expect(claims["iss"] == .string("https://securetoken.google.com/demo-hearth"))
            guard case .number(let iat)? = claims["iat"], case .number(let exp)? = claims["exp"], case .number(let authTime)? = claims["auth_time"]
            else {
                Issue.record("missing time claims")
                return
            }
            #expect(exp == iat + 3600)
            #expect(authTime == iat)
            #expect(jwtHeader(response.idToken!)["alg"] == .string("RS256"))
            #expect(try await hearth.services.store.user(uid: response.localId)?.isAnonymous == true)
        }
    }

    @Test("e-mail sign-up lower-cases the e-mail and signs in with the password provider")
    func emailPassword() async throws {
        try await withHearth { _, client async throws in
            let response = try await client.signUp(email: "Ada@Example.COM", password: "secret1")
            #expect(response.email == "ada@example.com")
            let claims = jwtClaims(try #require(response.idToken))
            #expect(claims["email"] == .string("ada@example.com"))
            #expect(claims["email_verified"] == .bool(false))
            #expect(claims["provider_id"] == nil)
            #expect(
                claims["firebase"]
                    == .object([
                        "identities": .object(["email": .array([.string("ada@example.com")])]),
                        "sign_in_provider": .string("password"),
                    ]))
        }
    }

    @Test("an anonymous user keeps its uid when upgraded with e-mail and password")
    func upgradeAnonymous() async throws {
        try await withHearth { hearth, client async throws in
            let anonymous = try await client.signUpAnonymously()
            let upgraded = try await client.signUp(email: "grace@example.com", idToken: anonymous.idToken)
            #expect(upgraded.localId == anonymous.localId)
            #expect(jwtClaims(upgraded.idToken!)["firebase"]?.objectValue?["sign_in_provider"] == .string("password"))
            let user = try #require(try await hearth.services.store.user(uid: anonymous.localId))
            #expect(!user.isAnonymous)
            #expect(user.scheduledDeletionAt == nil)
            let signIn = try await client.signIn(email: "grace@example.com")
            #expect(signIn.status == .ok)
            #expect(signIn.string("localId") == anonymous.localId)
        }
    }

    @Test(
        "user errors carry Firebase's exact strings",
        arguments: [
            (#"{"email":"a@example.com","password":"12345"}"#, "WEAK_PASSWORD : Password should be at least 6 characters"),
            (#"{"email":"not-an-email","password":"123456"}"#, "INVALID_EMAIL"),
            (#"{"email":"","password":"123456"}"#, "INVALID_EMAIL"),
            (#"{"password":"123456"}"#, "MISSING_EMAIL"),
            (#"{"email":"a@example.com"}"#, "MISSING_PASSWORD"),
            (#"{"localId":"abc"}"#, "UNEXPECTED_PARAMETER : User ID"),
            (#"{"idToken":"not.a.token","email":"a@example.com","password":"123456"}"#, "INVALID_ID_TOKEN"),
        ])
    func errors(body: String, message: String) async throws {
        try await withHearth { _, client async throws in
            let result = try await client.post("/v1/accounts:signUp", json: body)
            #expect(result.status == .badRequest)
            #expect(result.errorMessage == message)
            #expect(result.json["error"]?.objectValue?["errors"] != nil)
        }
    }

    @Test("EMAIL_EXISTS for an e-mail that is taken, in any case")
    func emailExists() async throws {
        try await withHearth { hearth, client async throws in
            _ = try await client.signUp(email: "taken@example.com")
            let again = try await client.post("/v1/accounts:signUp", json: #"{"email":"TAKEN@example.com","password":"123456"}"#)
            #expect(again.errorMessage == "EMAIL_EXISTS")
            let anonymous = try await client.signUpAnonymously()
            let link = try await client.post(
                "/v1/accounts:signUp", ["email": .string("taken@example.com"), "password": .string("123456"), "idToken": .string(anonymous.idToken!)])
            #expect(link.errorMessage == "EMAIL_EXISTS")
            #expect(try await hearth.services.store.user(uid: anonymous.localId)?.isAnonymous == true)
        }
    }

    @Test("switched-off sign-in methods are refused")
    func disabledMethods() async throws {
        try await withHearth({
            $0.signIn.anonymousEnabled = false
            $0.signIn.passwordEnabled = false
        }) { _, client async throws in
            #expect(try await client.post("/v1/accounts:signUp", json: "{}").errorMessage == "ADMIN_ONLY_OPERATION")
            #expect(
                try await client.post("/v1/accounts:signUp", json: #"{"email":"a@example.com","password":"123456"}"#).errorMessage
                    == "OPERATION_NOT_ALLOWED")
            #expect(try await client.signIn(email: "a@example.com").errorMessage == "OPERATION_NOT_ALLOWED")
        }
    }
}

extension JSONValue {
    var objectValue: [String: JSONValue]? {
        if case .object(let object) = self { return object }
        return nil
    }
}
