import Crypto
import Foundation
import HearthSandbox
import Testing

@Suite("Apple")
struct AppleTests {
    @Test("ID tokens verify against /auth/keys and carry Apple's claims, booleans as strings")
    func idTokenClaims() async throws {
        try await withSandbox { sandbox, client in
            let token = try sandbox.appleIDToken(for: .appleRelay, nonce: .raw("raw-nonce-1"))
            let jwks = try await client.get("/apple/auth/keys")
            #expect(jwks.status == .ok)
            let jwt = try IndependentJWT(token)
            #expect(try jwt.verifies(against: jwks.body))
            #expect(jwt.header["typ"] == nil)
            #expect(jwt["iss"]?.string == "https://appleid.apple.com")
            #expect(jwt["aud"]?.string == sandbox.credentials.apple.bundleIDs.first)
            #expect(jwt["sub"]?.string == SandboxIdentity.appleRelay.subject)
            #expect(jwt["email"]?.string == "x7k2mq9p4d@privaterelay.appleid.com")
            #expect(jwt["email_verified"] == .string("true"))
            #expect(jwt["is_private_email"] == .string("true"))
            #expect(jwt["nonce_supported"] == .bool(true))
            #expect(jwt["nonce"]?.string == IndependentJWT.sha256Hex("raw-nonce-1"))
            #expect(jwt["auth_time"]?.int == jwt["iat"]?.int)
            let iat = try #require(jwt["iat"]?.int)
            #expect(jwt["exp"]?.int == iat + 600)
            #expect(jwt["name"] == nil)
            #expect(jwt["real_user_status"] == nil)

            let alice = try IndependentJWT(try sandbox.appleIDToken(for: .appleAlice, audience: sandbox.credentials.apple.servicesID))
            #expect(alice["aud"]?.string == "com.example.hearth.signin")
            #expect(alice["is_private_email"] == .string("false"))
            #expect(alice["real_user_status"] == nil, "the web flow (Services ID) never reports real_user_status")
            let native = try IndependentJWT(try sandbox.appleIDToken(for: .appleAlice))
            #expect(native["real_user_status"]?.int == 2)
            #expect(alice["nonce"] == nil)

            let booleans = try IndependentJWT(try sandbox.appleIDToken(for: .appleAlice, booleansAsStrings: false))
            #expect(booleans["email_verified"] == .bool(true))
            #expect(booleans["is_private_email"] == .bool(false))

            let noEmail = try IndependentJWT(try sandbox.appleIDToken(for: .appleNoEmail))
            #expect(noEmail["email"] == nil && noEmail["email_verified"] == nil && noEmail["is_private_email"] == nil)
        }
    }

