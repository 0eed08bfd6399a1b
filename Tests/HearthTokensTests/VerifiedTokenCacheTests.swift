import Foundation
import HearthCore
import Testing

@testable import HearthTokens

/// The cache of verified ID tokens never answers for a token past its `exp`, and stays within its size.
@Suite("VerifiedTokenCache")
struct VerifiedTokenCacheTests {
    static func claims(_ uid: String, expiresAt: Int64) -> IDTokenClaims {
        IDTokenClaims(
            issuer: issuer, audience: projectID, authTime: expiresAt - 3_600, userID: uid, issuedAt: expiresAt - 3_600,
            expiresAt: expiresAt, firebase: .init(identities: [:], signInProvider: "anonymous"))
    }

    @Test("an entry answers until exp and is dropped at exp; an expired token is never stored")
    func expiry() {
        let cache = VerifiedTokenCache(capacity: 8)
        cache.insert(Self.claims("a", expiresAt: 1_000), for: "token-a", now: 500)
        #expect(cache.claims(for: "token-a", now: 999)?.userID == "a")
        #expect(cache.claims(for: "token-a", now: 1_000) == nil)
        #expect(cache.count == 0)
        // Asked with an earlier clock afterwards, it is still gone.
        #expect(cache.claims(for: "token-a", now: 500) == nil)

        cache.insert(Self.claims("b", expiresAt: 1_000), for: "token-b", now: 1_000)
        cache.insert(Self.claims("c", expiresAt: 1_000), for: "token-c", now: 5_000)
        #expect(cache.count == 0)
        #expect(cache.claims(for: "unknown", now: 0) == nil)
    }

    @Test("two generations: a full young one is aged whole, a hit in the old one moves back, an expired old entry is dropped")
    func generations() {
        let cache = VerifiedTokenCache(capacity: 4)
        #expect(cache.generationCapacity == 2)
        for name in ["a", "b", "c", "d"] { cache.insert(Self.claims(name, expiresAt: 1_000), for: name, now: 0) }
        #expect(cache.count == 4)
        // a comes back from the old generation: the young one (c, d) ages and b, left behind, is dropped.
        #expect(cache.claims(for: "a", now: 0)?.userID == "a")
        #expect(cache.claims(for: "b", now: 0) == nil)
        #expect(cache.count == 3)
        #expect(cache.claims(for: "c", now: 0)?.userID == "c")
        // d is in the old generation and expired: dropped, not moved.
        #expect(cache.claims(for: "d", now: 1_000) == nil)
        #expect(cache.claims(for: "d", now: 0) == nil)
        // Re-inserting a token that is present never ages the generation.
        cache.insert(Self.claims("a", expiresAt: 1_000), for: "a", now: 0)
        #expect(cache.claims(for: "c", now: 0)?.userID == "c")
        #expect(VerifiedTokenCache(capacity: 0).generationCapacity == 1)
    }

    @Test("TokenService: a verified token is cached, and past its exp the cache does not answer: TOKEN_EXPIRED")
    func serviceCacheEndsAtExpiry() async throws {
        try await withKeyRing { replica, fixture in
            let tokens = replica.tokens
            let token = try await tokens.mintIDToken(for: makeUser("cached"), signInProvider: "anonymous", authTime: fixture.clock.now)
            #expect(try await tokens.verifyIDToken(token).userID == "cached")
            #expect(tokens.verifiedTokens.count == 1)
            // A copy of the service shares the cache.
            let copy = tokens
            #expect(try await copy.verifyIDToken(token).userID == "cached")
            #expect(copy.verifiedTokens.count == 1)

            fixture.clock.advance(by: 3_600)
            await expectHearthError(.tokenExpired) { try await tokens.verifyIDToken(token) }
            #expect(tokens.verifiedTokens.count == 0)
            // A cached token still meets every check: another project's service on the same keys refuses it.
            fixture.clock.advance(by: -3_600)
            #expect(try await tokens.verifyIDToken(token).userID == "cached")
            let other = fixture.tokenService(replica.keyRing, projectID: "other-project")
            await expectHearthError(.invalidIDToken, reason: "issuer, audience or subject") { try await other.verifyIDToken(token) }
        }
    }
}
