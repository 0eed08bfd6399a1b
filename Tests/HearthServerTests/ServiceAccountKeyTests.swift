import Configuration
import CryptoExtras
import Foundation
import HTTPTypes
import HearthConfiguration
import HearthCore
import HearthServer
import HearthTesting
import HearthTokens
import HearthWire
import Testing

/// Service-account keys outside development mode: the JWT-bearer grant at `/oauth2/v4/token`, the access
/// tokens it hands out on the admin routes, custom tokens the same keys sign, and every refusal, over real
/// HTTP on loopback.
@Suite("Service-account keys: the token endpoint and admin access tokens")
struct ServiceAccountKeyTests {
    static let project = "hearth-admin-test"
    static let apiKey = "service-account-test-api-key"
    static let scope = "https://www.googleapis.com/auth/cloud-platform https://www.googleapis.com/auth/firebase"

    /// A production-mode live server (the sandbox the harness mounts is irrelevant here).
    static func withProductionHearth(_ body: (LiveHearth, FirebaseTestClient) async throws -> Void) async throws {
        try await withLiveHearth({ configuration in
            configuration.mode = .production
            configuration.projectID = project
            configuration.apiKeys = [apiKey]
            configuration.secrets.key = KeyEncryptionKey.generate().base64
        }) { live in
            var client = FirebaseTestClient(baseURL: live.baseURL)
            client.apiKey = apiKey
            try await body(live, client)
        }
    }

    /// A key made as `hearth admin create-key` makes it, with its private key read back from the file.
    struct Made {
        let key: ServiceAccountKey
        let file: [String: JSONValue]
        let privateKey: _RSA.Signing.PrivateKey
    }

