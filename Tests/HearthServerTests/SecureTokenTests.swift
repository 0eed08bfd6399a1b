import Foundation
import HTTPTypes
import HearthCore
import HearthWire
import Testing

@Suite("securetoken v1/token")
struct SecureTokenTests {
    @Test("refresh answers snake_case and keeps auth_time and the sign-in provider")
    func refresh() async throws {
        try await withHearth { hearth, client async throws in
            let created = try await client.signUp(email: "ada@example.com")
            hearth.clock.advance(by: 600)
            let result = try await client.refresh(created.refreshToken!)
            #expect(result.status == .ok)
            let response = try result.decode(TokenResponse.self)
            #expect(response.accessToken == response.idToken)
            #expect(response.expiresIn == "3600")
            #expect(response.tokenType == "Bearer")
            #expect(response.refreshToken == created.refreshToken)
            #expect(response.userId == created.localId)
            #expect(response.projectId == "demo-hearth")
            let before = jwtClaims(created.idToken!)
            let after = jwtClaims(response.idToken)
            #expect(after["auth_time"] == before["auth_time"])
            #expect(after["iat"] != before["iat"])
            #expect(after["firebase"] == before["firebase"])
        }
    }

    @Test("camelCase JSON and form bodies are accepted too")
    func bodyForms() async throws {
        try await withHearth { _, client async throws in
            let created = try await client.signUpAnonymously()
            let camel = try await client.post("/v1/token", ["grantType": .string("refresh_token"), "refreshToken": .string(created.refreshToken!)])
            #expect(camel.status == .ok)
            let token = created.refreshToken!.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let form = try await client.raw(
                "/securetoken.googleapis.com/v1/token", method: .post,
                body: Data("grant_type=refresh_token&refresh_token=\(token)".utf8),
                headers: [.contentType: "application/x-www-form-urlencoded"])
            #expect(form.status == .ok)
            #expect(form.string("user_id") == created.localId)
        }
    }

    @Test("errors: MISSING_GRANT_TYPE, INVALID_GRANT_TYPE, MISSING_REFRESH_TOKEN, INVALID_REFRESH_TOKEN")
    func errors() async throws {
        try await withHearth { _, client async throws in
            #expect(try await client.post("/v1/token", json: #"{"refresh_token":"x"}"#).errorMessage == "MISSING_GRANT_TYPE")
            #expect(try await client.post("/v1/token", json: #"{"grant_type":"authorization_code","code":"x"}"#).errorMessage == "INVALID_GRANT_TYPE")
            #expect(try await client.post("/v1/token", json: #"{"grant_type":"refresh_token"}"#).errorMessage == "MISSING_REFRESH_TOKEN")
            #expect(try await client.refresh("AMf-made-up").errorMessage == "INVALID_REFRESH_TOKEN")
        }
    }

    @Test("refresh tokens stop working when the account is disabled, deleted, or its password changes")
    func revocation() async throws {
        try await withHearth { hearth, client async throws in
            let a = try await client.signUp(email: "a@example.com")
            try await hearth.services.store.updateUser(uid: a.localId, session: nil) { $0.disabled = true }
            #expect(try await client.refresh(a.refreshToken!).errorMessage == "USER_DISABLED")

            let b = try await client.signUpAnonymously()
            _ = try await client.post("/v1/accounts:delete", ["idToken": .string(b.idToken!)])
            #expect(try await client.refresh(b.refreshToken!).errorMessage == "INVALID_REFRESH_TOKEN")

            let c = try await client.signUp(email: "c@example.com")
            let second = try #require(try await client.signIn(email: "c@example.com").string("refreshToken"))
            hearth.clock.advance(by: 1)
            let change = try await client.post("/v1/accounts:update", ["idToken": .string(c.idToken!), "password": .string("new password")])
            #expect(change.status == .ok)
            #expect(try await client.refresh(c.refreshToken!).errorMessage == "TOKEN_EXPIRED")
            #expect(try await client.refresh(second).errorMessage == "TOKEN_EXPIRED")
            #expect(try await client.lookup(c.idToken!).errorMessage == "TOKEN_EXPIRED")
            let renewed = try #require(change.string("refreshToken"))
            #expect(try await client.refresh(renewed).status == .ok)
        }
    }
}
