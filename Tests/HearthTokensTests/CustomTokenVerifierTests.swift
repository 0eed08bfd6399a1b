import Crypto
import CryptoExtras
import Foundation
import HearthCore
import HearthTokens
import Testing

/// Custom tokens as a backend's Admin SDK makes them, and each defect refused with its exact error.
@Suite("CustomTokenVerifier")
struct CustomTokenVerifierTests {
    static let account = "backend@hearth-prod.iam.gserviceaccount.com"
    static let key = try! _RSA.Signing.PrivateKey(keySize: .bits2048)
    static let otherKey = try! _RSA.Signing.PrivateKey(keySize: .bits2048)
    static let now = Date(timeIntervalSince1970: 1_800_000_000.5)
    static let badUID = "((The uid must be a non-empty string of at most 128 printable characters.))"

    /// Production: RS256 only, from ``key`` for ``account``.
    static func production() throws -> CustomTokenVerifier {
        CustomTokenVerifier(signers: [try .init(publicKeyPEM: key.publicKey.pemRepresentation, serviceAccount: account)], acceptsUnsigned: false)
    }

    /// Development: also `alg: none` and bare JSON, as the Admin SDKs send them to an emulator.
    static let development = CustomTokenVerifier(signers: [], acceptsUnsigned: true)

    /// The claims an Admin SDK writes, `fields` added or replacing them (`.null` removes one).
    static func payload(_ fields: [String: JSONValue] = [:], uid: String = "backend-user", iat: Double? = nil, lifetime: Double = 3_600) -> [String:
        JSONValue]
    {
        let issuedAt = iat ?? now.timeIntervalSince1970.rounded(.down)
        var payload: [String: JSONValue] = [
            "aud": .string(CustomTokenVerifier.audience), "iss": .string(account), "sub": .string(account), "uid": .string(uid),
            "iat": .number(issuedAt), "exp": .number(issuedAt + lifetime),
        ]
        for (name, value) in fields { payload[name] = value == .null ? nil : value }
        return payload
    }