    static func makeKey(_ live: LiveHearth, name: String = "backend-admin") async throws -> Made {
        let created = try await ServiceAccountKeys(store: live.services.store).create(
            name: name, projectID: live.projectID, baseURL: live.baseURL, now: live.clock.now)
        let file = try #require(JSONValue.object(fromJSON: String(decoding: created.file, as: UTF8.self)))
        guard case .string(let pem)? = file["private_key"] else { throw HarnessError("no private_key") }
        return Made(key: created.key, file: file, privateKey: try _RSA.Signing.PrivateKey(pemRepresentation: pem))
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// A JWT as google-auth's service-account credentials sign it, with `change` applied to the payload.
    static func assertion(
        _ made: Made, now: Date, header: [String: JSONValue]? = nil, signingKey: _RSA.Signing.PrivateKey? = nil,
        _ change: (inout [String: JSONValue]) -> Void = { _ in }
    ) throws -> String {
        let issuedAt = now.timeIntervalSince1970.rounded(.down)
        var payload: [String: JSONValue] = [
            "iat": .number(issuedAt), "exp": .number(issuedAt + 3_600), "iss": .string(made.key.clientEmail),
            "aud": .string(made.key.tokenURI), "scope": .string(scope),
        ]
        change(&payload)
        let header = header ?? ["typ": .string("JWT"), "alg": .string("RS256"), "kid": .string(made.key.keyID)]
        let input = base64URL(Data(JSONValue.object(header).jsonText.utf8)) + "." + base64URL(Data(JSONValue.object(payload).jsonText.utf8))
        let signature = try (signingKey ?? made.privateKey).signature(for: Data(input.utf8), padding: .insecurePKCS1v1_5)
        return input + "." + base64URL(signature.rawRepresentation)
    }

    static func form(_ assertion: String) -> String {
        "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(assertion)"
    }

    static func grant(_ client: FirebaseTestClient, body: String, contentType: String = "application/x-www-form-urlencoded") async throws
        -> WireResult
    {
        var client = client
        client.apiKey = nil
        return try await client.raw(
            ServiceAccountKeys.tokenPath, method: .post, body: Data(body.utf8), headers: [.contentType: contentType])
    }

    static func adminRoute(_ client: FirebaseTestClient, bearer: String) async throws -> WireResult {
        var client = client
        client.apiKey = nil
        return try await client.raw(
            "/v2/projects/\(project)/defaultSupportedIdpConfigs", method: .get, headers: [.authorization: "Bearer \(bearer)"])
    }

    @Test("the service-account file has every field Google's auth libraries read, and only the public key is stored")
    func fileFormat() async throws {
        try await Self.withProductionHearth { live, _ in
            let made = try await Self.makeKey(live)
            let file = made.file
            #expect(file["type"] == .string("service_account"))
            #expect(file["project_id"] == .string(Self.project))
            #expect(file["private_key_id"] == .string(made.key.keyID))
            #expect(file["client_email"] == .string("backend-admin@\(Self.project).iam.hearth.local"))
            #expect(file["token_uri"] == .string(live.baseURL + "/oauth2/v4/token"))
            #expect(file["client_id"] == .string(made.key.clientID))
            #expect(made.key.clientID.count == 21)
            for field in ["auth_uri", "auth_provider_x509_cert_url", "client_x509_cert_url"] {
                guard case .string(let url)? = file[field] else {
                    Issue.record("no \(field)")
                    continue
                }
                #expect(url.hasPrefix(live.baseURL))
            }
            guard case .string(let pem)? = file["private_key"] else { throw HarnessError("no private_key") }
            #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))  // PKCS#8, as Google's files
            let stored = try await live.services.store.settings(withPrefix: ServiceAccountKeys.settingPrefix)
            #expect(stored.count == 1)
            #expect(stored.values.allSatisfy { !$0.contains("PRIVATE KEY") })
            #expect(try await ServiceAccountKeys(store: live.services.store).all() == [made.key])
        }
    }

    @Test("a signed assertion buys an access token that an admin route accepts, until it expires; Bearer owner is refused")
    func grantHappyPath() async throws {
        try await Self.withProductionHearth { live, client in
            let made = try await Self.makeKey(live)
            let assertion = try Self.assertion(made, now: live.clock.now)
            let granted = try await Self.grant(client, body: Self.form(assertion))
            #expect(granted.status == .ok, "\(granted.text)")
            #expect(granted.string("token_type") == "Bearer")
            #expect(granted["expires_in"] == .number(3_600))
            #expect(granted.headers[.cacheControl] == "no-store")
            let accessToken = try #require(granted.string("access_token"))
            #expect(jwtHeader(accessToken)["typ"] == .string("at+jwt"))
            #expect(jwtClaims(accessToken)["sub"] == .string(made.key.clientEmail))
            #expect(jwtClaims(accessToken)["aud"] == .string("hearth-admin:\(Self.project)"))

            let admin = try await Self.adminRoute(client, bearer: accessToken)
            #expect(admin.status == .ok, "\(admin.text)")

            // Outside development mode the emulator's credential is nobody's.
            let owner = try await Self.adminRoute(client, bearer: "owner")
            #expect(owner.status == .unauthorized)
            #expect(owner.text.contains("UNAUTHENTICATED"))

            // The access token is no ID token, and an ID token is no access token.
            let asIDToken = try await client.post("/v1/accounts:lookup", ["idToken": .string(accessToken)])
            #expect(asIDToken.errorMessage == "INVALID_ID_TOKEN")
            let idToken = try #require(try await client.signUpAnonymously().idToken)
            #expect(try await Self.adminRoute(client, bearer: idToken).status == .unauthorized)

            // google-auth names Google's endpoint as aud whatever token_uri says: accepted too.
            let google = try Self.assertion(made, now: live.clock.now) { $0["aud"] = .string("https://oauth2.googleapis.com/token") }
            #expect(try await Self.grant(client, body: Self.form(google)).status == .ok)

            // The same assertion again (another process signed the same bytes in the same second): a token too.
            #expect(try await Self.grant(client, body: Self.form(assertion)).status == .ok)

            live.clock.advance(by: 3_601)
            #expect(try await Self.adminRoute(client, bearer: accessToken).status == .unauthorized)
        }
    }

    @Test("a key of another project on the same database buys nothing; a tenant's key reaches that tenant alone")
    func scopedKeys() async throws {
        try await Self.withProductionHearth { live, client in
            // Made by `hearth admin create-key` of a server of another project on this data directory.
            let foreign = try await ServiceAccountKeys(store: live.services.store).create(
                name: "other-admin", projectID: "another-project", baseURL: live.baseURL, now: live.clock.now)
            let file = try #require(JSONValue.object(fromJSON: String(decoding: foreign.file, as: UTF8.self)))
            guard case .string(let pem)? = file["private_key"] else { throw HarnessError("no private_key") }
            let foreignMade = Made(key: foreign.key, file: file, privateKey: try _RSA.Signing.PrivateKey(pemRepresentation: pem))
            let refused = try await Self.grant(client, body: Self.form(try Self.assertion(foreignMade, now: live.clock.now)))
            #expect(refused.status == .badRequest)
            #expect(refused.string("error_description") == "The service-account key belongs to another project.")

            // A project key makes two tenants; a key of the first reaches the first alone.
            let owner = try #require(
                try await Self.grant(client, body: Self.form(try Self.assertion(try await Self.makeKey(live), now: live.clock.now)))
                    .string("access_token"))
            var admin = client
            admin.apiKey = nil
            func tenant(_ name: String) async throws -> String {
                let made = try await admin.raw(
                    "/v2/projects/\(Self.project)/tenants", method: .post, body: Data(#"{"displayName":"\#(name)"}"#.utf8),
                    headers: [.authorization: "Bearer \(owner)", .contentType: "application/json"])
                return try #require(try made.decode(TenantResource.self).tenantId)
            }
            let acme = try await tenant("Acme")
            let globex = try await tenant("Globex")
            let tenantKey = try await ServiceAccountKeys(store: live.services.store).create(
                name: "acme-admin", projectID: Self.project, tenantID: acme, baseURL: live.baseURL, now: live.clock.now)
            let tenantFile = try #require(JSONValue.object(fromJSON: String(decoding: tenantKey.file, as: UTF8.self)))
            guard case .string(let tenantPEM)? = tenantFile["private_key"] else { throw HarnessError("no private_key") }
            let tenantMade = Made(key: tenantKey.key, file: tenantFile, privateKey: try _RSA.Signing.PrivateKey(pemRepresentation: tenantPEM))
            let bearer = try #require(
                try await Self.grant(client, body: Self.form(try Self.assertion(tenantMade, now: live.clock.now))).string("access_token"))
            let headers: HTTPFields = [.authorization: "Bearer \(bearer)", .contentType: "application/json"]
            let create = #"{"email":"ada@example.com"}"#
            let inAcme = try await admin.raw(
                "/v1/projects/\(Self.project)/tenants/\(acme)/accounts", method: .post, body: Data(create.utf8), headers: headers)
            #expect(inAcme.status == .ok, "\(inAcme.text)")
            for (path, body) in [
                ("/v1/projects/\(Self.project)/tenants/\(globex)/accounts", create),
                ("/v1/projects/\(Self.project)/accounts", create),
                ("/v1/accounts:lookup", #"{"email":["ada@example.com"]}"#),
                ("/v1/accounts:lookup", #"{"email":["ada@example.com"],"tenantId":"\#(globex)"}"#),
            ] {
                let denied = try await admin.raw(path, method: .post, body: Data(body.utf8), headers: headers)
                #expect(denied.status == .forbidden && denied.text.contains("PERMISSION_DENIED"), "\(path): \(denied.text)")
            }
            let inBody = try await admin.raw(
                "/v1/accounts:lookup", method: .post, body: Data(#"{"email":["ada@example.com"],"tenantId":"\#(acme)"}"#.utf8), headers: headers)
            #expect(inBody.status == .ok && inBody.text.contains("ada@example.com"))
            for (path, method) in [
                ("/v2/projects/\(Self.project)/tenants", HTTPRequest.Method.get), ("/v2/projects/\(Self.project)/config", .get),
                ("/v2/projects/\(Self.project)/tenants/\(acme)", .delete),
            ] {
                let denied = try await admin.raw(path, method: method, headers: headers)
                #expect(denied.status == .forbidden, "\(path): \(denied.text)")
            }
            let tenantConfig = try await admin.raw("/v2/projects/\(Self.project)/tenants/\(acme)/config", method: .get, headers: headers)
            #expect(tenantConfig.status == .ok, "\(tenantConfig.text)")
        }
    }

    @Test("an access token replaces the API key on the Identity Toolkit routes; Bearer owner there is 401 in production")
    func identityToolkitRoutes() async throws {
        try await Self.withProductionHearth { live, client in
            let made = try await Self.makeKey(live)
            let granted = try await Self.grant(client, body: Self.form(try Self.assertion(made, now: live.clock.now)))
            let accessToken = try #require(granted.string("access_token"))
            var keyless = client
            keyless.apiKey = nil
            let signUp = try await keyless.post(
                "/v1/accounts:signUp", json: #"{"returnSecureToken":true}"#, headers: [.authorization: "Bearer \(accessToken)"])
            #expect(signUp.status == .ok, "\(signUp.text)")
            let owner = try await keyless.post("/v1/accounts:signUp", json: #"{"returnSecureToken":true}"#, headers: [.authorization: "Bearer owner"])
            #expect(owner.status == .unauthorized)
        }
    }

    @Test(
        "server.publicURL: an http(s) URL without query or fragment, a trailing slash dropped; anything else names the key",
        arguments: ["ftp://auth.example.com", "https://", "https://auth.example.com/?x=1", "https://auth.example.com/#top", "auth.example.com"])
    func publicURLSetting(value: String) throws {
        func read(_ text: String) throws -> ServerConfiguration {
            try ServerConfiguration(
                reader: ConfigReader(provider: InMemoryProvider(values: ["server.publicURL": .init(.string(text), isSecret: false)])))
        }
        #expect(try read("https://auth.example.com/").publicBaseURL == "https://auth.example.com")
        #expect(try read("http://127.0.0.1:9099/hearth").publicBaseURL == "http://127.0.0.1:9099/hearth")
        #expect {
            try read(value)
        } throws: { error in
            (error as? ConfigurationError)?.key == "server.publicURL" && "\(error)".contains("server.publicURL")
        }
    }

    @Test("deleting a key ends its access tokens and its grants at once")
    func deletedKey() async throws {
        try await Self.withProductionHearth { live, client in
            let made = try await Self.makeKey(live)
            let other = try await Self.makeKey(live, name: "other-admin")
            let granted = try await Self.grant(client, body: Self.form(try Self.assertion(made, now: live.clock.now)))
            let accessToken = try #require(granted.string("access_token"))
            let otherToken = try #require(
                try await Self.grant(client, body: Self.form(try Self.assertion(other, now: live.clock.now))).string("access_token"))
            #expect(try await Self.adminRoute(client, bearer: accessToken).status == .ok)

            #expect(try await ServiceAccountKeys(store: live.services.store).delete(id: made.key.keyID))
            #expect(try await Self.adminRoute(client, bearer: accessToken).status == .unauthorized)
            #expect(try await Self.adminRoute(client, bearer: otherToken).status == .ok)
            live.clock.advance(by: 1)
            let again = try await Self.grant(client, body: Self.form(try Self.assertion(made, now: live.clock.now)))
            #expect(again.string("error") == "invalid_grant")
            #expect(again.string("error_description") == "No service-account key matches the assertion's kid or iss.")
            #expect(try await ServiceAccountKeys(store: live.services.store).delete(id: made.key.keyID) == false)
        }
    }

    @Test("every refused assertion and malformed request is a 400 with OAuth's error and description")
    func refusals() async throws {
        try await Self.withProductionHearth { live, client in
            let made = try await Self.makeKey(live)
            let now = live.clock.now
            let stranger = try _RSA.Signing.PrivateKey(keySize: .bits2048)
            func refused(_ body: String, contentType: String = "application/x-www-form-urlencoded") async throws -> String {
                let result = try await Self.grant(client, body: body, contentType: contentType)
                #expect(result.status == .badRequest, "\(body.prefix(200)): \(result.text)")
                #expect(result.headers[.contentType]?.hasPrefix("application/json") == true)
                return "\(result.string("error") ?? "none"): \(result.string("error_description") ?? "none")"
            }
            func assertionRefused(
                header: [String: JSONValue]? = nil, signingKey: _RSA.Signing.PrivateKey? = nil,
                _ change: (inout [String: JSONValue]) -> Void = { _ in }
            ) async throws -> String {
                try await refused(Self.form(try Self.assertion(made, now: now, header: header, signingKey: signingKey, change)))
            }
            let kid = made.key.keyID
            #expect(try await assertionRefused(signingKey: stranger) == "invalid_grant: Invalid JWT signature.")
            #expect(
                try await assertionRefused(header: ["alg": .string("RS256"), "kid": .string(String(repeating: "0", count: 40))])
                    == "invalid_grant: No service-account key matches the assertion's kid or iss.")
            #expect(
                try await assertionRefused(header: ["alg": .string("RS256")]) { $0["iss"] = .string("nobody@\(Self.project).iam.hearth.local") }
                    == "invalid_grant: No service-account key matches the assertion's kid or iss.")
            #expect(
                try await assertionRefused { $0["iss"] = .string("nobody@\(Self.project).iam.hearth.local") }
                    == "invalid_grant: The assertion's iss is not the client_email of its key.")
            #expect(
                try await assertionRefused { $0["aud"] = .string("https://oauth2.example.com/token") }
                    == "invalid_grant: The assertion's aud must be the token endpoint, \(made.key.tokenURI).")
            #expect(
                try await assertionRefused { $0["aud"] = .array([.string(made.key.tokenURI)]) }
                    == "invalid_grant: The assertion's aud must be the token endpoint, \(made.key.tokenURI).")
            #expect(
                try await assertionRefused {
                    $0["iat"] = .number(now.timeIntervalSince1970 - 7_200)
                    $0["exp"] = .number(now.timeIntervalSince1970 - 3_600)
                } == "invalid_grant: The assertion has expired.")
            #expect(
                try await assertionRefused {
                    $0["iat"] = .number(now.timeIntervalSince1970 + 600)
                    $0["exp"] = .number(now.timeIntervalSince1970 + 1_200)
                } == "invalid_grant: The assertion is issued in the future.")
            #expect(
                try await assertionRefused { $0["exp"] = .number(now.timeIntervalSince1970 + 7_200) }
                    == "invalid_grant: The assertion's exp must be after its iat and at most an hour later.")
            #expect(try await assertionRefused { $0["iat"] = nil } == "invalid_grant: The assertion needs numeric iat and exp.")
            #expect(try await assertionRefused { $0["scope"] = nil } == "invalid_scope: The assertion needs a scope.")
            #expect(try await assertionRefused { $0["scope"] = .string(" ") } == "invalid_scope: The assertion needs a scope.")
            #expect(
                try await assertionRefused { $0["sub"] = .string("someone-else@example.com") }
                    == "invalid_grant: The assertion's sub must be absent or equal its iss.")
            #expect(
                try await assertionRefused(header: ["alg": .string("none"), "kid": .string(kid)])
                    == "invalid_grant: The assertion must be signed RS256.")
            #expect(
                try await assertionRefused(header: ["alg": .string("RS256"), "kid": .number(1)])
                    == "invalid_grant: The assertion's kid is not a string.")
            // NUL bytes: in the form (refused as a control character), and inside the JWT's JSON.
            #expect(try await refused(Self.form("a%00b")) == "invalid_request: The form is malformed or repeats a parameter.")
            #expect(
                try await assertionRefused(header: ["alg": .string("RS256")]) { $0["iss"] = .string("a\u{0}b") }
                    == "invalid_grant: No service-account key matches the assertion's kid or iss.")
            #expect(
                try await assertionRefused(header: ["alg": .string("RS256"), "kid": .string("\u{0}")])
                    == "invalid_grant: No service-account key matches the assertion's kid or iss.")
            // Oversized: the assertion, then the whole body.
            #expect(try await refused(Self.form(String(repeating: "a", count: 9_000))) == "invalid_grant: The assertion is too large.")
            #expect(try await refused(Self.form(String(repeating: "a", count: 20_000))) == "invalid_request: The request body is too large.")
            // Form garbage.
            #expect(try await refused(Self.form("not-a-jwt")) == "invalid_grant: The assertion is not a JWT.")
            #expect(try await refused(Self.form("a.b.c")) == "invalid_grant: The assertion is not a JWT.")
            #expect(try await refused("%zz=1") == "invalid_request: The form is malformed or repeats a parameter.")
            #expect(try await refused(Self.form("x") + "&assertion=y") == "invalid_request: The form is malformed or repeats a parameter.")
            #expect(try await refused("assertion=x") == "invalid_request: grant_type is required.")
            #expect(try await refused("") == "invalid_request: grant_type is required.")
            #expect(
                try await refused("grant_type=client_credentials&assertion=x")
                    == "unsupported_grant_type: Only urn:ietf:params:oauth:grant-type:jwt-bearer is supported.")
            #expect(
                try await refused("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer")
                    == "invalid_request: assertion is required.")
            #expect(
                try await refused(#"{"grant_type":"x"}"#, contentType: "application/json")
                    == "invalid_request: Send the parameters form-encoded (application/x-www-form-urlencoded).")
            #expect(try await refused(Data([0xff, 0xfe]).base64EncodedString()) == "invalid_request: grant_type is required.")
            #expect(try await live.services.store.settings(withPrefix: ServiceAccountKeys.settingPrefix).count == 1)
        }
    }

    @Test("parallel uses of one assertion, as processes sharing a key sign it in one second: each gets a token")
    func parallelReplay() async throws {
        try await Self.withProductionHearth { live, client in
            let made = try await Self.makeKey(live)
            let body = Self.form(try Self.assertion(made, now: live.clock.now))
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<8 { group.addTask { try await Self.grant(client, body: body).status.code } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: 200, count: 8))
        }
    }

    @Test("malformed bearers on the admin routes are 401, never 500")
    func malformedBearers() async throws {
        try await Self.withProductionHearth { _, client async throws in
            for bearer in ["a.b.c", "\(String(repeating: "x", count: 10_000)).y.z", "e30.e30.", "eyJ0eXAiOiJhdCtqd3QifQ.e30.AAAA"] {
                #expect(try await Self.adminRoute(client, bearer: bearer).status == .unauthorized)
            }
        }
    }

    @Test("a stored key signs custom tokens as firebase-admin makes them; deleted, it signs none")
    func customTokens() async throws {
        try await Self.withProductionHearth { live, client in
            let made = try await Self.makeKey(live)
            let now = live.clock.now
            func customToken(uid: String) throws -> String {
                try Self.assertion(made, now: now) { payload in
                    payload = [
                        "iss": .string(made.key.clientEmail), "sub": .string(made.key.clientEmail), "aud": .string(CustomTokenVerifier.audience),
                        "uid": .string(uid), "iat": .number(now.timeIntervalSince1970.rounded(.down)),
                        "exp": .number(now.timeIntervalSince1970.rounded(.down) + 3_600), "claims": .object(["role": .string("ops")]),
                    ]
                }
            }
            let signedIn = try await client.post(
                "/v1/accounts:signInWithCustomToken", ["token": .string(try customToken(uid: "backend-user")), "returnSecureToken": .bool(true)])
            #expect(signedIn.status == .ok, "\(signedIn.text)")
            #expect(jwtClaims(try #require(signedIn.string("idToken")))["role"] == .string("ops"))

            #expect(try await ServiceAccountKeys(store: live.services.store).delete(id: made.key.keyID))
            let refused = try await client.post(
                "/v1/accounts:signInWithCustomToken", ["token": .string(try customToken(uid: "other-user")), "returnSecureToken": .bool(true)])
            #expect(refused.errorMessage == "INVALID_CUSTOM_TOKEN")
        }
    }
}
