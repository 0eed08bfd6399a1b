import CryptoExtras
import Foundation
import HearthCore
import HearthServer
import HearthTokens
import HearthWire
import Testing

/// `accounts:signInWithCustomToken`: unsigned tokens in development as the Admin SDKs send them to an
/// emulator, RS256 tokens from a configured service-account key in production, and every refusal.
@Suite("accounts:signInWithCustomToken")
struct CustomTokenTests {
    static let audience = CustomTokenVerifier.audience

    @Test("development: an unsigned token signs in its uid, creates it once, and its claims survive a refresh")
    func unsignedInDevelopment() async throws {
        try await withHearth { hearth, client async throws in
            let token = Self.unsigned(["uid": .string("backend-user-1"), "claims": .object(["role": .string("admin")])], now: hearth.clock.now)
            let first = try await client.post("/v1/accounts:signInWithCustomToken", ["token": .string(token), "returnSecureToken": .bool(true)])
            #expect(first.status == .ok, "\(first.text)")
            #expect(first["isNewUser"] == .bool(true))
            #expect(first.string("kind") == "identitytoolkit#VerifyCustomTokenResponse")
            let claims = jwtClaims(try #require(first.string("idToken")))
            #expect(claims["user_id"] == .string("backend-user-1"))
            #expect(claims["role"] == .string("admin"))
            #expect(claims["firebase"]?.jsonText.contains("\"custom\"") == true)

            let refreshed = try await client.refresh(try #require(first.string("refreshToken")))
            #expect(jwtClaims(try #require(refreshed.string("id_token")))["role"] == .string("admin"))

            let second = try await client.post(
                "/identitytoolkit/v3/relyingparty/verifyCustomToken", ["token": .string(token), "returnSecureToken": .bool(true)])
            #expect(second.status == .ok)
            #expect(second["isNewUser"] == .bool(false))
            let user = try #require(try await hearth.services.store.user(uid: "backend-user-1"))
            #expect(user.customAuth)
            #expect(!user.isAnonymous)
        }
    }

    @Test("the documented errors for missing, malformed and wrong tokens")
    func errors() async throws {
        try await withHearth { hearth, client async throws in
            func send(_ token: String?) async throws -> String? {
                var body: [String: JSONValue] = ["returnSecureToken": .bool(true)]
                if let token { body["token"] = .string(token) }
                return try await client.post("/v1/accounts:signInWithCustomToken", body).errorMessage
            }
            let now = hearth.clock.now
            #expect(try await send(nil) == "MISSING_CUSTOM_TOKEN")
            #expect(try await send("not.a.token") == "INVALID_CUSTOM_TOKEN : Invalid assertion format")
            let wrongAudience = Self.unsigned(["uid": .string("u")], now: now, audience: "https://example.com")
            #expect(try await send(wrongAudience)?.hasPrefix("INVALID_CUSTOM_TOKEN : ((Invalid aud (audience): \"https://example.com\"") == true)
            #expect(try await send(Self.unsigned([:], now: now)) == "MISSING_IDENTIFIER")
            #expect(
                try await send(Self.unsigned(["uid": .string("u"), "claims": .object(["email": .string("x@y.z")])], now: now))
                    == "FORBIDDEN_CLAIM : email")
            #expect(try await send(Self.unsigned(["uid": .string("u"), "claims": .string("admin")], now: now)) == "INVALID_CLAIMS")
            let big = JSONValue.object(["blob": .string(String(repeating: "x", count: 1_100))])
            #expect(try await send(Self.unsigned(["uid": .string("u"), "claims": big], now: now)) == "CLAIMS_TOO_LARGE")

            // A NUL in the uid, as an unsigned JWT or bare JSON (found while fuzzing: PostgreSQL refused the row, a 500).
            #expect(
                try await send(Self.unsigned(["uid": .string("a\u{0}b")], now: now))
                    == "INVALID_CUSTOM_TOKEN : ((The uid must be a non-empty string of at most 128 printable characters.))")
            #expect(
                try await send(#"{"uid":"a\u0000b"}"#)
                    == "INVALID_CUSTOM_TOKEN : ((The uid must be a non-empty string of at most 128 printable characters.))")
            _ = try await send(Self.unsigned(["uid": .string("disabled-user")], now: now))
            _ = try await hearth.services.store.updateUser(uid: "disabled-user", session: nil) { $0.disabled = true }
            #expect(try await send(Self.unsigned(["uid": .string("disabled-user")], now: now)) == "USER_DISABLED")
        }
    }

