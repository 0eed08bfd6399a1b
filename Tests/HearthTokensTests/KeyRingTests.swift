import Foundation
import HearthCore
import HearthStorage
import HearthTokens
import JWTKit
import Testing

/// The signing keys on a real SQLite file: the first key, publication, rotation, withdrawal and replicas.
@Suite("KeyRing")
struct KeyRingTests {
    /// Rotation after a day, the successor published 10 minutes ahead, tokens of an hour.
    /// Signs no session cookies, so a retired key is withdrawn an ID token's lifetime after it stops signing.
    static let rotating = KeyRing.Configuration(rotationPeriod: 86_400, publishLead: 600, tokenLifetime: 3_600, sessionCookieLifetime: 0)

    @Test("a fresh ring makes one key that signs at once, stores it and publishes it as JWKS and X.509")
    func firstKey() async throws {
        try await withKeyRing { replica, fixture in
            let now = fixture.clock.now
            let kid = try #require(await replica.keyRing.signingKid(at: now))
            #expect(kid.count == 40 && kid.allSatisfy { "0123456789abcdef".contains($0) })
            #expect(replica.keyRing.signer(at: now)?.kid == kid)

            let stored = try await replica.store.signingKeys()
            #expect(stored.map(\.kid) == [kid])
            let record = try #require(stored.first)
            #expect(record.algorithm == "RS256")
            #expect(record.activatesAt == now && record.createdAt == now)
            #expect(record.privateKeyPEM.contains("PRIVATE KEY-----"))

            let set = try await replica.keyRing.publicKeySet(at: now)
            #expect(set.keys.map(\.kid) == [kid])
            let jwk = try #require(set.keys.first)
            #expect(jwk.kty == "RSA" && jwk.alg == "RS256" && jwk.use == "sig" && jwk.e == "AQAB")
            #expect(base64URLDecode(jwk.n)?.count == 256)
            #expect(Set(set.certificates.keys) == [kid])
            #expect(set.certificates[kid]?.hasPrefix("-----BEGIN CERTIFICATE-----") == true)
            // The publication carries public halves only, exactly Google's JWK members.
            let json = try jwksJSON(set)
            #expect(!json.contains("PRIVATE"))
            let published = try #require(JSONValue.object(fromJSON: json))
            guard case .array(let keys)? = published["keys"], case .object(let member)? = keys.first else {
                Issue.record("no keys in \(json)")
                return
            }
            #expect(Set(member.keys) == ["kty", "alg", "use", "kid", "n", "e"])

            // Starting again (a restart) keeps the key; nothing is due.
            #expect(try await replica.keyRing.rotateIfDue() == nil)
            let restarted = fixture.keyRing(replica.store)
            try await restarted.start()
            #expect(await restarted.signingKid(at: now) == kid)
            #expect(try await replica.store.signingKeys().count == 1)
        }
    }

