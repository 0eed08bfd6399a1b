import Crypto
import Foundation
import HearthSandbox
import Testing

@Suite("Facebook")
struct FacebookTests {
    /// appsecret_proof computed here, independently of the sandbox.
    static func proof(_ token: String, _ secret: String) -> String {
        Data(HMAC<SHA256>.authenticationCode(for: Data(token.utf8), using: SymmetricKey(data: Data(secret.utf8))))
            .map { String(format: "%02x", $0) }.joined()
    }

    @Test("debug_token reports validity and the app id a token belongs to")
    func debugToken() async throws {
        try await withSandbox { sandbox, client in
            let facebook = sandbox.credentials.facebook
            let appToken = "\(facebook.appID)%7C\(facebook.appSecret)"
            let token = try sandbox.facebookAccessToken(for: .facebookUser)
            let valid = try await client.get("/facebook/debug_token?input_token=\(token)&access_token=\(appToken)")
            #expect(valid.status == .ok)
            let data = try #require(valid["data"])
            #expect(data["is_valid"] == .bool(true))
            #expect(data["app_id"]?.string == facebook.appID)
            #expect(data["user_id"]?.string == SandboxIdentity.facebookUser.subject)
            #expect(data["type"]?.string == "USER")
            #expect(data["scopes"]?.array?.contains(.string("email")) == true)

            // A raw `|` in the query works too, and a version segment is accepted.
            let foreign = try sandbox.facebookAccessToken(for: .facebookUser, appID: facebook.otherAppID)
            let other = try await client.get(
                "/facebook/v24.0/debug_token?input_token=\(foreign)&access_token=\(facebook.appID)|\(facebook.appSecret)")
            #expect(other["data"]?["is_valid"] == .bool(true))
            #expect(other["data"]?["app_id"]?.string == facebook.otherAppID, "the verifier must compare app_id")

            let expired = try sandbox.facebookAccessToken(for: .facebookUser, expiresIn: -60)
            let stale = try await client.get("/facebook/debug_token?input_token=\(expired)&access_token=\(appToken)")
            #expect(stale["data"]?["is_valid"] == .bool(false))
            #expect(stale["data"]?["error"]?["subcode"]?.int == 463)

            let unknown = try await client.get("/facebook/debug_token?input_token=EAAnonsense&access_token=\(appToken)")
            #expect(unknown.status == .ok)
            #expect(unknown["data"]?["is_valid"] == .bool(false))
            #expect(unknown["data"]?["error"]?["code"]?.int == 190)

            let badApp = try await client.get("/facebook/debug_token?input_token=\(token)&access_token=\(facebook.appID)%7Cwrong")
            #expect(badApp.status == .badRequest)
            #expect(badApp["error"]?["type"]?.string == "OAuthException")
            #expect(badApp["error"]?["code"]?.int == 190)

            let missing = try await client.get("/facebook/debug_token?access_token=\(appToken)")
            #expect(missing["error"]?["code"]?.int == 100)
            #expect(try await client.get("/facebook/latest/debug_token?input_token=x").status == .badRequest)
        }
    }

    @Test("/me requires a correct appsecret_proof and answers the requested fields")
    func me() async throws {
        try await withSandbox { sandbox, client in
            let secret = sandbox.credentials.facebook.appSecret
            let token = try sandbox.facebookAccessToken(for: .facebookUser)
            let proof = Self.proof(token, secret)
            #expect(proof == Sandbox.facebookAppSecretProof(accessToken: token, appSecret: secret))
            let fields = "id,name,email,first_name,last_name,picture.type(large)"
            let me = try await client.get("/facebook/v24.0/me?fields=\(fields)&access_token=\(token)&appsecret_proof=\(proof)")
            #expect(me.status == .ok, "\(me.text)")
            #expect(me["id"]?.string == SandboxIdentity.facebookUser.subject)
            #expect(me["email"]?.string == "frank@example.com")
            #expect(me["first_name"]?.string == "Frank")
            #expect(me["picture"]?["data"]?["width"]?.int == 200)

            let wrong = try await client.get("/facebook/me?fields=id&access_token=\(token)&appsecret_proof=\(Self.proof(token, "not-the-secret"))")
            #expect(wrong.status == .badRequest)
            #expect(wrong["error"]?["type"]?.string == "GraphMethodException")
            #expect(wrong["error"]?["message"]?.string == "Invalid appsecret_proof provided in the API argument")

            let none = try await client.get("/facebook/me?fields=id&access_token=\(token)")
            #expect(none.status == .badRequest)
            #expect(none["error"]?["message"]?.string == "API calls from the server require an appsecret_proof argument")

            let noEmailScope = try sandbox.facebookAccessToken(for: .facebookUser, scopes: ["public_profile"])
            let limited = try await client.get(
                "/facebook/me?fields=id,email&access_token=\(noEmailScope)&appsecret_proof=\(Self.proof(noEmailScope, secret))")
            #expect(limited["email"] == nil)

            let unknownField = try await client.get("/facebook/me?fields=id,shoe_size&access_token=\(token)&appsecret_proof=\(proof)")
            #expect(unknownField["error"]?["code"]?.int == 100)

            let garbage = try await client.get("/facebook/me?access_token=EAAgarbage&appsecret_proof=00")
            #expect(garbage["error"]?["code"]?.int == 190)
            #expect(garbage.headers[.wwwAuthenticate]?.contains("invalid_token") == true)
        }
    }

    @Test("Limited Login tokens verify against the JWKS at /.well-known/oauth/openid/jwks/")
    func limitedLogin() async throws {
        try await withSandbox { sandbox, client in
            let jwt = try IndependentJWT(try sandbox.facebookLimitedLoginToken(for: .facebookUser, nonce: .raw("ll")))
            let jwks = try await client.get("/facebook/.well-known/oauth/openid/jwks/")
            #expect(jwks.status == .ok)
            #expect(try jwt.verifies(against: jwks.body))
            #expect(jwt["iss"]?.string == "https://www.facebook.com")
            #expect(jwt["aud"]?.string == sandbox.credentials.facebook.appID)
            #expect(jwt["nonce"]?.string == IndependentJWT.sha256Hex("ll"))
            #expect(jwt["jti"] != nil)
            let discovery = try await client.get("/facebook/.well-known/openid-configuration/")
            #expect(discovery["jwks_uri"]?.string == "http://sandbox.test/facebook/.well-known/oauth/openid/jwks/")
            // Facebook, Google and Apple keys are different keys.
            let google = try await client.get("/google/oauth2/v3/certs")
            #expect(try !jwt.verifies(against: google.body))
        }
    }
}
