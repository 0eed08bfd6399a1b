import Crypto
import CryptoExtras
import Foundation
import HearthBase64URL
import HearthTesting
import HearthTokens
import Testing

@testable import HearthAdmin

/// `verifyIDToken` against a live server: what it accepts, and every refusal with its Admin SDK code.
@Suite("HearthAdmin: verifying ID tokens")
struct VerificationTests {
    /// Signs `payload` with the live server's current signing key (or `key`), under `kid` (the key's own by default).
    static func forge(
        _ live: LiveHearth, header: [String: ClaimValue]? = nil, payload: [String: ClaimValue], key: _RSA.Signing.PrivateKey? = nil
    ) throws -> String {
        let signer = try #require(live.services.keyRing.signer(at: live.clock.now))
        let input = encodeSegment(header ?? ["alg": "RS256", "kid": .string(signer.kid), "typ": "JWT"]) + "." + encodeSegment(payload)
        if let key {
            let signature = try key.signature(for: SHA256.hash(data: Data(input.utf8)), padding: .insecurePKCS1v1_5)
            return input + "." + Base64URL.encode(signature.rawRepresentation)
        }
        return try signer.key.jws(signingInput: input)
    }

    @Test("a fresh ID token verifies: uid, sign-in provider, e-mail and the token's claims")
    func accepts() async throws {
        try await withLiveHearth { live in
            let ada = try await signUp(live, email: "ada@example.com")
            let admin = try makeAdmin(live)
            let token = try await admin.verifyIDToken(ada.idToken)
            #expect(token.uid == ada.uid)
            #expect(token.email == "ada@example.com")
            #expect(token.emailVerified == false)
            #expect(token.claims["email_verified"] == .bool(false))
            #expect(token.claims["firebase"]?.objectValue?["identities"]?.objectValue?["email"] == .array(["ada@example.com"]))
            #expect(token.signInProvider == "password")
            #expect(token.issuer == "https://securetoken.google.com/\(live.projectID)")
            #expect(token.customClaims.isEmpty)
            // Verified again from the cached keys.
            #expect(try await admin.verifyIDToken(ada.idToken).uid == ada.uid)
        }
    }

    @Test("expired (an injected clock past exp), issued in the future, another project's audience, another issuer")
    func timeAndAudience() async throws {
        try await withLiveHearth { live in
            let ada = try await signUp(live, email: "ada@example.com")
            let clock = OffsetClock(live.clock)
            let admin = try makeAdmin(live, clock: clock)
            clock.set(3_600 + 59)
            #expect(try await admin.verifyIDToken(ada.idToken).uid == ada.uid, "within the clock skew")
            clock.set(3_600 + 61)
            #expect(await adminError { _ = try await admin.verifyIDToken(ada.idToken) } == .idTokenExpired)
            clock.set(-3_600)
            #expect(await adminError { _ = try await admin.verifyIDToken(ada.idToken) } == .argumentError)
            clock.set(0)
            let otherProject = try makeAdmin(live, projectID: "another-project")
            #expect(await adminError { _ = try await otherProject.verifyIDToken(ada.idToken) } == .argumentError)
            let otherIssuer = try makeAdmin(live, idTokenIssuer: "https://auth.example.com")
            #expect(await adminError { _ = try await otherIssuer.verifyIDToken(ada.idToken) } == .argumentError)
        }
    }

