import Foundation
import HTTPTypes
import HearthCore
import HearthServer
import HearthWire
import Testing

@Suite("Routes, API keys, CORS and bad input")
struct RoutingAndInputTests {
    @Test("every route answers at its bare path, under the emulator host prefix and at its legacy v3 name")
    func prefixes() async throws {
        try await withHearth { _, client async throws in
            let v1 = try await client.post("/identitytoolkit.googleapis.com/v1/accounts:signUp", json: "{}")
            #expect(v1.status == .ok)
            let legacy = try await client.post(
                "/www.googleapis.com/identitytoolkit/v3/relyingparty/signupNewUser", json: #"{"email":"ada@example.com","password":"secret1"}"#)
            #expect(legacy.status == .ok)
            let idToken = try #require(legacy.string("idToken"))
            #expect(
                try await client.post(
                    "/www.googleapis.com/identitytoolkit/v3/relyingparty/verifyPassword", json: #"{"email":"ada@example.com","password":"secret1"}"#
                ).status == .ok)
            #expect(
                try await client.post("/www.googleapis.com/identitytoolkit/v3/relyingparty/getAccountInfo", ["idToken": .string(idToken)]).status
                    == .ok)
            #expect(try await client.post("/identitytoolkit/v3/relyingparty/getAccountInfo", ["idToken": .string(idToken)]).status == .ok)
            #expect(
                try await client.post(
                    "/www.googleapis.com/identitytoolkit/v3/relyingparty/setAccountInfo",
                    ["idToken": .string(idToken), "displayName": .string("Ada")]
                ).status == .ok)
            #expect(
                try await client.post(
                    "/www.googleapis.com/identitytoolkit/v3/relyingparty/createAuthUri",
                    ["identifier": .string("ada@example.com"), "continueUri": .string("http://localhost")]
                ).status == .ok)
            let refresh = try await client.post(
                "/securetoken.googleapis.com/v1/token",
                ["grantType": .string("refresh_token"), "refreshToken": .string(legacy.string("refreshToken")!)])
            #expect(refresh.status == .ok)
            #expect(
                try await client.post("/www.googleapis.com/identitytoolkit/v3/relyingparty/deleteAccount", ["idToken": .string(idToken)]).status
                    == .ok)
        }
    }

    @Test("a missing API key is a 403 with Google's message; the header form works too")
    func apiKey() async throws {
        try await withHearth { _, client async throws in
            var keyless = client
            keyless.apiKey = nil
            let missing = try await keyless.post("/v1/accounts:signUp", json: "{}")
            #expect(missing.status == .forbidden)
            #expect(missing.errorMessage == "The request is missing a valid API key.")
            #expect(missing.json["error"]?.objectValue?["status"] == .string("PERMISSION_DENIED"))
            let header = try await keyless.post("/v1/accounts:signUp", json: "{}", headers: [HTTPField.Name("x-goog-api-key")!: "anything"])
            #expect(header.status == .ok)
        }
    }

    @Test("in production only configured API keys are accepted")
    func productionKeys() async throws {
        try await withHearth({
            $0.mode = .production
            $0.projectID = "acme-prod"
            $0.apiKeys = ["AIzaSyTestKeyForHearth01"]
        }) { _, client async throws in
            var wrong = client
            wrong.apiKey = "not-a-configured-key"
            let refused = try await wrong.post("/v1/accounts:signUp", json: "{}")
            #expect(refused.status == .badRequest)
            #expect(refused.errorMessage == "API key not valid. Please pass a valid API key.")
            #expect(
                refused.json["error"]?.objectValue?["errors"]
                    == .array([
                        .object([
                            "message": .string("API key not valid. Please pass a valid API key."), "reason": .string("keyInvalid"),
                            "domain": .string("global"),
                        ])
                    ]))
            var right = client
            right.apiKey = "AIzaSyTestKeyForHearth01"
            let accepted = try await right.post("/v1/accounts:signUp", json: "{}")
            #expect(accepted.status == .ok)
            #expect(jwtClaims(accepted.string("idToken")!)["aud"] == .string("acme-prod"))
        }
    }

    @Test("CORS: preflights answer 204 with the origin and headers reflected; responses carry the origin")
    func cors() async throws {
        try await withHearth { _, client async throws in
            let preflight = try await client.raw(
                "/v1/accounts:signUp", method: .options,
                headers: [
                    .origin: "http://localhost:3000", .accessControlRequestMethod: "POST",
                    .accessControlRequestHeaders: "content-type,x-client-version",
                ])
            #expect(preflight.status == .noContent)
            #expect(preflight.headers[.accessControlAllowOrigin] == "http://localhost:3000")
            #expect(preflight.headers[.accessControlAllowHeaders] == "content-type,x-client-version")
            let post = try await client.post("/v1/accounts:signUp", json: "{}", headers: [.origin: "http://localhost:3000"])
            #expect(post.headers[.accessControlAllowOrigin] == "http://localhost:3000")
            let failure = try await client.post("/v1/accounts:lookup", json: "{}", headers: [.origin: "http://localhost:3000"])
            #expect(failure.errorMessage == "MISSING_ID_TOKEN")
            #expect(failure.headers[.accessControlAllowOrigin] == "http://localhost:3000")
        }
    }

    @Test("unknown routes are a JSON 404")
    func notFound() async throws {
        try await withHearth { _, client async throws in
            let result = try await client.post("/v1/accounts:doesNotExist", json: "{}")
            #expect(result.status == .notFound)
            #expect(result.errorMessage == "Not Found")
        }
    }

    @Test(
        "malformed bodies are INVALID_ARGUMENT with a reason, never a 500",
        arguments: [
            ("{bad", "Invalid JSON payload received. Unexpected token."),
            ("[1,2]", "Invalid JSON payload received. Expected a JSON object."),
            (#"{"email": 5, "password": "secret1"}"#, "Invalid JSON payload received. /email must be string"),
            (#"{"returnSecureToken": "yes"}"#, "Invalid JSON payload received. /returnSecureToken must be boolean"),
            (#"{"email": null, "password": "secret1"}"#, "MISSING_EMAIL"),
        ])
    func malformed(body: String, message: String) async throws {
        try await withHearth { hearth, client async throws in
            let result = try await client.post("/v1/accounts:signUp", json: body)
            #expect(result.status == .badRequest)
            #expect(result.errorMessage == message)
            #expect(try await hearth.services.store.countUsers() == 0)
        }
    }

    @Test("unknown fields are tolerated, and form bodies that hold JSON are read as JSON")
    func tolerant() async throws {
        try await withHearth { _, client async throws in
            #expect(
                try await client.post(
                    "/v1/accounts:signUp", json: #"{"returnSecureToken":true,"clientType":"CLIENT_TYPE_WEB","futureField":{"a":1}}"#
                ).status == .ok)
            let form = try await client.raw(
                "/v1/accounts:signUp", method: .post, body: Data("{}".utf8), headers: [.contentType: "application/x-www-form-urlencoded"])
            #expect(form.status == .ok)
        }
    }

    @Test("an oversized body is refused with Google's message")
    func oversized() async throws {
        try await withHearth({ $0.maxBodyBytes = 2_048 }) { hearth, client async throws in
            let big = #"{"displayName":""# + String(repeating: "x", count: 10_000) + #""}"#
            let result = try await client.post("/v1/accounts:signUp", json: big)
            #expect(result.status == .contentTooLarge)
            #expect(result.errorMessage == "Request payload size exceeds the limit: 2048 bytes.")
            #expect(try await hearth.services.store.countUsers() == 0)
        }
    }

    @Test("concurrent sign-ups with one e-mail: exactly one wins, the rest get EMAIL_EXISTS")
    func concurrentSignUps() async throws {
        try await withHearth { hearth, client async throws in
            let messages = try await withThrowingTaskGroup(of: String?.self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        try await client.post("/v1/accounts:signUp", json: #"{"email":"race@example.com","password":"secret1"}"#).errorMessage
                    }
                }
                return try await group.reduce(into: [String?]()) { $0.append($1) }
            }
            #expect(messages.filter { $0 == nil }.count == 1)
            #expect(messages.compactMap { $0 }.allSatisfy { $0 == "EMAIL_EXISTS" })
            #expect(try await hearth.services.store.countUsers() == 1)
        }
    }
}
