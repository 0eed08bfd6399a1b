import Crypto
import CryptoExtras
import Foundation
import HearthSandbox
import Testing

@Suite("Keys and defective tokens")
struct KeysAndDefectsTests {
    @Test("JWKS fetches are counted; rotation keeps or drops old keys; each provider has its own keys")
    func rotation() async throws {
        try await withSandbox { sandbox, client in
            let before = try sandbox.googleIDToken(for: .googleGmail)
            let first = try await client.get("/google/oauth2/v3/certs")
            #expect(sandbox.jwksFetchCount(.google) == 1)
            #expect(sandbox.jwksFetchCount(.apple) == 0)
            let oldKid = try #require(try sandbox.publishedKeyIDs(.google).first)
            #expect(oldKid.count == 40)

            let newKid = try sandbox.rotateKeys(.google)
            #expect(newKid != oldKid)
            #expect(try sandbox.publishedKeyIDs(.google) == [newKid, oldKid])
            let after = try IndependentJWT(try sandbox.googleIDToken(for: .googleGmail))
            #expect(after.kid == newKid)
            #expect(try after.key(in: first.body) == nil, "the cached JWKS does not know the new kid")
            let second = try await client.get("/google/oauth2/v3/certs")
            #expect(sandbox.jwksFetchCount(.google) == 2)
            #expect(try after.verifies(against: second.body))
            #expect(try IndependentJWT(before).verifies(against: second.body), "old key still published")

            try sandbox.rotateKeys(.google, keepPrevious: false)
            let third = try await client.get("/google/oauth2/v3/certs")
            #expect(try !IndependentJWT(before).verifies(against: third.body), "old key withdrawn")

            let apple = try await client.get("/apple/auth/keys")
            #expect(try !IndependentJWT(try sandbox.googleIDToken(for: .googleGmail)).verifies(against: apple.body))
            sandbox.resetFetchCounts()
            #expect(sandbox.jwksFetchCount(.google) == 0)
        }
    }

    @Test("Every defect produces a token an honest verifier rejects, for the right reason")
    func defects() async throws {
        try await withSandbox { sandbox, client in
            let jwks = try await client.get("/apple/auth/keys").body
            let published = try sandbox.publishedKeyIDs(.apple)
            let now = Int(Date().timeIntervalSince1970)
            func token(_ defect: SandboxTokenDefect?) throws -> IndependentJWT {
                try IndependentJWT(try sandbox.appleIDToken(for: .appleAlice, nonce: .raw("right"), defect: defect))
            }
            let good = try token(nil)
            #expect(try good.verifies(against: jwks))

            let expired = try token(.expired)
            #expect(try expired.verifies(against: jwks))
            #expect(try #require(expired["exp"]?.int) < now - 300)

            let early = try token(.notYetValid)
            #expect(try #require(early["iat"]?.int) > now + 300)

            #expect(try token(.wrongAudience)["aud"]?.string == Sandbox.wrongAudience)
            #expect(try token(.wrongIssuer)["iss"]?.string == Sandbox.wrongIssuer)
            let wrongNonce = try token(.wrongNonce)
            #expect(try wrongNonce.verifies(against: jwks))
            #expect(wrongNonce["nonce"]?.string != IndependentJWT.sha256Hex("right"))

            let unpublished = try token(.unpublishedKey)
            #expect(unpublished.kid == published.first)
            #expect(try unpublished.key(in: jwks) != nil)
            #expect(try !unpublished.verifies(against: jwks))

            let unknownKid = try token(.unknownKeyID)
            #expect(try unknownKid.key(in: jwks) == nil)

            let none = try sandbox.appleIDToken(for: .appleAlice, defect: .algNone)
            #expect(none.hasSuffix("."))
            #expect(try IndependentJWT(none).alg == "none")

            // The HS256 forgery "verifies" only for a verifier that HMACs with the public key's PEM.
            let hs = try token(.hs256WithPublicKey)
            #expect(hs.alg == "HS256")
            let pem = try #require(try hs.key(in: jwks)).pemRepresentation
            let mac = HMAC<SHA256>.authenticationCode(for: hs.signingInput, using: SymmetricKey(data: Data(pem.utf8)))
            #expect(Data(mac) == hs.signature)
            #expect(try !hs.verifies(against: jwks))

            let tampered = try token(.tamperedPayload)
            #expect(tampered["sub"]?.string == SandboxIdentity.appleAlice.subject + "-tampered")
            #expect(try !tampered.verifies(against: jwks))

            // Claim edits.
            let edited = try IndependentJWT(
                try sandbox.appleIDToken(for: .appleAlice, extraClaims: ["transfer_sub": "abc"], omittedClaims: ["email"]))
            #expect(edited["transfer_sub"]?.string == "abc")
            #expect(edited["email"] == nil)
        }
    }

    @Test("Endpoints list every URL and credential under the base URL")
    func endpoints() throws {
        let sandbox = Sandbox(baseURL: "http://127.0.0.1:9999/sandbox/")
        let endpoints = sandbox.endpoints()
        #expect(endpoints.apple.jwksURL == "http://127.0.0.1:9999/sandbox/apple/auth/keys")
        #expect(endpoints.apple.issuer == "https://appleid.apple.com")
        #expect(endpoints.microsoft.jwksURL == "http://127.0.0.1:9999/sandbox/microsoft/common/discovery/v2.0/keys")
        #expect(endpoints.microsoft.issuerTemplate == "https://login.microsoftonline.com/{tenantid}/v2.0")
        #expect(endpoints.google.issuers == ["https://accounts.google.com", "accounts.google.com"])
        #expect(endpoints.google.tokenInfoURL == "http://127.0.0.1:9999/sandbox/google/tokeninfo")
        #expect(endpoints.facebook.graphBaseURL == "http://127.0.0.1:9999/sandbox/facebook")
        #expect(endpoints.facebook.limitedLoginJWKSURL == "http://127.0.0.1:9999/sandbox/facebook/.well-known/oauth/openid/jwks/")
        #expect(endpoints.github.apiBaseURL == "http://127.0.0.1:9999/sandbox/github")
        #expect(endpoints.twitter.apiBaseURL == "http://127.0.0.1:9999/sandbox/twitter")
        let oidc = try #require(endpoints.oidc["sandbox"])
        #expect(oidc.issuer == "http://127.0.0.1:9999/sandbox/oidc/sandbox")
        #expect(oidc.discoveryURL == "http://127.0.0.1:9999/sandbox/oidc/sandbox/.well-known/openid-configuration")
        #expect(endpoints.flattened["facebook.appSecret"] == sandbox.credentials.facebook.appSecret)
        #expect(endpoints.apple.credentials.privateKeyPEM.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        #expect(sandbox.credentials.apple.teamID.count == 10)
        #expect(Sandbox().credentials.twitter.consumerSecret != sandbox.credentials.twitter.consumerSecret)
    }
}