    @Test("bad signature, alg none, unknown kid, another key under the real kid, malformed claims: auth/argument-error")
    func forgeries() async throws {
        try await withLiveHearth { live in
            let ada = try await signUp(live, email: "ada@example.com")
            let admin = try makeAdmin(live)
            let (header, payload, signature) = jwtParts(ada.idToken)
            func refused(_ token: String, sourceLocation: SourceLocation = #_sourceLocation) async {
                #expect(await adminError { _ = try await admin.verifyIDToken(token) } == .argumentError, sourceLocation: sourceLocation)
            }
            // Another subject under the original signature; a flipped signature.
            var other = payload
            other["sub"] = "someone-else"
            other["user_id"] = "someone-else"
            await refused(encodeSegment(header) + "." + encodeSegment(other) + "." + signature)
            var flipped = Array(signature)
            flipped[10] = flipped[10] == "A" ? "B" : "A"
            await refused(encodeSegment(header) + "." + encodeSegment(payload) + "." + String(flipped))
            // alg none, with and without the signature; HS256 keyed with nothing public.
            var none = header
            none["alg"] = "none"
            await refused(encodeSegment(none) + "." + encodeSegment(other) + ".")
            await refused(encodeSegment(none) + "." + encodeSegment(other) + "." + signature)
            var hmac = header
            hmac["alg"] = "HS256"
            await refused(encodeSegment(hmac) + "." + encodeSegment(payload) + "." + signature)
            // A key of the attacker's, under an unknown kid and under the server's kid.
            let attacker = try _RSA.Signing.PrivateKey(keySize: .bits2048)
            await refused(try Self.forge(live, header: ["alg": "RS256", "kid": "attacker"], payload: other, key: attacker))
            await refused(try Self.forge(live, payload: other, key: attacker))
            // No kid; garbage; empty; oversized.
            var noKid = header
            noKid["kid"] = nil
            await refused(encodeSegment(noKid) + "." + encodeSegment(payload) + "." + signature)
            for garbage in ["", "a.b.c", "not a token", String(repeating: "a", count: 100_000), ada.idToken + ".x", "\u{0}.\u{0}.\u{0}"] {
                await refused(garbage)
            }
            // Signed by the server's own key, with claims it never issues.
            var emptySubject = payload
            emptySubject["sub"] = ""
            await refused(try Self.forge(live, payload: emptySubject))
            var longSubject = payload
            longSubject["sub"] = .string(String(repeating: "x", count: 129))
            await refused(try Self.forge(live, payload: longSubject))
            var futureSignIn = payload
            futureSignIn["auth_time"] = .number(live.clock.now.timeIntervalSince1970 + 3_600)
            await refused(try Self.forge(live, payload: futureSignIn))
            var noExpiry = payload
            noExpiry["exp"] = nil
            await refused(try Self.forge(live, payload: noExpiry))
            var numericSubject = payload
            numericSubject["sub"] = 42
            await refused(try Self.forge(live, payload: numericSubject))
            // The genuine token still verifies.
            #expect(try await admin.verifyIDToken(ada.idToken).uid == ada.uid)
            #expect(try await admin.verifyIDToken(try Self.forge(live, payload: payload)).uid == ada.uid)
        }
    }

    @Test("a flood of tokens with made-up kids fetches the keys once per interval, not once per token")
    func kidFlood() async throws {
        try await withLiveHearth { live in
            let ada = try await signUp(live, email: "ada@example.com")
            let clock = OffsetClock(live.clock)
            let admin = try makeAdmin(live, clock: clock)
            #expect(try await admin.verifyIDToken(ada.idToken).uid == ada.uid)
            let (_, payload, _) = jwtParts(ada.idToken)
            let attacker = try _RSA.Signing.PrivateKey(keySize: .bits2048)
            let forged = try (0..<40).map { index in
                try Self.forge(live, header: ["alg": "RS256", "kid": .string("made-up-\(index)")], payload: payload, key: attacker)
            }
            try await withThrowingTaskGroup(of: HearthAdminError.Code?.self) { group in
                for token in forged { group.addTask { await adminError { _ = try await admin.verifyIDToken(token) } } }
                for try await code in group { #expect(code == .argumentError) }
            }
            let afterFlood = await admin.keyFetchCount(idTokens: true)
            #expect(afterFlood <= 2, "fetched \(afterFlood) times")
            for token in forged.prefix(10) {
                #expect(await adminError { _ = try await admin.verifyIDToken(token) } == .argumentError)
            }
            #expect(await admin.keyFetchCount(idTokens: true) == afterFlood)
            // Once the interval has passed, one more fetch for an unknown kid.
            clock.set(11)
            #expect(await adminError { _ = try await admin.verifyIDToken(forged[0]) } == .argumentError)
            #expect(await admin.keyFetchCount(idTokens: true) == afterFlood + 1)
            #expect(try await admin.verifyIDToken(ada.idToken).uid == ada.uid)
        }
    }
}
