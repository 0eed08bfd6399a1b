import Crypto
import CryptoExtras
import Foundation
import HearthBase64URL
import HearthCore
import HearthWire
import JWTKit
import Testing

@Suite("accounts:lookup and ID-token checks")
struct LookupAndTokenTests {
    @Test("lookup returns the user with the password provider and a redacted hash")
    func lookup() async throws {
        try await withHearth { _, client async throws in
            let created = try await client.signUp(email: "ada@example.com", password: "secret1")
            let result = try await client.lookup(created.idToken!)
            #expect(result.status == .ok)
            #expect(result.string("kind") == "identitytoolkit#GetAccountInfoResponse")
            let users = try result.decode(LookupResponse.self).users
            let user = try #require(users?.first)
            #expect(user.localId == created.localId)
            #expect(user.email == "ada@example.com")
            #expect(user.emailVerified == false)
            #expect(user.passwordHash == "UkVEQUNURUQ=")
            #expect(
                user.providerUserInfo == [
                    ProviderUserInfo(providerId: "password", rawId: "ada@example.com", federatedId: "ada@example.com", email: "ada@example.com")
                ])
            #expect(user.createdAt != nil && user.lastLoginAt != nil && user.validSince != nil)
            #expect(!String(decoding: result.body, as: UTF8.self).contains("scrypt"))
        }
    }

    @Test("lastRefreshAt (RFC 3339) is the last sign-in or refresh, recorded at most once a minute; initialEmail the first address")
    func lastRefreshAndInitialEmail() async throws {
        try await withHearth { hearth, client async throws in
            func rfc3339(_ date: Date) -> String { date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)) }
            let signedUp = hearth.clock.now
            let created = try await client.signUp(email: "ada@example.com", password: "secret1")
            var user = try #require(try await client.lookup(created.idToken!).decode(LookupResponse.self).users?.first)
            #expect(user.lastRefreshAt == rfc3339(signedUp))
            #expect(user.initialEmail == nil)

            // A refresh within the minute is not written again (the refresh path stays one cached read).
            hearth.clock.advance(by: 30)
            #expect(try await client.refresh(created.refreshToken!).status == .ok)
            user = try #require(try await client.lookup(created.idToken!).decode(LookupResponse.self).users?.first)
            #expect(user.lastRefreshAt == rfc3339(signedUp))
            hearth.clock.advance(by: 45)
            let refreshedAt = hearth.clock.now
            let refreshed = try await client.refresh(created.refreshToken!)
            #expect(refreshed.status == .ok)
            let refreshedToken = try #require(refreshed.string("id_token"))
            user = try #require(try await client.lookup(refreshedToken).decode(LookupResponse.self).users?.first)
            #expect(user.lastRefreshAt == rfc3339(refreshedAt))

            // A sign-in records it too; the administrator's listings show it (batchGet, query, lookup).
            hearth.clock.advance(by: 10)
            let signedInAt = hearth.clock.now
            let signedIn = try await client.signIn(email: "ada@example.com", password: "secret1")
            let fresh = try #require(signedIn.string("idToken"))
            let admin = AdminClient(client)
            let listed = try await admin.get("/accounts:batchGet").decode(BatchGetResponse.self).users?.first
            let queried = try await admin.post("/accounts:query", "{}").decode(QueryResponse.self).userInfo?.first
            let found = try await admin.post("/accounts:lookup", #"{"localId":["\#(created.localId)"]}"#).decode(LookupResponse.self).users?.first
            for info in [listed, queried, found] { #expect(info?.lastRefreshAt == rfc3339(signedInAt)) }

            // The first address is kept once the e-mail changes, and stays the first through later changes.
            let changed = try await client.post("/v1/accounts:update", ["idToken": .string(fresh), "email": .string("ada2@example.com")])
            #expect(changed.status == .ok, "\(changed.text)")
            let again = try await client.post(
                "/v1/accounts:update", ["idToken": .string(try #require(changed.string("idToken"))), "email": .string("ada3@example.com")])
            #expect(again.status == .ok, "\(again.text)")
            let latest = try #require(again.string("idToken"))
            user = try #require(try await client.lookup(latest).decode(LookupResponse.self).users?.first)
            #expect(user.email == "ada3@example.com" && user.initialEmail == "ada@example.com")
            let exported = try await admin.get("/accounts:batchGet").decode(BatchGetResponse.self).users?.first
            #expect(exported?.initialEmail == "ada@example.com")
        }
    }

    @Test("an anonymous user has no providers")
    func anonymousLookup() async throws {
        try await withHearth { _, client async throws in
            let created = try await client.signUpAnonymously()
            let user = try #require(try await client.lookup(created.idToken!).decode(LookupResponse.self).users?.first)
            #expect(user.providerUserInfo == [])
            #expect(user.passwordHash == nil)
        }
    }

    @Test("MISSING_ID_TOKEN, INVALID_ID_TOKEN for garbage, TOKEN_EXPIRED after an hour, USER_NOT_FOUND once deleted")
    func tokenErrors() async throws {
        try await withHearth { hearth, client async throws in
            #expect(try await client.post("/v1/accounts:lookup", json: "{}").errorMessage == "MISSING_ID_TOKEN")
            #expect(try await client.lookup("garbage").errorMessage == "INVALID_ID_TOKEN")
            #expect(try await client.lookup("a.b.c").errorMessage == "INVALID_ID_TOKEN")
            let created = try await client.signUpAnonymously()
            hearth.clock.advance(by: 3_601)
            #expect(try await client.lookup(created.idToken!).errorMessage == "TOKEN_EXPIRED")
            let fresh = try await client.refresh(created.refreshToken!)
            let idToken = try #require(fresh.string("id_token"))
            try await hearth.services.store.deleteUser(uid: created.localId)
            #expect(try await client.lookup(idToken).errorMessage == "USER_NOT_FOUND")
        }
    }

    @Test("forged tokens are INVALID_ID_TOKEN: another key, alg none, HS256 with the public key, wrong audience, wrong issuer")
    func forgedTokens() async throws {
        try await withHearth { hearth, client async throws in
            let created = try await client.signUpAnonymously()
            let genuine = try #require(created.idToken)
            var claims = jwtClaims(genuine)
            let kid = jwtHeader(genuine)["kid"]

            // Same claims, signed by a key the server never published, under the real kid.
            let stranger = try Insecure.RSA.PrivateKey(pem: _RSA.Signing.PrivateKey(keySize: .bits2048).pemRepresentation)
            let keys = JWTKeyCollection()
            if case .string(let kid)? = kid { await keys.add(rsa: stranger, digestAlgorithm: .sha256, kid: JWKIdentifier(string: kid)) }
            struct Raw: JWTPayload {
                let claims: [String: JSONValue]
                func encode(to e: any Encoder) throws { try claims.encode(to: e) }
                init(_ c: [String: JSONValue]) { claims = c }
                init(from d: any Decoder) throws { claims = try [String: JSONValue](from: d) }
                func verify(using algorithm: some JWTAlgorithm) {}
            }
            let forged = try await keys.sign(Raw(claims))
            #expect(try await client.lookup(forged).errorMessage == "INVALID_ID_TOKEN")

            // alg: none, signature stripped.
            let parts = genuine.split(separator: ".")
            let none = Base64URL.encode(#"{"alg":"none","typ":"JWT"}"#.utf8) + "." + parts[1] + "."
            #expect(try await client.lookup(none).errorMessage == "INVALID_ID_TOKEN")

            // HS256 keyed with the published public key (algorithm confusion).
            let jwks = try await client.raw("/.well-known/jwks.json", method: .get)
            let hmacKeys = JWTKeyCollection()
            await hmacKeys.add(hmac: HMACKey(from: Data(jwks.body)), digestAlgorithm: .sha256, kid: "x")
            let confused = try await hmacKeys.sign(Raw(claims))
            #expect(try await client.lookup(confused).errorMessage == "INVALID_ID_TOKEN")

            // Genuine signature over other claims is impossible; a token for another audience is minted with our key directly.
            claims["aud"] = .string("someone-else")
            let otherAudience = try await hearth.services.keyRing.collection.sign(
                Raw(claims), kid: kid.flatMap { if case .string(let s) = $0 { JWKIdentifier(string: s) } else { nil } })
            #expect(try await client.lookup(otherAudience).errorMessage == "INVALID_ID_TOKEN")
            claims["aud"] = .string("demo-hearth")
            claims["iss"] = .string("https://evil.example.com/demo-hearth")
            let otherIssuer = try await hearth.services.keyRing.collection.sign(
                Raw(claims), kid: kid.flatMap { if case .string(let s) = $0 { JWKIdentifier(string: s) } else { nil } })
            #expect(try await client.lookup(otherIssuer).errorMessage == "INVALID_ID_TOKEN")
        }
    }
}
