import Foundation
import HearthCore
import HearthTokens
import JWTKit
import Testing

/// Pending credentials: a verified provider identity handed to the client, signed with the project's keys.
@Suite("Pending credentials")
struct PendingCredentialTests {
    static let profile = FederatedProfile(
        providerID: "google.com", rawID: "1234567890", email: "ada@example.com", emailVerified: true,
        displayName: "Ada Lovelace", firstName: "Ada", lastName: "Lovelace", photoURL: "https://example.com/ada.png",
        rawUserInfo: ["sub": .string("1234567890"), "hd": .string("example.com"), "locale": .string("en")])

    @Test("a pending token carries the profile, signed RS256 with a published key, for an audience no ID token has")
    func roundTrip() async throws {
        try await withKeyRing { replica, fixture in
            let token = try await replica.tokens.mintPendingToken(for: Self.profile)
            #expect(try await replica.tokens.verifyPendingToken(token) == Self.profile)

            let set = try await replica.keyRing.publicKeySet(at: fixture.clock.now)
            let claims = try await jwksVerifier(set).verify(token, as: RawClaims.self).fields
            #expect(jwtPart(token, 0)["alg"] == .string("RS256"))
            #expect(claims["aud"] == .string("\(projectID):pending-credential"))
            #expect(claims["iss"] == .string(issuer))
            if case .number(let iat)? = claims["iat"] { #expect(claims["exp"] == .number(iat + 3_600)) } else { Issue.record("no iat") }

            // Another replica on the same database reads it.
            let otherStore = try await fixture.openStore()
            do {
                let other = fixture.keyRing(otherStore)
                try await other.start()
                #expect(try await fixture.tokenService(other).verifyPendingToken(token) == Self.profile)
            } catch {
                try? await otherStore.close()
                throw error
            }
            try await otherStore.close()
        }
    }

    @Test("refused as INVALID_PENDING_TOKEN when tampered, expired, another project's, garbage, or an ID token")
    func refusals() async throws {
        try await withKeyRing { replica, fixture in
            let tokens = replica.tokens
            let token = try await tokens.mintPendingToken(for: Self.profile)

            var claims = jwtPart(token, 1)
            guard case .object(var profile)? = claims["profile"] else {
                Issue.record("no profile in \(claims)")
                return
            }
            #expect(profile["rawID"] == .string("1234567890"))
            profile["rawID"] = .string("attacker")
            claims["profile"] = .object(profile)
            await expectHearthError(.invalidPendingToken) { try await tokens.verifyPendingToken(withPayload(token, claims)) }
            for garbage in ["", "x", "a.b.c", token + "x", String(token.dropLast(2))] {
                await expectHearthError(.invalidPendingToken) { try await tokens.verifyPendingToken(garbage) }
            }
            let otherProject = try await fixture.tokenService(replica.keyRing, projectID: "other-project").mintPendingToken(for: Self.profile)
            await expectHearthError(.invalidPendingToken, reason: "audience, issuer or expiry") { try await tokens.verifyPendingToken(otherProject) }

            // Neither passes for the other.
            let idToken = try await tokens.mintIDToken(for: makeUser("u"), signInProvider: "google.com", authTime: fixture.clock.now)
            await expectHearthError(.invalidPendingToken) { try await tokens.verifyPendingToken(idToken) }
            await expectHearthError(.invalidIDToken) { try await tokens.verifyIDToken(token) }

            // Good for its hour, then refused.
            fixture.clock.advance(by: 3_599)
            #expect(try await tokens.verifyPendingToken(token) == Self.profile)
            fixture.clock.advance(by: 1)
            await expectHearthError(.invalidPendingToken, reason: "audience, issuer or expiry") { try await tokens.verifyPendingToken(token) }
        }
    }
}

extension PendingCredentialTests {
    @Test("a pending token is good for its whole hour on every replica, even when ID tokens are shorter and its key has retired")
    func pendingTokenOutlivesItsKey() async throws {
        // ID tokens of 10 minutes: a retired key is withdrawn 15 minutes after its successor activates,
        // but pending credentials are good for an hour whatever the ID-token lifetime.
        let configuration = KeyRing.Configuration(rotationPeriod: 86_400, publishLead: 600, tokenLifetime: 600)
        try await withKeyRing(configuration) { replica, fixture in
            let clock = fixture.clock
            clock.advance(by: 86_400)
            try #require(try await replica.keyRing.rotateIfDue() != nil)
            clock.advance(by: 599)
            let token = try await replica.tokens.mintPendingToken(for: Self.profile)
            clock.advance(by: 1 + 900 + 1)
            _ = try await replica.keyRing.rotateIfDue()
            // Still inside the pending token's hour.
            #expect(try await replica.tokens.verifyPendingToken(token) == Self.profile)
            let otherStore = try await fixture.openStore()
            do {
                let other = fixture.keyRing(otherStore, configuration)
                try await other.start()
                let otherTokens = fixture.tokenService(other)
                #expect(try await otherTokens.verifyPendingToken(token) == Self.profile)
            } catch {
                try? await otherStore.close()
                throw error
            }
            try await otherStore.close()
        }
    }
}
