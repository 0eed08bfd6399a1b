import Foundation
import HearthSandbox
import Testing

@Suite("Google")
struct GoogleTests {
    @Test("ID tokens: RS256 via /oauth2/v3/certs, boolean email_verified, azp, profile claims, both issuer forms")
    func idToken() async throws {
        try await withSandbox { sandbox, client in
            let google = sandbox.credentials.google
            let certs = try await client.get("/google/oauth2/v3/certs")
            #expect(certs.headers[.cacheControl]?.contains("max-age=") == true)
            let jwt = try IndependentJWT(
                try sandbox.googleIDToken(for: .googleWorkspace, authorizedParty: google.androidClientID, nonce: .raw("g")))
            #expect(try jwt.verifies(against: certs.body))
            #expect(jwt["iss"]?.string == "https://accounts.google.com")
            #expect(jwt["aud"]?.string == google.webClientID)
            #expect(jwt["azp"]?.string == google.androidClientID)
            #expect(jwt["email_verified"] == .bool(true))
            #expect(jwt["hd"]?.string == "example.com")
            #expect(jwt["given_name"]?.string == "Ada" && jwt["family_name"]?.string == "Lovelace")
            #expect(jwt["picture"]?.string?.hasPrefix("https://lh3.googleusercontent.com/") == true)
            #expect(jwt["nonce"]?.string == IndependentJWT.sha256Hex("g"))

            let legacy = try IndependentJWT(
                try sandbox.googleIDToken(for: .googleGmail, issuer: Sandbox.googleLegacyIssuer, includeProfile: false))
            #expect(legacy["iss"]?.string == "accounts.google.com")
            #expect(legacy["azp"]?.string == google.webClientID)
            #expect(legacy["name"] == nil && legacy["picture"] == nil)
            #expect(legacy["hd"] == nil)

            let unverified = try IndependentJWT(try sandbox.googleIDToken(for: .googleUnverified))
            #expect(unverified["email_verified"] == .bool(false))
        }
    }

    @Test("tokeninfo answers ID-token claims as strings and access-token info; refuses bad tokens with Invalid Value")
    func tokenInfo() async throws {
        try await withSandbox { sandbox, client in
            let idToken = try sandbox.googleIDToken(for: .googleGmail)
            let info = try await client.get("/google/tokeninfo?id_token=\(idToken)")
            #expect(info.status == .ok)
            #expect(info["email_verified"]?.string == "true")
            #expect(info["sub"]?.string == SandboxIdentity.googleGmail.subject)
            #expect(info["alg"]?.string == "RS256")
            #expect(info["exp"]?.string != nil)

            let forged = try sandbox.googleIDToken(for: .googleGmail, defect: .unpublishedKey)
            let refused = try await client.get("/google/tokeninfo?id_token=\(forged)")
            #expect(refused.status == .badRequest)
            #expect(refused["error_description"]?.string == "Invalid Value")

            let accessToken = try sandbox.googleAccessToken(for: .googleGmail)
            let access = try await client.get("/google/oauth2/v3/tokeninfo?access_token=\(accessToken)")
            #expect(access.status == .ok)
            #expect(access["aud"]?.string == sandbox.credentials.google.webClientID)
            #expect(access["email"]?.string == "grace.hopper.sandbox@gmail.com")
            #expect(access["scope"]?.string?.contains("openid") == true)

            let expired = try sandbox.googleAccessToken(for: .googleGmail, expiresIn: -10)
            #expect(try await client.get("/google/tokeninfo?access_token=\(expired)").status == .badRequest)
        }
    }

    @Test("userinfo (v3 and v2 shapes) needs a valid bearer token")
    func userInfo() async throws {
        try await withSandbox { sandbox, client in
            let accessToken = try sandbox.googleAccessToken(for: .googleGmail)
            let v3 = try await client.get("/google/oauth2/v3/userinfo", headers: [.authorization: "Bearer \(accessToken)"])
            #expect(v3.status == .ok)
            #expect(v3["sub"]?.string == SandboxIdentity.googleGmail.subject)
            #expect(v3["email_verified"] == .bool(true))
            #expect(v3["name"]?.string == "Grace Hopper")
            let v2 = try await client.get("/google/oauth2/v2/userinfo", headers: [.authorization: "Bearer \(accessToken)"])
            #expect(v2["id"]?.string == SandboxIdentity.googleGmail.subject)
            #expect(v2["verified_email"] == .bool(true))

            sandbox.revoke(token: accessToken)
            let revoked = try await client.get("/google/oauth2/v3/userinfo", headers: [.authorization: "Bearer \(accessToken)"])
            #expect(revoked.status == .unauthorized)
            #expect(revoked.headers[.wwwAuthenticate]?.contains("invalid_token") == true)
        }
    }
}