    @Test("production: only RS256 tokens of a configured key and service account, within their hour")
    func signedInProduction() async throws {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let other = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-ct-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let keyFile = directory.appendingPathComponent("service-account.pub.pem")
        try key.publicKey.pemRepresentation.write(to: keyFile, atomically: true, encoding: .utf8)
        let account = "backend@hearth-prod.iam.gserviceaccount.com"

        try await withHearth({ configuration in
            configuration.mode = .production
            configuration.projectID = "hearth-prod"
            configuration.apiKeys = ["test-api-key"]
            configuration.customTokenKeyFiles = [keyFile.path]
            configuration.customTokenServiceAccounts = [account]
        }) { hearth, client async throws in
            let now = hearth.clock.now
            func send(_ token: String) async throws -> WireResult {
                try await client.post("/v1/accounts:signInWithCustomToken", ["token": .string(token), "returnSecureToken": .bool(true)])
            }
            let good = try await send(Self.signed(key, account: account, uid: "prod-user", now: now))
            #expect(good.status == .ok, "\(good.text)")
            #expect(good["isNewUser"] == .bool(true))

            #expect(try await send(Self.unsigned(["uid": .string("u")], now: now)).errorMessage == "INVALID_CUSTOM_TOKEN")
            #expect(try await send(Self.signed(other, account: account, uid: "u", now: now)).errorMessage == "INVALID_CUSTOM_TOKEN")
            #expect(
                try await send(Self.signed(key, account: "someone@else.iam.gserviceaccount.com", uid: "u", now: now)).errorMessage
                    == "INVALID_CUSTOM_TOKEN")
            #expect(
                try await send(Self.signed(key, account: account, uid: "u", now: now.addingTimeInterval(-7_200))).errorMessage
                    == "INVALID_CUSTOM_TOKEN")
            #expect(try await send(Self.signed(key, account: account, uid: "u", now: now, lifetime: 7_200)).errorMessage == "INVALID_CUSTOM_TOKEN")
            var tampered = try Self.signed(key, account: account, uid: "victim", now: now).split(separator: ".").map(String.init)
            tampered[1] = Self.base64URL(
                Data(
                    JSONValue.object([
                        "aud": .string(Self.audience), "iss": .string(account), "sub": .string(account), "uid": .string("attacker"),
                        "iat": .number(now.timeIntervalSince1970.rounded()), "exp": .number(now.timeIntervalSince1970.rounded() + 3_600),
                    ]).jsonText.utf8))
            #expect(try await send(tampered.joined(separator: ".")).errorMessage == "INVALID_CUSTOM_TOKEN")
            #expect(try await hearth.services.store.user(uid: "attacker") == nil)
        }
    }

    // MARK: Token making

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// What Firebase Admin SDKs send to an emulator: `alg: none`, empty signature.
    static func unsigned(_ fields: [String: JSONValue], now: Date, audience: String = audience) -> String {
        var payload = fields
        payload["aud"] = .string(audience)
        payload["iss"] = .string("firebase-auth-emulator@example.com")
        payload["sub"] = .string("firebase-auth-emulator@example.com")
        payload["iat"] = .number(now.timeIntervalSince1970.rounded())
        payload["exp"] = .number(now.timeIntervalSince1970.rounded() + 3_600)
        let header = base64URL(Data(#"{"alg":"none","typ":"JWT"}"#.utf8))
        return "\(header).\(base64URL(Data(JSONValue.object(payload).jsonText.utf8)))."
    }

    /// A custom token as an Admin SDK signs it with a service-account key.
    static func signed(_ key: _RSA.Signing.PrivateKey, account: String, uid: String, now: Date, lifetime: TimeInterval = 3_600) throws -> String {
        let payload: JSONValue = .object([
            "aud": .string(audience), "iss": .string(account), "sub": .string(account), "uid": .string(uid),
            "iat": .number(now.timeIntervalSince1970.rounded()), "exp": .number(now.timeIntervalSince1970.rounded() + lifetime),
        ])
        let input = base64URL(Data(#"{"alg":"RS256","typ":"JWT"}"#.utf8)) + "." + base64URL(Data(payload.jsonText.utf8))
        let signature = try key.signature(for: Data(input.utf8), padding: .insecurePKCS1v1_5)
        return input + "." + base64URL(signature.rawRepresentation)
    }
}
