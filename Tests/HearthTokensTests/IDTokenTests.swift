import Crypto
import CryptoExtras
import Foundation
import HearthCore
import HearthTokens
import JWTKit
import Testing

/// ID tokens as `TokenService` mints and checks them: Firebase's header and claims, RS256 signatures a
/// verifier outside Hearth accepts from the published keys, and every forged or foreign token refused.
@Suite("ID tokens")
struct IDTokenTests {
    @Test("a password user's token has Firebase's header and claims and verifies against the published JWKS and certificates")
    func passwordUserToken() async throws {
        try await withKeyRing { replica, fixture in
            let now = fixture.clock.now
            let authTime = now.addingTimeInterval(-120.75)
            let user = makeUser(
                "uid-ada", email: "ada@example.com", emailVerified: true, displayName: "Ada Lovelace",
                photoURL: "https://example.com/ada.png")
            let token = try await replica.tokens.mintIDToken(for: user, signInProvider: "password", authTime: authTime)

            let kid = try #require(await replica.keyRing.signingKid(at: now))
            #expect(jwtPart(token, 0) == ["alg": .string("RS256"), "kid": .string(kid), "typ": .string("JWT")])

            let set = try await replica.keyRing.publicKeySet(at: now)
            let claims = try await jwksVerifier(set).verify(token, as: RawClaims.self).fields
            #expect(try await certificateVerifier(set).verify(token, as: RawClaims.self).fields == claims)
            let iat = Double(Int64(now.timeIntervalSince1970))
            #expect(
                claims == [
                    "iss": .string(issuer),
                    "aud": .string(projectID),
                    "auth_time": .number(Double(Int64(authTime.timeIntervalSince1970))),
                    "user_id": .string("uid-ada"),
                    "sub": .string("uid-ada"),
                    "iat": .number(iat),
                    "exp": .number(iat + 3_600),
                    "email": .string("ada@example.com"),
                    "email_verified": .bool(true),
                    "name": .string("Ada Lovelace"),
                    "picture": .string("https://example.com/ada.png"),
                    "firebase": .object([
                        "identities": .object(["email": .array([.string("ada@example.com")])]),
                        "sign_in_provider": .string("password"),
                    ]),
                ])
            // The module reads back what it wrote.
            let verified = try await replica.tokens.verifyIDToken(token)
            #expect(verified.userID == "uid-ada" && verified.subject == "uid-ada")
            #expect(verified.firebase == .init(identities: ["email": ["ada@example.com"]], signInProvider: "password"))
        }
    }

    @Test("anonymous and federated users: provider_id, identities per provider, phone, and no e-mail claims without an e-mail")
    func otherUsers() async throws {
        try await withKeyRing { replica, fixture in
            let now = fixture.clock.now
            let anonymous = try await replica.tokens.mintIDToken(for: makeUser("anon"), signInProvider: "anonymous", authTime: now)
            let anonymousClaims = jwtPart(anonymous, 1)
            #expect(anonymousClaims["provider_id"] == .string("anonymous"))
            #expect(anonymousClaims["firebase"] == .object(["identities": .object([:]), "sign_in_provider": .string("anonymous")]))
            #expect(anonymousClaims["email"] == nil && anonymousClaims["email_verified"] == nil)

            let federated = makeUser(
                "fed", email: "grace@example.com", phoneNumber: "+15555550100",
                providers: [
                    ProviderLink(providerID: "google.com", rawID: "1234567890"),
                    ProviderLink(providerID: "github.com", rawID: "42"),
                ])
            let token = try await replica.tokens.mintIDToken(for: federated, signInProvider: "google.com", authTime: now)
            let claims = try await jwksVerifier(replica.keyRing.publicKeySet(at: now)).verify(token, as: RawClaims.self).fields
            #expect(claims["provider_id"] == nil)
            #expect(claims["phone_number"] == .string("+15555550100"))
            #expect(claims["email_verified"] == .bool(false))
            #expect(
                claims["firebase"]
                    == .object([
                        "identities": .object([
                            "email": .array([.string("grace@example.com")]),
                            "phone": .array([.string("+15555550100")]),
                            "google.com": .array([.string("1234567890")]),
                            "github.com": .array([.string("42")]),
                        ]),
                        "sign_in_provider": .string("google.com"),
                    ]))
        }
    }

    @Test("developer claims sit at the top level, a session's win over the account's, and none replaces a reserved claim")
    func developerClaims() async throws {
        try await withKeyRing { replica, fixture in
            let user = makeUser(
                "dev",
                customAttributes:
                    #"{"role":"reader","tier":1,"sub":"evil","iss":"https://evil.example.com","firebase":{"sign_in_provider":"password"}}"#)
            let token = try await replica.tokens.mintIDToken(
                for: user, signInProvider: "custom", authTime: fixture.clock.now,
                sessionClaims: ["role": .string("admin"), "aud": .string("other-project"), "exp": .number(9_999_999_999)])
            let claims = try await jwksVerifier(replica.keyRing.publicKeySet(at: fixture.clock.now)).verify(token, as: RawClaims.self).fields
            #expect(claims["role"] == .string("admin"))
            #expect(claims["tier"] == .number(1))
            #expect(claims["sub"] == .string("dev"))
            #expect(claims["iss"] == .string(issuer))
            #expect(claims["aud"] == .string(projectID))
            #expect(claims["exp"] == claims["iat"].flatMap { if case .number(let iat) = $0 { .number(iat + 3_600) } else { nil } })
            #expect(claims["firebase"] == .object(["identities": .object([:]), "sign_in_provider": .string("custom")]))
            // Each claim name once in the signed JSON.
            let payload = try #require(base64URLDecode(token.split(separator: ".")[1]))
            #expect(String(decoding: payload, as: UTF8.self).components(separatedBy: "\"sub\"").count == 2)
            #expect(try await replica.tokens.verifyIDToken(token).custom == ["role": .string("admin"), "tier": .number(1)])
        }
    }

    @Test("a configured issuer and lifetime are used in tokens and checked on the way in")
    func configuredIssuerAndLifetime() async throws {
        try await withKeyRing { replica, fixture in
            let custom = TokenService(
                keyRing: replica.keyRing,
                configuration: .init(projectID: projectID, issuer: "https://auth.example.com", idTokenLifetime: 600),
                clock: fixture.clock.wallClock)
            let token = try await custom.mintIDToken(for: makeUser("u"), signInProvider: "anonymous", authTime: fixture.clock.now)
            let claims = jwtPart(token, 1)
            #expect(claims["iss"] == .string("https://auth.example.com"))
            if case .number(let iat)? = claims["iat"] { #expect(claims["exp"] == .number(iat + 600)) } else { Issue.record("no iat") }
            #expect(try await custom.verifyIDToken(token).issuer == "https://auth.example.com")
            await expectHearthError(.invalidIDToken, reason: "issuer, audience or subject") { try await replica.tokens.verifyIDToken(token) }
            fixture.clock.advance(by: 600)
            await expectHearthError(.tokenExpired, reason: "exp passed") { try await custom.verifyIDToken(token) }
        }
    }

    @Test("expiry: valid to the last second of its hour, TOKEN_EXPIRED from exp on; a token from the future is refused")
    func timeChecks() async throws {
        try await withKeyRing { replica, fixture in
            let clock = fixture.clock
            let token = try await replica.tokens.mintIDToken(for: makeUser("timed"), signInProvider: "anonymous", authTime: clock.now)
            clock.advance(by: 3_599)
            #expect(try await replica.tokens.verifyIDToken(token).userID == "timed")
            clock.advance(by: 1)
            await expectHearthError(.tokenExpired, reason: "exp passed") { try await replica.tokens.verifyIDToken(token) }

            // Minted by a replica whose clock runs ahead: 5 minutes of skew pass, more do not.
            let ahead = ManualClock(clock.now.addingTimeInterval(301))
            let aheadService = TokenService(keyRing: replica.keyRing, configuration: .init(projectID: projectID), clock: ahead.wallClock)
            let early = try await aheadService.mintIDToken(for: makeUser("early"), signInProvider: "anonymous", authTime: ahead.now)
            await expectHearthError(.invalidIDToken, reason: "issued in the future") { try await replica.tokens.verifyIDToken(early) }
            ahead.advance(by: -1)
            let skewed = try await aheadService.mintIDToken(for: makeUser("skewed"), signInProvider: "anonymous", authTime: ahead.now)
            #expect(try await replica.tokens.verifyIDToken(skewed).userID == "skewed")
        }
    }

    @Test("parallel genuine and forged tokens on one ring: each genuine one verifies, each forged one is INVALID_ID_TOKEN")
    func parallelVerification() async throws {
        try await withKeyRing { replica, fixture in
            let tokens = replica.tokens
            let genuine = try await tokens.mintIDToken(for: makeUser("parallel"), signInProvider: "anonymous", authTime: fixture.clock.now)
            let forger = JWTKeyCollection()
            await forger.add(
                rsa: try Insecure.RSA.PrivateKey(pem: _RSA.Signing.PrivateKey(keySize: .bits2048).pemRepresentation),
                digestAlgorithm: .sha256, kid: "forger")
            var forged: [String] = []
            for index in 0..<16 {
                var claims = jwtPart(genuine, 1)
                claims["sub"] = .string("victim-\(index)")
                forged.append(try await forger.sign(RawClaims(claims), kid: JWKIdentifier(string: String(format: "%040x", index))))
            }
            // Each task reports what it expected and what it got: "ok" or the error's code.
            let outcomes = await withTaskGroup(of: (expected: String, got: String).self) { group in
                for index in 0..<64 {
                    let isGenuine = index.isMultiple(of: 2)
                    let token = isGenuine ? genuine : forged[index / 2 % forged.count]
                    group.addTask {
                        let expected = isGenuine ? "ok" : HearthError.Code.invalidIDToken.rawValue
                        do {
                            let uid = try await tokens.verifyIDToken(token).userID
                            return (expected, uid == "parallel" ? "ok" : "uid \(uid)")
                        } catch let error as HearthError {
                            return (expected, error.code.rawValue)
                        } catch {
                            return (expected, "\(error)")
                        }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.count == 64)
            for outcome in outcomes where outcome.expected != outcome.got {
                Issue.record("expected \(outcome.expected), got \(outcome.got)")
            }
        }
    }

    @Test(
        "forged and foreign tokens are INVALID_ID_TOKEN: garbage, another key under our kid, alg none, HS256 with the public key, other audience, issuer or subject"
    )
    func forgedTokens() async throws {
        try await withKeyRing { replica, fixture in
            let tokens = replica.tokens
            let now = fixture.clock.now
            let genuine = try await tokens.mintIDToken(for: makeUser("victim"), signInProvider: "anonymous", authTime: now)
            let kid = try #require(keyID(of: genuine))
            let claims = jwtPart(genuine, 1)

            for garbage in ["", "garbage", "a.b.c", "..", genuine + ".x", String(repeating: "A", count: 10_000) + "." + genuine] {
                await expectHearthError(.invalidIDToken) { try await tokens.verifyIDToken(garbage) }
            }
            // Same claims under the real kid, signed by a key never published.
            let stranger = JWTKeyCollection()
            await stranger.add(
                rsa: try Insecure.RSA.PrivateKey(pem: _RSA.Signing.PrivateKey(keySize: .bits2048).pemRepresentation),
                digestAlgorithm: .sha256, kid: JWKIdentifier(string: kid))
            await expectHearthError(.invalidIDToken) { try await tokens.verifyIDToken(try await stranger.sign(RawClaims(claims))) }
            // A genuine signature over other claims.
            var raised = claims
            raised["sub"] = .string("admin")
            raised["user_id"] = .string("admin")
            await expectHearthError(.invalidIDToken) { try await tokens.verifyIDToken(withPayload(genuine, raised)) }
            // alg none, signature stripped.
            let parts = genuine.split(separator: ".")
            let none = base64URLEncode(Data(#"{"alg":"none","typ":"JWT"}"#.utf8)) + "." + parts[1] + "."
            await expectHearthError(.invalidIDToken) { try await tokens.verifyIDToken(none) }
            // HS256 keyed with the published JWKS text and with the certificate (algorithm confusion).
            let set = try await replica.keyRing.publicKeySet(at: now)
            for secret in [try jwksJSON(set), try #require(set.certificates[kid])] {
                let hmac = JWTKeyCollection()
                await hmac.add(hmac: HMACKey(from: Data(secret.utf8)), digestAlgorithm: .sha256, kid: JWKIdentifier(string: kid))
                await expectHearthError(.invalidIDToken) { try await tokens.verifyIDToken(try await hmac.sign(RawClaims(claims))) }
            }
            // Our own key, foreign claims.
            let ours = replica.keyRing.collection
            for (name, value) in [
                ("aud", "someone-else"), ("iss", "https://evil.example.com/demo-hearth"), ("sub", ""), ("sub", String(repeating: "x", count: 129)),
            ] {
                var changed = claims
                changed[name] = .string(value)
                let signed = try await ours.sign(RawClaims(changed), kid: JWKIdentifier(string: kid))
                await expectHearthError(.invalidIDToken, reason: "issuer, audience or subject") { try await tokens.verifyIDToken(signed) }
            }
            // A token naming a kid nobody has.
            let unknown = JWTKeyCollection()
            await unknown.add(
                rsa: try Insecure.RSA.PrivateKey(pem: _RSA.Signing.PrivateKey(keySize: .bits2048).pemRepresentation),
                digestAlgorithm: .sha256, kid: "0000000000000000000000000000000000000000")
            await expectHearthError(.invalidIDToken) { try await tokens.verifyIDToken(try await unknown.sign(RawClaims(claims))) }
            // The genuine token is still good after all that.
            #expect(try await tokens.verifyIDToken(genuine).userID == "victim")
        }
    }
}
