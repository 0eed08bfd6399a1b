import Foundation
import HearthCore
import HearthWire
import Testing

@Suite("accounts:createAuthUri (fetchSignInMethods)")
struct CreateAuthUriTests {
    @Test("a registered e-mail lists its sign-in methods")
    func registered() async throws {
        try await withHearth { _, client async throws in
            _ = try await client.signUp(email: "ada@example.com")
            let result = try await client.post(
                "/v1/accounts:createAuthUri", ["identifier": .string("ADA@example.com"), "continueUri": .string("http://localhost")])
            #expect(result.status == .ok)
            let response = try result.decode(CreateAuthUriResponse.self)
            #expect(response.kind == "identitytoolkit#CreateAuthUriResponse")
            #expect(response.registered == true)
            #expect(response.signinMethods == ["password"])
            #expect(response.allProviders == ["password"])
            #expect(response.sessionId?.isEmpty == false)
        }
    }

    @Test("an unknown e-mail is not registered")
    func unknown() async throws {
        try await withHearth { _, client async throws in
            let result = try await client.post(
                "/v1/accounts:createAuthUri",
                ["identifier": .string("nobody@example.com"), "continueUri": .string("http://localhost"), "sessionId": .string("s1")])
            let response = try result.decode(CreateAuthUriResponse.self)
            #expect(response.registered == false)
            #expect(response.signinMethods == nil)
            #expect(response.sessionId == "s1")
        }
    }

    @Test(
        "errors: MISSING_IDENTIFIER, MISSING_CONTINUE_URI, INVALID_CONTINUE_URI, INVALID_IDENTIFIER",
        arguments: [
            (#"{"continueUri":"http://localhost"}"#, "MISSING_IDENTIFIER"),
            (#"{"identifier":"a@example.com"}"#, "MISSING_CONTINUE_URI"),
            (#"{"identifier":"a@example.com","continueUri":"not a uri"}"#, "INVALID_CONTINUE_URI"),
            (#"{"identifier":"a-phone-number","continueUri":"http://localhost"}"#, "INVALID_IDENTIFIER"),
        ])
    func errors(body: String, message: String) async throws {
        try await withHearth { _, client async throws in
            let result = try await client.post("/v1/accounts:createAuthUri", json: body)
            #expect(result.errorMessage == message)
        }
    }

    @Test(
        "several accounts per e-mail (allowDuplicateEmails): only the address's own account counts, with password alone, not its providers",
        arguments: [true, false])
    func duplicateEmails(oneAccountPerEmail: Bool) async throws {
        try await withHearth({ $0.signIn.oneAccountPerEmail = oneAccountPerEmail }) { _, client async throws in
            let ada = try await client.signUp(email: "ada@example.com")
            let admin = AdminClient(client)
            let linked = try await admin.post(
                "/accounts:update",
                #"{"localId":"\#(ada.localId)","linkProviderUserInfo":{"providerId":"google.com","rawId":"g-ada","email":"ada@example.com"}}"#)
            #expect(linked.status == .ok, "\(linked.text)")
            // Another account knows an address only from its provider.
            _ = try await admin.post("/accounts", #"{"localId":"grace"}"#)
            _ = try await admin.post(
                "/accounts:update",
                #"{"localId":"grace","linkProviderUserInfo":{"providerId":"github.com","rawId":"gh-grace","email":"grace@example.com"}}"#)
            func methods(_ email: String) async throws -> CreateAuthUriResponse {
                try await client.post("/v1/accounts:createAuthUri", ["identifier": .string(email), "continueUri": .string("http://localhost")])
                    .decode(CreateAuthUriResponse.self)
            }
            let own = try await methods("ada@example.com")
            #expect(own.registered == true)
            #expect(own.signinMethods == (oneAccountPerEmail ? ["password", "google.com"] : ["password"]))
            let providerOnly = try await methods("grace@example.com")
            #expect(providerOnly.registered == oneAccountPerEmail)
            #expect(providerOnly.signinMethods == (oneAccountPerEmail ? ["github.com"] : nil))
        }
    }

    @Test("e-mail enumeration protection answers with the session id only")
    func protected() async throws {
        try await withHearth({ $0.signIn.emailEnumerationProtection = true }) { _, client async throws in
            _ = try await client.signUp(email: "ada@example.com")
            let result = try await client.post(
                "/v1/accounts:createAuthUri", ["identifier": .string("ada@example.com"), "continueUri": .string("http://localhost")])
            #expect(result["registered"] == nil)
            #expect(result["signinMethods"] == nil)
            #expect(result.string("sessionId") != nil)
        }
    }
}
