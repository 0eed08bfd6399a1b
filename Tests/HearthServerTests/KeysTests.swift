import Foundation
import HTTPTypes
import HearthCore
import HearthServer
import HearthTokens
import HearthWire
import JWTKit
import Testing

@Suite("Public keys, discovery and key rotation")
struct KeysTests {
    @Test("ID tokens verify against the published JWKS and X.509 certificates")
    func publishedKeysVerifyTokens() async throws {
        try await withHearth { _, client async throws in
            let created = try await client.signUp(email: "ada@example.com")
            let idToken = try #require(created.idToken)
            for path in ["/.well-known/jwks.json", "/www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com"] {
                let jwks = try await client.raw(path, method: .get)
                #expect(jwks.status == .ok)
                #expect(jwks.headers[.cacheControl]?.contains("max-age=3600") == true)
                let keys = try await JWTKeyCollection().add(jwksJSON: String(decoding: jwks.body, as: UTF8.self))
                let verified = try await keys.verify(idToken, as: IDTokenClaims.self)
                #expect(verified.userID == created.localId)
            }
            let x509 = try await client.raw("/www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com", method: .get)
            #expect(x509.status == .ok)
            let certificates = try JSONDecoder().decode([String: String].self, from: x509.body)
            guard case .string(let kid)? = jwtHeader(idToken)["kid"], let pem = certificates[kid] else {
                Issue.record("no certificate for the token's kid")
                return
            }
            #expect(kid.count == 40)
            let keys = JWTKeyCollection()
            await keys.add(rsa: try Insecure.RSA.PublicKey(certificatePEM: pem), digestAlgorithm: .sha256, kid: JWKIdentifier(string: kid))
            #expect(try await keys.verify(idToken, as: IDTokenClaims.self).userID == created.localId)
        }
    }

    @Test("the discovery document names the issuer and the key set")
    func discovery() async throws {
        try await withHearth { _, client async throws in
            for path in ["/.well-known/openid-configuration", "/securetoken.google.com/demo-hearth/.well-known/openid-configuration"] {
                let result = try await client.raw(path, method: .get)
                #expect(result.status == .ok)
                #expect(result.string("issuer") == "https://securetoken.google.com/demo-hearth")
                #expect(
                    result.string("jwks_uri")?.hasSuffix("/www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com") == true
                )
                #expect(result["id_token_signing_alg_values_supported"] == .array([.string("RS256")]))
            }
        }
        // Behind a proxy the key set is named at the public URL, not at the address the server listens on.
        try await withHearth({ $0.publicURL = "https://auth.example.com" }) { _, client async throws in
            let result = try await client.raw("/.well-known/openid-configuration", method: .get)
            #expect(
                result.string("jwks_uri")
                    == "https://auth.example.com/www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com")
        }
    }

    @Test("a configured issuer is used in tokens and checked on the way in")
    func configuredIssuer() async throws {
        try await withHearth({ $0.issuer = "https://auth.example.com" }) { _, client async throws in
            let created = try await client.signUpAnonymously()
            #expect(jwtClaims(created.idToken!)["iss"] == .string("https://auth.example.com"))
            #expect(try await client.lookup(created.idToken!).status == .ok)
        }
    }

    @Test("rotation publishes the new key before it signs and keeps the old one until its tokens and session cookies expire")
    func rotation() async throws {
        try await withHearth({
            $0.keyRotationPeriod = 3_600
            $0.keyPublishLead = 600
        }) { hearth, client async throws in
            func publishedKids() async throws -> Set<String> {
                let jwks = try await client.raw("/.well-known/jwks.json", method: .get)
                struct Document: Decodable {
                    struct Key: Decodable { let kid: String }
                    let keys: [Key]
                }
                return Set(try JSONDecoder().decode(Document.self, from: jwks.body).keys.map(\.kid))
            }
            func kid(_ token: String) -> String? { if case .string(let kid)? = jwtHeader(token)["kid"] { kid } else { nil } }

            let first = try await client.signUpAnonymously()
            let oldKid = try #require(kid(first.idToken!))
            #expect(try await publishedKids() == [oldKid])
            #expect(try await hearth.services.keyRing.rotateIfDue() == nil)

            hearth.clock.advance(by: 3_601)
            let newKid = try #require(try await hearth.services.keyRing.rotateIfDue())
            #expect(try await publishedKids() == [oldKid, newKid])
            let duringLead = try await client.signUpAnonymously()
            #expect(kid(duringLead.idToken!) == oldKid)

            hearth.clock.advance(by: 601)
            let afterLead = try await client.signUpAnonymously()
            #expect(kid(afterLead.idToken!) == newKid)
            #expect(try await client.lookup(duringLead.idToken!).status == .ok)
            #expect(try await publishedKids().contains(oldKid))

            // Its ID tokens have expired, but a session cookie it signed lasts up to two weeks: still published.
            hearth.clock.advance(by: 3_600 + 301)
            _ = try await hearth.services.keyRing.rotateIfDue()
            #expect(try await publishedKids().contains(oldKid))
            #expect(try await publishedKids().contains(newKid))
            let refreshed = try #require(try await client.refresh(first.refreshToken!).string("id_token"))
            #expect(kid(refreshed) != oldKid)

            hearth.clock.advance(by: 1_209_600)
            _ = try await hearth.services.keyRing.rotateIfDue()
            let kids = try await publishedKids()
            #expect(!kids.contains(oldKid))
            let later = try #require(try await client.refresh(first.refreshToken!).string("id_token"))
            #expect(kid(later).map(kids.contains) == true)
        }
    }
}