    static func signed(_ payload: [String: JSONValue], key: _RSA.Signing.PrivateKey = key, header: String = #"{"alg":"RS256","typ":"JWT"}"#) throws
        -> String
    {
        let input = base64URLEncode(Data(header.utf8)) + "." + base64URLEncode(Data(JSONValue.object(payload).jsonText.utf8))
        let signature = try key.signature(for: Data(input.utf8), padding: .insecurePKCS1v1_5)
        return input + "." + base64URLEncode(signature.rawRepresentation)
    }

    static func unsigned(_ payload: [String: JSONValue]) -> String {
        base64URLEncode(Data(#"{"alg":"none","typ":"JWT"}"#.utf8)) + "." + base64URLEncode(Data(JSONValue.object(payload).jsonText.utf8)) + "."
    }

    static func refuse(
        _ verifier: CustomTokenVerifier, _ token: String, _ code: HearthError.Code = .invalidCustomToken, detail: String? = nil,
        reason: String? = nil, at time: Date = now, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        await expectHearthError(code, detail: detail, reason: reason, sourceLocation: sourceLocation) { try verifier.verify(token, now: time) }
    }

    @Test("an RS256 token of the configured key and service account gives its uid and claims")
    func signedToken() throws {
        let verifier = try Self.production()
        let claims: JSONValue = .object(["role": .string("admin"), "level": .number(3)])
        let verified = try verifier.verify(try Self.signed(Self.payload(["claims": claims])), now: Self.now)
        #expect(verified.uid == "backend-user")
        #expect(verified.claims == ["role": .string("admin"), "level": .number(3)])
        #expect(try verifier.verify(try Self.signed(Self.payload(["claims": .null])), now: Self.now).claims == [:])
        // A signer for any service account accepts every issuer it signed for.
        let anyAccount = CustomTokenVerifier(
            signers: [try .init(publicKeyPEM: Self.key.publicKey.pemRepresentation, serviceAccount: nil)], acceptsUnsigned: false)
        let elsewhere = Self.payload(["iss": .string("other@x.iam.gserviceaccount.com"), "sub": .string("other@x.iam.gserviceaccount.com")])
        #expect(try anyAccount.verify(try Self.signed(elsewhere), now: Self.now).uid == "backend-user")
    }

    @Test("time: expired past the skew, issued in the future past the skew, or valid for more than an hour")
    func timeDefects() async throws {
        let verifier = try Self.production()
        let t = Self.now.timeIntervalSince1970.rounded(.down)
        // Expired: exp must be later than now minus 5 minutes.
        await Self.refuse(verifier, try Self.signed(Self.payload(iat: t - 3_900)), reason: "expired")
        _ = try verifier.verify(try Self.signed(Self.payload(iat: t - 3_899)), now: Self.now)
        // From the future: iat at most 5 minutes ahead.
        await Self.refuse(verifier, try Self.signed(Self.payload(iat: t + 301)), reason: "issued in the future")
        _ = try verifier.verify(try Self.signed(Self.payload(iat: t + 300)), now: Self.now)
        // Longer than an hour.
        await Self.refuse(verifier, try Self.signed(Self.payload(lifetime: 3_601)), reason: "valid for more than an hour")
        await Self.refuse(verifier, try Self.signed(Self.payload(iat: -1e300, lifetime: 2e300)), reason: "valid for more than an hour")
        // Missing or not numbers.
        await Self.refuse(verifier, try Self.signed(Self.payload(["iat": .null])), reason: "iat and exp are required")
        await Self.refuse(verifier, try Self.signed(Self.payload(["exp": .string("\(t + 60)")])), reason: "iat and exp are required")
    }

    @Test("audience, signer and format: wrong aud, other key, other service account, iss ≠ sub, tampered, alg none or HS256, not a JWT")
    func signatureAndFormatDefects() async throws {
        let verifier = try Self.production()
        let aud = "((Invalid aud (audience): \"https://example.com\" Note: Firebase ID Tokens can be verified with the Admin SDK.))"
        await Self.refuse(verifier, try Self.signed(Self.payload(["aud": .string("https://example.com")])), detail: aud, reason: "wrong aud")
        await Self.refuse(
            verifier, try Self.signed(Self.payload(["aud": .null])),
            detail: "((Invalid aud (audience): none Note: Firebase ID Tokens can be verified with the Admin SDK.))", reason: "wrong aud")
        await Self.refuse(
            verifier, try Self.signed(Self.payload(["aud": .string(String(repeating: "a", count: 1_000))])),
            detail:
                "((Invalid aud (audience): \"\(String(repeating: "a", count: 199)) Note: Firebase ID Tokens can be verified with the Admin SDK.))",
            reason: "wrong aud")

        await Self.refuse(verifier, try Self.signed(Self.payload(), key: Self.otherKey), reason: "bad signature")
        let stranger = "someone@else.iam.gserviceaccount.com"
        await Self.refuse(
            verifier, try Self.signed(Self.payload(["iss": .string(stranger), "sub": .string(stranger)])),
            reason: "no custom-token key is configured for \(stranger)")
        await Self.refuse(
            verifier, try Self.signed(Self.payload(["sub": .string("x@y.z")])), reason: "iss and sub must both name the service account")
        await Self.refuse(
            verifier, try Self.signed(Self.payload(["iss": .null, "sub": .null])), reason: "iss and sub must both name the service account")
        // A genuine signature over another uid.
        let genuine = try Self.signed(Self.payload(uid: "victim"))
        await Self.refuse(verifier, withPayload(genuine, Self.payload(uid: "attacker")), reason: "bad signature")
        await Self.refuse(verifier, String(genuine.dropLast(4)) + "AAAA", reason: "bad signature")
        await Self.refuse(verifier, String(genuine[..<genuine.lastIndex(of: ".")!]) + ".%%%", reason: "signature is not base64url")

        // Unsigned only in development mode.
        await Self.refuse(verifier, Self.unsigned(Self.payload()), reason: "an unsigned custom token outside development mode")
        await Self.refuse(verifier, try Self.signed(Self.payload(), header: #"{"alg":"HS256","typ":"JWT"}"#), reason: "unsupported alg \"HS256\"")
        await Self.refuse(verifier, try Self.signed(Self.payload(), header: #"{"typ":"JWT"}"#), reason: "unsupported alg none")
        await Self.refuse(verifier, try Self.signed(Self.payload(), header: #"{"alg":"NONE","typ":"JWT"}"#), reason: "unsupported alg \"NONE\"")
        await Self.refuse(
            verifier, #"{"uid":"backend-user"}"#, detail: "Invalid assertion format", reason: "a bare JSON custom token outside development mode")

        for malformed in ["", "not.a.token", "a.b", "a.b.c.d", genuine + ".", "e30.W10.", "W10.e30."] {
            await Self.refuse(verifier, malformed, detail: "Invalid assertion format", reason: "not a JWT")
        }
    }

    @Test("development accepts alg none and bare JSON; a bare JSON that does not parse is named")
    func unsignedInDevelopment() async throws {
        let verifier = Self.development
        #expect(try verifier.verify(Self.unsigned(Self.payload(uid: "dev-user")), now: Self.now).uid == "dev-user")
        let bare = try verifier.verify(#"{"uid":"bare","claims":{"role":"x"}}"#, now: Self.now)
        #expect(bare.uid == "bare" && bare.claims == ["role": .string("x")])
        await Self.refuse(verifier, "{not json", detail: "((Unable to parse the custom token as JSON.))", reason: "bad JSON")
        // The audience is checked even unsigned; RS256 needs a configured key all the same.
        await Self.refuse(
            verifier, Self.unsigned(Self.payload(["aud": .string("x")])),
            detail: "((Invalid aud (audience): \"x\" Note: Firebase ID Tokens can be verified with the Admin SDK.))")
        await Self.refuse(verifier, try Self.signed(Self.payload()), reason: "no custom-token key is configured for \(Self.account)")
    }

    @Test("uid rules: present, 1 to 128 bytes, printable; numbers and booleans are written out; user_id is the fallback")
    func uidRules() async throws {
        let verifier = Self.development
        func uid(_ value: JSONValue?) -> String {
            var payload = Self.payload()
            payload["uid"] = value
            return Self.unsigned(payload)
        }
        await Self.refuse(verifier, uid(nil), .missingIdentifier)
        await Self.refuse(verifier, uid(.null), .missingIdentifier)
        await Self.refuse(verifier, uid(.array([.string("a")])), .missingIdentifier)
        #expect(try verifier.verify(uid(.number(42)), now: Self.now).uid == "42")
        #expect(try verifier.verify(uid(.number(1.5)), now: Self.now).uid == "1.5")
        #expect(try verifier.verify(uid(.bool(true)), now: Self.now).uid == "true")
        var fallback = Self.payload()
        fallback["uid"] = nil
        fallback["user_id"] = .string("from-user-id")
        #expect(try verifier.verify(Self.unsigned(fallback), now: Self.now).uid == "from-user-id")

        let longest = String(repeating: "u", count: 128)
        #expect(try verifier.verify(uid(.string(longest)), now: Self.now).uid == longest)
        #expect(try verifier.verify(uid(.string("ünïcødé-ok")), now: Self.now).uid == "ünïcødé-ok")
        for bad in [
            "", longest + "u", "a\u{0}b", "\u{0}", "tab\there", "line\nbreak", "del\u{7F}", "c1\u{85}", "zero\u{200B}width", "rtl\u{202E}",
            String(repeating: "é", count: 65),
        ] {
            await Self.refuse(verifier, uid(.string(bad)), detail: Self.badUID, reason: "bad uid")
        }
        // Signed tokens follow the same rules; bare JSON too.
        await Self.refuse(try Self.production(), try Self.signed(Self.payload(uid: "a\u{0}b")), detail: Self.badUID, reason: "bad uid")
        await Self.refuse(verifier, #"{"uid":"a\u0000b"}"#, detail: Self.badUID, reason: "bad uid")
    }

    @Test("claims: an object of at most 1,000 bytes without reserved names")
    func claimsRules() async throws {
        let verifier = Self.development
        func claims(_ value: JSONValue) -> String { Self.unsigned(Self.payload(["claims": value])) }
        await Self.refuse(verifier, claims(.string("admin")), .invalidClaims)
        await Self.refuse(verifier, claims(.array([])), .invalidClaims)
        await Self.refuse(verifier, claims(.number(1)), .invalidClaims)
        for name in IDTokenClaims.reservedNames.sorted() {
            await Self.refuse(verifier, claims(.object([name: .string("x"), "role": .string("admin")])), .forbiddenClaim, detail: name)
        }
        // The first reserved name in order is named.
        await Self.refuse(verifier, claims(.object(["sub": .string("x"), "email": .string("x")])), .forbiddenClaim, detail: "email")

        // {"blob":"…"} is 11 bytes around the string.
        let fits = JSONValue.object(["blob": .string(String(repeating: "x", count: 989))])
        #expect(fits.jsonText.utf8.count == 1_000)
        #expect(try verifier.verify(claims(fits), now: Self.now).claims == ["blob": .string(String(repeating: "x", count: 989))])
        await Self.refuse(verifier, claims(.object(["blob": .string(String(repeating: "x", count: 990))])), .claimsTooLarge)
        // Reserved is reported before size.
        await Self.refuse(verifier, claims(.object(["email": .string(String(repeating: "x", count: 2_000))])), .forbiddenClaim, detail: "email")
        // Signed tokens follow the same rules.
        await Self.refuse(
            try Self.production(), try Self.signed(Self.payload(["claims": .object(["iss": .string("x")])])), .forbiddenClaim, detail: "iss")
    }
}