    @Test("the published JWKS and the X.509 certificates both verify the key's signature, and only its own")
    func publishedKeysVerify() async throws {
        try await withKeyRing { replica, fixture in
            let token = try await replica.tokens.mintIDToken(for: makeUser("u1"), signInProvider: "anonymous", authTime: fixture.clock.now)
            let set = try await replica.keyRing.publicKeySet(at: fixture.clock.now)
            #expect(try await jwksVerifier(set).verify(token, as: RawClaims.self).fields["sub"] == .string("u1"))
            #expect(try await certificateVerifier(set).verify(token, as: RawClaims.self).fields["sub"] == .string("u1"))

            // A certificate and a JWK of another ring's key under the same kid do not verify it.
            try await withKeyRing { stranger, _ in
                let foreign = try await stranger.keyRing.publicKeySet(at: fixture.clock.now)
                let kid = try #require(keyID(of: token))
                var swapped = foreign
                swapped.keys = foreign.keys.map {
                    var key = $0
                    key.kid = kid
                    return key
                }
                await #expect(throws: (any Error).self) { try await jwksVerifier(swapped).verify(token, as: RawClaims.self) }
                swapped.certificates = [kid: try #require(foreign.certificates.values.first)]
                await #expect(throws: (any Error).self) { try await certificateVerifier(swapped).verify(token, as: RawClaims.self) }
            }
        }
    }

    @Test(
        "rotation: the successor is published publishLead ahead, signs after it, the old key verifies its tokens until they expire and is then withdrawn"
    )
    func rotation() async throws {
        try await withKeyRing(Self.rotating) { replica, fixture in
            let ring = replica.keyRing
            let tokens = replica.tokens
            let clock = fixture.clock
            let user = makeUser("rotating-user")
            let oldKid = try #require(await ring.signingKid(at: clock.now))

            // Not due until the key has signed for the whole rotation period.
            clock.advance(by: 86_399)
            #expect(try await ring.rotateIfDue() == nil)
            clock.advance(by: 1)
            let rotatedAt = clock.now
            let newKid = try #require(try await ring.rotateIfDue())
            #expect(newKid != oldKid)
            #expect(try await ring.rotateIfDue() == nil, "a successor is already waiting")

            // Stored: the successor activates at +publishLead; the old key retires then and expires a token
            // lifetime (and 5 minutes of skew) later.
            let stored = Dictionary(uniqueKeysWithValues: try await replica.store.signingKeys().map { ($0.kid, $0) })
            let activation = rotatedAt.addingTimeInterval(600)
            #expect(stored[newKid]?.activatesAt == activation)
            #expect(stored[oldKid]?.retiresAt == activation)
            let withdrawal = activation.addingTimeInterval(3_600 + 300)
            #expect(stored[oldKid]?.expiresAt == withdrawal)

            // During the lead: both published, the old key still signs.
            let duringLead = try await ring.publicKeySet(at: clock.now)
            #expect(duringLead.keys.map(\.kid) == [oldKid, newKid])
            #expect(Set(duringLead.certificates.keys) == [oldKid, newKid])
            #expect(await ring.signingKid(at: clock.now) == oldKid)
            clock.set(activation.addingTimeInterval(-1))
            let lastOfOld = try await tokens.mintIDToken(for: user, signInProvider: "anonymous", authTime: clock.now)
            #expect(keyID(of: lastOfOld) == oldKid)

            // At activation the new key signs; a verifier that cached the key set during the lead knows it.
            clock.set(activation)
            #expect(await ring.signingKid(at: clock.now) == newKid)
            #expect(ring.signer(at: clock.now)?.kid == newKid)
            let firstOfNew = try await tokens.mintIDToken(for: user, signInProvider: "anonymous", authTime: clock.now)
            #expect(keyID(of: firstOfNew) == newKid)
            #expect(try await jwksVerifier(duringLead).verify(firstOfNew, as: RawClaims.self).fields["sub"] == .string(user.uid))
            #expect(try await certificateVerifier(duringLead).verify(firstOfNew, as: RawClaims.self).fields["sub"] == .string(user.uid))

            // The old key's last token verifies until its own expiry, the old key still published.
            let lastExpiry = activation.addingTimeInterval(-1 + 3_600)
            clock.set(lastExpiry.addingTimeInterval(-1))
            #expect(try await tokens.verifyIDToken(lastOfOld).userID == user.uid)
            let lateSet = try await ring.publicKeySet(at: clock.now)
            #expect(lateSet.keys.map(\.kid) == [oldKid, newKid])
            #expect(try await jwksVerifier(lateSet).verify(lastOfOld, as: RawClaims.self).fields["sub"] == .string(user.uid))
            clock.set(lastExpiry)
            await expectHearthError(.tokenExpired) { try await tokens.verifyIDToken(lastOfOld) }

            // Published until its expiry instant, then withdrawn and deleted at the next check.
            clock.set(withdrawal.addingTimeInterval(-0.5))
            #expect(await ring.isPublished(kid: oldKid, at: clock.now))
            clock.set(withdrawal)
            #expect(!(await ring.isPublished(kid: oldKid, at: clock.now)))
            #expect(try await ring.publicKeySet(at: clock.now).keys.map(\.kid) == [newKid])
            clock.advance(by: 1)
            #expect(try await ring.rotateIfDue() == nil)
            #expect(try await replica.store.signingKeys().map(\.kid) == [newKid])
            #expect(await ring.publishedKeys(at: clock.now).map(\.kid) == [newKid])
            // A ring started now has never heard of the old key: its tokens are foreign.
            let restarted = fixture.keyRing(replica.store, Self.rotating)
            try await restarted.start()
            await expectHearthError(.invalidIDToken) { try await fixture.tokenService(restarted).verifyIDToken(lastOfOld) }
            let current = try await tokens.mintIDToken(for: user, signInProvider: "anonymous", authTime: clock.now)
            #expect(keyID(of: current) == newKid)
            #expect(try await fixture.tokenService(restarted).verifyIDToken(current).userID == user.uid)
        }
    }

    @Test("replicas on one database use one key, learn a successor another replica made, and agree on the key set")
    func replicas() async throws {
        try await withReplicas(2, Self.rotating) { replicas, fixture in
            let a = replicas[0]
            let b = replicas[1]
            let clock = fixture.clock
            let first = try #require(await a.keyRing.signingKid(at: clock.now))
            #expect(await b.keyRing.signingKid(at: clock.now) == first)
            #expect(try await a.store.signingKeys().count == 1)
            #expect(try await a.keyRing.publicKeySet(at: clock.now) == b.keyRing.publicKeySet(at: clock.now))

            let user = makeUser("replicated", email: "ada@example.com")
            let fromA = try await a.tokens.mintIDToken(for: user, signInProvider: "password", authTime: clock.now)
            let fromB = try await b.tokens.mintIDToken(for: user, signInProvider: "password", authTime: clock.now)
            #expect(try await b.tokens.verifyIDToken(fromA).userID == user.uid)
            #expect(try await a.tokens.verifyIDToken(fromB).userID == user.uid)

            // A rotates; B has not looked yet and a later check of B's makes no second successor.
            clock.advance(by: 86_400)
            let successor = try #require(try await a.keyRing.rotateIfDue())
            clock.advance(by: 600)
            let signedBySuccessor = try await a.tokens.mintIDToken(for: user, signInProvider: "password", authTime: clock.now)
            #expect(keyID(of: signedBySuccessor) == successor)
            // B learns the key from the token that names it.
            #expect(try await b.tokens.verifyIDToken(signedBySuccessor).userID == user.uid)
            #expect(try await b.keyRing.rotateIfDue() == nil)
            #expect(try await a.store.signingKeys().count == 2)
            #expect(await b.keyRing.signingKid(at: clock.now) == successor)
            #expect(try await a.keyRing.publicKeySet(at: clock.now) == b.keyRing.publicKeySet(at: clock.now))
        }
    }

    @Test("an unknown kid reloads the key set at most once a second; a ring with no key signs nothing")
    func learnAndNoKey() async throws {
        try await withReplicas(2, Self.rotating) { replicas, fixture in
            let a = replicas[0]
            let b = replicas[1]
            let clock = fixture.clock
            clock.advance(by: 86_400)
            #expect(!(await b.keyRing.learn(kid: String(repeating: "f", count: 40))))
            // Made by A after B last looked.
            let successor = try #require(try await a.keyRing.rotateIfDue())
            #expect(!(await b.keyRing.isPublished(kid: successor, at: clock.now)))
            // Within the same second a second unknown kid does not reach the store, even a real one.
            #expect(!(await b.keyRing.learn(kid: successor)))
            #expect(!(await b.keyRing.isPublished(kid: successor, at: clock.now)))
            clock.advance(by: 1)
            #expect(await b.keyRing.learn(kid: successor))
            #expect(await b.keyRing.isPublished(kid: successor, at: clock.now))
            // Known kids need no reload.
            #expect(await b.keyRing.learn(kid: successor))
        }

        let fixture = TokenFixture()
        defer { fixture.removeFiles() }
        let store = try await fixture.openStore()
        do {
            let unstarted = fixture.keyRing(store)
            #expect(unstarted.signer(at: fixture.clock.now) == nil)
            #expect(await unstarted.signingKid(at: fixture.clock.now) == nil)
            #expect(try await unstarted.publicKeySet(at: fixture.clock.now).keys.isEmpty)
            let tokens = fixture.tokenService(unstarted)
            await expectHearthError(.internalError, reason: "no signing key is active") {
                try await tokens.mintIDToken(for: makeUser("u"), signInProvider: "anonymous", authTime: fixture.clock.now)
            }
            await expectHearthError(.internalError, reason: "no signing key is active") {
                try await tokens.mintPendingToken(for: FederatedProfile(providerID: "google.com", rawID: "1"))
            }
        } catch {
            try? await store.close()
            throw error
        }
        try await store.close()
    }

    @Test("replicas racing: two rings starting together on an empty database make one key; two due checks make one successor")
    func racingReplicas() async throws {
        let fixture = TokenFixture()
        defer { fixture.removeFiles() }
        let storeA = try await fixture.openStore()
        let storeB = try await fixture.openStore()
        do {
            let a = fixture.keyRing(storeA, Self.rotating)
            let b = fixture.keyRing(storeB, Self.rotating)
            async let startA: Void = a.start()
            async let startB: Void = b.start()
            _ = try await (startA, startB)
            #expect(try await storeA.signingKeys().count == 1)
            try await a.reload()
            try await b.reload()
            let now = fixture.clock.now
            #expect(await a.signingKid(at: now) != nil)
            #expect(await a.signingKid(at: now) == b.signingKid(at: now))

            fixture.clock.advance(by: 86_400)
            async let rotatedA = a.rotateIfDue()
            async let rotatedB = b.rotateIfDue()
            let made = try await [rotatedA, rotatedB].compactMap { $0 }
            #expect(made.count == 1)
            let kids = Set(try await storeA.signingKeys().map(\.kid))
            #expect(kids.count == 2)
            #expect(kids.contains(made[0]))
            try await a.reload()
            try await b.reload()
            let later = fixture.clock.now.addingTimeInterval(600)
            #expect(await a.signingKid(at: later) == made.first)
            #expect(await b.signingKid(at: later) == made.first)
        } catch {
            try? await storeA.close()
            try? await storeB.close()
            throw error
        }
        try await storeA.close()
        try await storeB.close()
    }

    @Test("a ring on a sealed store signs with the key it reads back; without the key-encryption key it cannot start")
    func sealedStore() async throws {
        let fixture = TokenFixture()
        defer { fixture.removeFiles() }
        let sealer = SecretSealer(key: KeyEncryptionKey.generate())
        let sealed = try await fixture.openStore(sealer: sealer)
        do {
            let ring = fixture.keyRing(sealed)
            try await ring.start()
            let kid = try #require(await ring.signingKid(at: fixture.clock.now))
            let token = try await fixture.tokenService(ring).mintIDToken(
                for: makeUser("sealed"), signInProvider: "anonymous", authTime: fixture.clock.now)

            let again = try await fixture.openStore(sealer: sealer)
            let second = fixture.keyRing(again)
            try await second.start()
            #expect(await second.signingKid(at: fixture.clock.now) == kid)
            #expect(try await fixture.tokenService(second).verifyIDToken(token).userID == "sealed")
            try await again.close()

            let unsealed = try await fixture.openStore(sealer: nil)
            await #expect(throws: SecretSealerError.self) { try await fixture.keyRing(unsealed).start() }
            try await unsealed.close()
        } catch {
            try? await sealed.close()
            throw error
        }
        try await sealed.close()
    }

    @Test("KeyRotationService makes the successor once it is due and stops when cancelled", .timeLimit(.minutes(3)))
    func rotationService() async throws {
        try await withKeyRing(Self.rotating) { replica, fixture in
            fixture.clock.advance(by: 86_400)
            let service = KeyRotationService(keyRing: replica.keyRing, checkEvery: .milliseconds(5), logger: tokensLogger)
            let running = Task { try await service.run() }
            // No deadline here: the suite's time limit ends a ring that never rotates.
            // The ring writes the successor, then publishes it: wait for both (a loaded machine can stop between them).
            while true {
                let stored = try await replica.store.signingKeys().count
                let published = await replica.keyRing.publishedKeys(at: fixture.clock.now).count
                if stored >= 2, published >= 2 { break }
                try await Task.sleep(for: .milliseconds(5))
            }
            running.cancel()
            try await running.value
            #expect(try await replica.store.signingKeys().count == 2)
            #expect(await replica.keyRing.publishedKeys(at: fixture.clock.now).count == 2)
        }
    }
}
