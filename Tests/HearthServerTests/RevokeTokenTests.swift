import Configuration
import Foundation
import HTTPTypes
import HearthConfiguration
import HearthCore
import HearthProviders
import HearthSandbox
import HearthServer
import HearthTesting
import HearthWire
import Testing

/// `POST /v2/accounts:revokeToken` over HTTP against a live server whose Apple is the sandbox: the server signs
/// its ES256 client secret, redeems the code at the sandbox's `/auth/token` and revokes at `/auth/revoke`.
@Suite("accounts:revokeToken (Sign in with Apple) over HTTP against the sandbox")
struct RevokeTokenTests {
    static let path = "/v2/accounts:revokeToken"

    @Test("A native app's authorization code: redeemed for the bundle id, its refresh token revoked, {} answered")
    func nativeCode() async throws {
        try await withFederated { live, client in
            let user = try await client.anonymousUser()
            let bundleID = try #require(live.sandbox.credentials.apple.bundleIDs.first)
            let code = try live.sandbox.appleAuthorizationCode(for: .appleAlice, clientID: bundleID)
            let result = try await client.revoke(idToken: user.idToken, token: code)
            #expect(result.status == .ok, "\(result.text)")
            #expect(result.json.isEmpty)
            let revocations = live.sandbox.appleRevocations()
            #expect(revocations.count == 1)
            #expect(revocations.first?.clientID == bundleID)
            #expect(revocations.first?.tokenTypeHint == "refresh_token")
            #expect(revocations.first?.subject == SandboxIdentity.appleAlice.subject)
            #expect(revocations.first?.token.hasPrefix("r") == true)
        }
    }

    @Test("The iOS SDK's request: host-prefixed v2 path, tokenType \"3\", X-Ios-Bundle-Identifier picks the client id")
    func iOSRequest() async throws {
        try await withFederated { live, client in
            let user = try await client.anonymousUser()
            let bundleID = try #require(live.sandbox.credentials.apple.bundleIDs.last)
            let code = try live.sandbox.appleAuthorizationCode(for: .appleAlice, clientID: bundleID)
            let body: [String: JSONValue] = [
                "providerId": .string("apple.com"), "tokenType": .string("3"), "token": .string(code), "idToken": .string(user.idToken),
            ]
            let result = try await client.post(
                "/identitytoolkit.googleapis.com" + Self.path, json: JSONValue.object(body).jsonText,
                headers: [HTTPField.Name("X-Ios-Bundle-Identifier")!: bundleID])
            #expect(result.status == .ok, "\(result.text)")
            #expect(live.sandbox.appleRevocations().map(\.clientID) == [bundleID])
        }
    }

