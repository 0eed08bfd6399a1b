import Foundation
import HearthSandbox
import Testing

@Suite("Generic OIDC")
struct OIDCTests {
    @Test("Discovery document at issuer + /.well-known/openid-configuration, tokens verify against its jwks_uri")
    func discovery() async throws {
        try await withSandbox { sandbox, client in
            let discovery = try await client.get("/oidc/sandbox/.well-known/openid-configuration")
            #expect(discovery.status == .ok)
            let issuer = try #require(discovery["issuer"]?.string)
            #expect(issuer == "http://sandbox.test/oidc/sandbox")
            #expect(discovery["jwks_uri"]?.string == "\(issuer)/jwks")
            #expect(discovery["id_token_signing_alg_values_supported"] == .array([.string("RS256")]))
            #expect(discovery["authorization_endpoint"] != nil && discovery["token_endpoint"] != nil)
            #expect(sandbox.discoveryFetchCount(.oidc("sandbox")) == 1)

            let jwt = try IndependentJWT(try sandbox.oidcIDToken(for: .oidcUser, nonce: .raw("o")))
            let jwksPath = try #require(discovery["jwks_uri"]?.string?.replacingOccurrences(of: "http://sandbox.test", with: ""))
            #expect(try jwt.verifies(against: try await client.get(jwksPath).body))
            #expect(jwt["iss"]?.string == issuer)
            #expect(jwt["aud"]?.string == sandbox.oidcClient("sandbox")?.clientID)
            #expect(jwt["email_verified"] == .bool(true))

            let second = sandbox.addOIDCIssuer(name: "acme")
            let acme = SandboxIdentity(provider: .oidc("acme"), subject: "u-1", email: "u@acme.example", emailVerified: false)
            let acmeToken = try IndependentJWT(try sandbox.oidcIDToken(for: acme))
            #expect(acmeToken["iss"]?.string == "http://sandbox.test/oidc/acme")
            #expect(acmeToken["aud"]?.string == second.clientID)
            #expect(try !acmeToken.verifies(against: try await client.get(jwksPath).body), "issuers have separate keys")
            #expect(try acmeToken.verifies(against: try await client.get("/oidc/acme/jwks").body))

            #expect(try await client.get("/oidc/nobody/.well-known/openid-configuration").status == .notFound)
            #expect(throws: SandboxError.unknownOIDCIssuer("nobody")) {
                try sandbox.oidcIDToken(for: SandboxIdentity(provider: .oidc("nobody"), subject: "x"))
            }
        }
    }
}