    @Test("A token is refused for an identity of another provider")
    func wrongProvider() throws {
        let sandbox = Sandbox()
        #expect(throws: SandboxError.wrongProvider(expected: .apple, got: .google)) {
            try sandbox.appleIDToken(for: .googleGmail)
        }
    }

    @Test("/auth/token redeems a code once with an ES256 client secret the test signs itself")
    func tokenEndpoint() async throws {
        try await withSandbox { sandbox, client in
            let apple = sandbox.credentials.apple
            let code = try sandbox.appleAuthorizationCode(
                for: .appleAlice, redirectURI: "https://hearth.example/__/auth/handler", nonce: .raw("n-2"))
            let secret = try Self.clientSecret(apple, clientID: apple.servicesID)
            let form = [
                ("client_id", apple.servicesID), ("client_secret", secret), ("code", code),
                ("grant_type", "authorization_code"), ("redirect_uri", "https://hearth.example/__/auth/handler"),
            ]
            let answer = try await client.postForm("/apple/auth/token", form)
            #expect(answer.status == .ok, "\(answer.text)")
            #expect(answer["token_type"]?.string == "Bearer")
            #expect(answer["expires_in"]?.int == 3600)
            let idToken = try #require(answer["id_token"]?.string)
            let jwt = try IndependentJWT(idToken)
            #expect(try jwt.verifies(against: try await client.get("/apple/auth/keys").body))
            #expect(jwt["aud"]?.string == apple.servicesID)
            #expect(jwt["nonce"]?.string == IndependentJWT.sha256Hex("n-2"))
            #expect(jwt["at_hash"] != nil)

            let again = try await client.postForm("/apple/auth/token", form)
            #expect(again.status == .badRequest)
            #expect(again["error"]?.string == "invalid_grant")
            #expect(again["error_description"]?.string == "The code has already been used.")

            let refresh = try await client.postForm(
                "/apple/auth/token",
                [
                    ("client_id", apple.servicesID), ("client_secret", secret), ("grant_type", "refresh_token"),
                    ("refresh_token", try #require(answer["refresh_token"]?.string)),
                ])
            #expect(refresh.status == .ok)
            #expect(refresh["access_token"] != nil && refresh["id_token"] == nil)

            let revoke = try await client.postForm(
                "/apple/auth/revoke",
                [("client_id", apple.servicesID), ("client_secret", secret), ("token", "garbage"), ("token_type_hint", "refresh_token")])
            #expect(revoke.status == .ok)
        }
    }

    @Test("/auth/revoke checks the client secret, records what it accepted and ends the refresh token and its access tokens")
    func revokeRecords() async throws {
        try await withSandbox { sandbox, client in
            let apple = sandbox.credentials.apple
            let code = try sandbox.appleAuthorizationCode(for: .appleAlice)
            let secret = try Self.clientSecret(apple, clientID: apple.servicesID)
            let tokens = try await client.postForm(
                "/apple/auth/token",
                [("client_id", apple.servicesID), ("client_secret", secret), ("code", code), ("grant_type", "authorization_code")])
            let refreshToken = try #require(tokens["refresh_token"]?.string)

            let foreign = try Self.clientSecret(apple, clientID: apple.servicesID, key: P256.Signing.PrivateKey())
            let refused = try await client.postForm(
                "/apple/auth/revoke", [("client_id", apple.servicesID), ("client_secret", foreign), ("token", refreshToken)])
            #expect(refused.status == .badRequest && refused["error"]?.string == "invalid_client")
            let noToken = try await client.postForm("/apple/auth/revoke", [("client_id", apple.servicesID), ("client_secret", secret)])
            #expect(noToken["error"]?.string == "invalid_request")
            #expect(sandbox.appleRevocations().isEmpty)

            let revoked = try await client.postForm(
                "/apple/auth/revoke",
                [("client_id", apple.servicesID), ("client_secret", secret), ("token", refreshToken), ("token_type_hint", "refresh_token")])
            #expect(revoked.status == .ok)
            let recorded = sandbox.appleRevocations()
            #expect(recorded.count == 1)
            #expect(recorded.first?.clientID == apple.servicesID)
            #expect(recorded.first?.token == refreshToken)
            #expect(recorded.first?.tokenTypeHint == "refresh_token")
            #expect(recorded.first?.subject == SandboxIdentity.appleAlice.subject)

            let refresh = try await client.postForm(
                "/apple/auth/token",
                [("client_id", apple.servicesID), ("client_secret", secret), ("grant_type", "refresh_token"), ("refresh_token", refreshToken)])
            #expect(refresh["error"]?.string == "invalid_grant")
        }
    }

    @Test("/auth/token refuses bad client secrets and wrong redirect URIs")
    func tokenEndpointRejections() async throws {
        try await withSandbox { sandbox, client in
            let apple = sandbox.credentials.apple
            func attempt(secret: String, clientID: String? = nil, redirect: String? = nil) async throws -> TestAnswer {
                let code = try sandbox.appleAuthorizationCode(for: .appleAlice, redirectURI: "https://a.example/cb")
                var form = [
                    ("client_id", clientID ?? apple.servicesID), ("client_secret", secret), ("code", code),
                    ("grant_type", "authorization_code"),
                ]
                if let redirect { form.append(("redirect_uri", redirect)) }
                return try await client.postForm("/apple/auth/token", form)
            }
            // DER instead of raw R||S.
            let der = try Self.clientSecret(apple, clientID: apple.servicesID, der: true)
            #expect(try await attempt(secret: der, redirect: "https://a.example/cb")["error"]?.string == "invalid_client")
            // sub is another client id.
            let otherSub = try Self.clientSecret(apple, clientID: "com.example.other")
            #expect(try await attempt(secret: otherSub, redirect: "https://a.example/cb")["error"]?.string == "invalid_client")
            // Lives longer than six months.
            let tooLong = try Self.clientSecret(apple, clientID: apple.servicesID, lifetime: 15_777_001)
            #expect(try await attempt(secret: tooLong, redirect: "https://a.example/cb")["error"]?.string == "invalid_client")
            // Signed by another key.
            let foreign = try Self.clientSecret(apple, clientID: apple.servicesID, key: P256.Signing.PrivateKey())
            #expect(try await attempt(secret: foreign, redirect: "https://a.example/cb")["error"]?.string == "invalid_client")
            // Good secret, wrong redirect URI.
            let good = try Self.clientSecret(apple, clientID: apple.servicesID)
            let mismatch = try await attempt(secret: good, redirect: "https://b.example/cb")
            #expect(mismatch.status == .badRequest && mismatch["error"]?.string == "invalid_grant")
            // JSON instead of a form.
            let json = try await client.send(
                "/apple/auth/token", method: .post, headers: [.contentType: "application/json"], body: Data("{}".utf8))
            #expect(json["error"]?.string == "invalid_request")
        }
    }

    /// The relying party's ES256 client secret, built here without the sandbox's JWT code.
    static func clientSecret(
        _ apple: SandboxCredentials.Apple, clientID: String, lifetime: Int = 3600, der: Bool = false,
        key: P256.Signing.PrivateKey? = nil
    ) throws -> String {
        let signer = try key ?? P256.Signing.PrivateKey(pemRepresentation: apple.privateKeyPEM)
        let now = Int(Date().timeIntervalSince1970)
        func segment(_ json: String) -> String {
            Data(json.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        let input =
            segment(#"{"alg":"ES256","kid":"\#(apple.keyID)"}"#) + "."
            + segment(
                #"{"iss":"\#(apple.teamID)","iat":\#(now),"exp":\#(now + lifetime),"aud":"https://appleid.apple.com","sub":"\#(clientID)"}"#)
        let signature = try signer.signature(for: Data(input.utf8))
        let bytes = der ? signature.derRepresentation : signature.rawRepresentation
        return input + "."
            + bytes.base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