    @Test("A web flow's code with its redirectUri: redeemed for the Services ID with the same redirect_uri")
    func webCode() async throws {
        try await withFederated { live, client in
            let user = try await client.anonymousUser()
            let redirect = "https://app.example.com/__/auth/handler"
            let code = try live.sandbox.appleAuthorizationCode(for: .appleAlice, redirectURI: redirect)
            let result = try await client.revoke(idToken: user.idToken, token: code, extra: ["redirectUri": .string(redirect)])
            #expect(result.status == .ok, "\(result.text)")
            #expect(live.sandbox.appleRevocations().map(\.clientID) == [live.sandbox.credentials.apple.servicesID])

            let other = try live.sandbox.appleAuthorizationCode(for: .appleAlice, redirectURI: redirect)
            let wrong = try await client.revoke(
                idToken: user.idToken, token: other, extra: ["redirectUri": .string("https://elsewhere.example.com/cb")])
            #expect(
                wrong.errorMessage == "INVALID_IDP_RESPONSE : Apple refused to redeem the authorization code: invalid_grant (redirect_uri mismatch.)")
            #expect(live.sandbox.appleRevocations().count == 1)
        }
    }

    @Test("REFRESH_TOKEN and ACCESS_TOKEN go to Apple as they are; Apple answers 200 even for unknown tokens")
    func directTokens() async throws {
        try await withFederated { live, client in
            let user = try await client.anonymousUser()
            let refresh = try await client.revoke(idToken: user.idToken, token: "r-unknown.0.abcd.token", tokenType: "REFRESH_TOKEN")
            #expect(refresh.status == .ok, "\(refresh.text)")
            let access = try await client.revoke(idToken: user.idToken, token: "a-unknown.0.abcd.token", tokenType: "ACCESS_TOKEN")
            #expect(access.status == .ok, "\(access.text)")
            let revocations = live.sandbox.appleRevocations()
            #expect(revocations.map(\.tokenTypeHint) == ["refresh_token", "access_token"])
            #expect(revocations.map(\.subject) == [nil, nil])
        }
    }

    @Test("A code that is unknown, or used already, is INVALID_IDP_RESPONSE with Apple's words; nothing is revoked")
    func badAndReusedCode() async throws {
        try await withFederated { live, client in
            let user = try await client.anonymousUser()
            let bundleID = try #require(live.sandbox.credentials.apple.bundleIDs.first)
            let bad = try await client.revoke(idToken: user.idToken, token: "c0000.0.abcd.not-a-code")
            #expect(bad.status == .badRequest)
            #expect(
                bad.errorMessage
                    == "INVALID_IDP_RESPONSE : Apple refused to redeem the authorization code: invalid_grant (The code has expired or has been revoked.)"
            )

            let code = try live.sandbox.appleAuthorizationCode(for: .appleAlice, clientID: bundleID)
            #expect(try await client.revoke(idToken: user.idToken, token: code).status == .ok)
            let again = try await client.revoke(idToken: user.idToken, token: code)
            #expect(again.status == .badRequest)
            #expect(
                again.errorMessage
                    == "INVALID_IDP_RESPONSE : Apple refused to redeem the authorization code: invalid_grant (The code has already been used.)")
            #expect(live.sandbox.appleRevocations().count == 1)
        }
    }

    @Test("Ten requests racing with one code: exactly one revokes, the others hear the code was used")
    func racingCode() async throws {
        try await withFederated { live, client in
            let user = try await client.anonymousUser()
            let bundleID = try #require(live.sandbox.credentials.apple.bundleIDs.first)
            let code = try live.sandbox.appleAuthorizationCode(for: .appleAlice, clientID: bundleID)
            let results = try await withThrowingTaskGroup(of: WireResult.self) { group in
                for _ in 0..<10 { group.addTask { try await client.revoke(idToken: user.idToken, token: code) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.filter { $0.status == .ok }.count == 1)
            #expect(results.filter { $0.errorMessage?.hasPrefix("INVALID_IDP_RESPONSE : ") == true }.count == 9)
            #expect(live.sandbox.appleRevocations().count == 1)
        }
    }

    @Test("The ID token: missing is MISSING_ID_TOKEN, garbage INVALID_ID_TOKEN, a disabled user's USER_DISABLED")
    func idTokenErrors() async throws {
        try await withFederated { live, client in
            let bundleID = try #require(live.sandbox.credentials.apple.bundleIDs.first)
            let code = try live.sandbox.appleAuthorizationCode(for: .appleAlice, clientID: bundleID)
            let missing = try await client.post(
                Self.path, ["providerId": .string("apple.com"), "tokenType": .string("CODE"), "token": .string(code)])
            #expect(missing.status == .badRequest)
            #expect(missing.errorMessage == "MISSING_ID_TOKEN")
            let garbage = try await client.revoke(idToken: "not.a.token", token: code)
            #expect(garbage.errorMessage == "INVALID_ID_TOKEN")

            let user = try await client.anonymousUser()
            _ = try await live.services.store.updateUser(uid: user.localId, session: nil) { $0.disabled = true }
            let disabled = try await client.revoke(idToken: user.idToken, token: code)
            #expect(disabled.errorMessage == "USER_DISABLED")
            // None of them reached Apple: the code is still good.
            let other = try await client.anonymousUser()
            #expect(try await client.revoke(idToken: other.idToken, token: code).status == .ok)
        }
    }

    @Test("providerId other than apple.com, or none: INVALID_PROVIDER_ID : Provider Id is not supported.")
    func wrongProvider() async throws {
        try await withFederated { live, client in
            let user = try await client.anonymousUser()
            for provider: String? in ["google.com", "APPLE.COM", "", "apple.com\u{0}", nil] {
                var body: [String: JSONValue] = ["idToken": .string(user.idToken), "tokenType": .string("CODE"), "token": .string("c1.0.abcd.x")]
                body["providerId"] = provider.map(JSONValue.string)
                let result = try await client.post(Self.path, body)
                #expect(result.status == .badRequest)
                #expect(result.errorMessage == "INVALID_PROVIDER_ID : Provider Id is not supported.")
            }
            #expect(live.sandbox.appleRevocations().isEmpty)
        }
    }

    @Test("Hostile input gets Google's JSON error envelope and reaches nobody")
    func hostileInput() async throws {
        try await withFederated { live, client in
            let user = try await client.anonymousUser()
            let cases: [(body: String, message: String)] = [
                (#"{"providerId":"apple.com","tokenType":"CODE","idToken":"\#(user.idToken)"}"#, "token is required."),
                (#"{"providerId":"apple.com","tokenType":"CODE","token":"","idToken":"\#(user.idToken)"}"#, "token is required."),
                (#"{"providerId":"apple.com","token":"c","idToken":"\#(user.idToken)"}"#, "tokenType is required."),
                (
                    #"{"providerId":"apple.com","tokenType":"TOKEN_TYPE_UNSPECIFIED","token":"c","idToken":"\#(user.idToken)"}"#,
                    "tokenType is required."
                ),
                (#"{"providerId":"apple.com","tokenType":"CODE","token":"c\u0000d","idToken":"\#(user.idToken)"}"#, "token is not valid."),
                (#"{"providerId":"apple.com","tokenType":"CODE","token":"c\nd","idToken":"\#(user.idToken)"}"#, "token is not valid."),
                (
                    #"{"providerId":"apple.com","tokenType":"CODE","token":"\#(String(repeating: "c", count: 5000))","idToken":"\#(user.idToken)"}"#,
                    "token is too long."
                ),
                (
                    #"{"providerId":"apple.com","tokenType":"CODE","token":"c","redirectUri":"javascript:alert(1)","idToken":"\#(user.idToken)"}"#,
                    "redirectUri is not a valid URL."
                ),
            ]
            for test in cases {
                let result = try await client.post(Self.path, json: test.body)
                #expect(result.status == .badRequest, "\(test.body.prefix(120))")
                #expect(result.errorMessage?.hasSuffix(test.message) == true, "\(result.text)")
            }
            for body in [
                #"{"providerId":"apple.com","tokenType":"BOGUS","token":"c","idToken":"x"}"#,
                #"{"providerId":"apple.com","tokenType":99,"token":"c","idToken":"x"}"#,
                #"{"providerId":"apple.com","tokenType":"99","token":"c","idToken":"x"}"#,
                #"{"providerId":["apple.com"],"tokenType":"CODE","token":"c","idToken":"x"}"#, "not json", "",
            ] {
                let result = try await client.post(Self.path, json: body)
                #expect(result.status == .badRequest, "\(body)")
                #expect(result.errorMessage != nil, "\(result.text)")
            }
            #expect(live.sandbox.appleRevocations().isEmpty)
        }
    }

    @Test("Apple switched off: OPERATION_NOT_ALLOWED")
    func appleOff() async throws {
        try await withFederated(providers: { $0.apple.enabled = false }) { live, client in
            let user = try await client.anonymousUser()
            let result = try await client.revoke(idToken: user.idToken, token: "c1.0.abcd.x")
            #expect(result.status == .badRequest)
            #expect(result.errorMessage == "OPERATION_NOT_ALLOWED")
        }
    }

    @Test("Apple's key does not match: Apple's invalid_client becomes INVALID_IDP_RESPONSE, never a 500")
    func wrongKey() async throws {
        try await withFederated(providers: { $0.apple.keyID = "WRONGKEY00" }) { live, client in
            let user = try await client.anonymousUser()
            let result = try await client.revoke(idToken: user.idToken, token: "r-unknown", tokenType: "REFRESH_TOKEN")
            #expect(result.status == .badRequest)
            #expect(result.errorMessage == "INVALID_IDP_RESPONSE : Apple refused to revoke the token: invalid_client")
            #expect(live.sandbox.appleRevocations().isEmpty)
        }
    }
}

@Suite("providers.apple.revokeURL")
struct AppleRevokeURLSettingTests {
    func read(_ values: [AbsoluteConfigKey: ConfigValue]) throws -> ServerConfiguration {
        try ServerConfiguration(reader: ConfigReader(provider: InMemoryProvider(values: values)), defaultMode: .development)
    }

    @Test("Apple's real endpoint by default; a URL from the key; a bad one stops start-up naming the key")
    func setting() throws {
        #expect(try read([:]).providers.apple.revokeURL.absoluteString == "https://appleid.apple.com/auth/revoke")
        let set = try read(["providers.apple.revokeURL": ConfigValue(.string("https://apple.internal.example/auth/revoke"), isSecret: false)])
        #expect(set.providers.apple.revokeURL.absoluteString == "https://apple.internal.example/auth/revoke")
        #expect {
            try read(["providers.apple.revokeURL": ConfigValue(.string("ftp://nowhere"), isSecret: false)])
        } throws: { error in
            (error as? ConfigurationError)?.key == "providers.apple.revokeURL"
        }
        #expect(KnownSettings.keys.contains("providers.apple.revokeURL"))
        #expect(KnownSettings.environmentName(of: "providers.apple.revokeURL") == "HEARTH_PROVIDERS_APPLE_REVOKE_URL")
    }

    @Test("The code, the tokens Apple issued for it and the client secret never reach the log, even at trace level")
    func redaction() async throws {
        let logs = CapturedLogs()
        let live = try await LiveHearth.start(logger: logs.logger())
        let code: String
        let secret: String
        do {
            let client = FirebaseTestClient(baseURL: live.baseURL)
            let user = try await client.anonymousUser()
            let bundleID = try #require(live.sandbox.credentials.apple.bundleIDs.first)
            code = try live.sandbox.appleAuthorizationCode(for: .appleAlice, clientID: bundleID)
            #expect(try await client.revoke(idToken: user.idToken, token: code).status == .ok)
            #expect(try await client.revoke(idToken: user.idToken, token: code).status == .badRequest)
            // The secret Hearth sent: the signer hands out the one it cached.
            secret = try AppleClientSecretSigner.secret(for: live.services.configuration.providers.apple, clientID: bundleID, now: live.clock.now)
            try await live.stop()
        } catch {
            try? await live.stop()
            throw error
        }
        let text = logs.text
        #expect(text.contains("provider call"))
        #expect(!text.contains(code))
        for revocation in live.sandbox.appleRevocations() { #expect(!text.contains(revocation.token)) }
        #expect(!text.contains(secret))
        #expect(!text.contains(String(secret.split(separator: ".")[2])))
        #expect(!text.contains(live.sandbox.credentials.apple.privateKeyPEM.split(separator: "\n")[1]))
    }
}

extension FirebaseTestClient {
    /// A new anonymous user's uid and ID token.
    func anonymousUser() async throws -> (localId: String, idToken: String) {
        let response = try await signUpAnonymously()
        return (response.localId, try #require(response.idToken))
    }

    /// `POST /v2/accounts:revokeToken` for `apple.com`.
    func revoke(idToken: String, token: String, tokenType: String = "CODE", extra: [String: JSONValue] = [:]) async throws -> WireResult {
        var body: [String: JSONValue] = [
            "idToken": .string(idToken), "providerId": .string("apple.com"), "tokenType": .string(tokenType), "token": .string(token),
        ]
        body.merge(extra) { $1 }
        return try await post(RevokeTokenTests.path, body)
    }
}
