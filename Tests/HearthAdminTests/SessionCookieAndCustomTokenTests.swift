import Crypto
import CryptoExtras
import Foundation
import HearthAdmin
import HearthBase64URL
import HearthTesting
import Testing

@Suite("HearthAdmin: session cookies and custom tokens")
struct SessionCookieAndCustomTokenTests {
    @Test("createSessionCookie → verifySessionCookie; cookies and ID tokens are not interchangeable; expiry and duration errors")
    func sessionCookies() async throws {
        try await withLiveHearth { live in
            let ada = try await signUp(live, email: "ada@example.com")
            let clock = OffsetClock(live.clock)
            let admin = try makeAdmin(live, clock: clock)
            let cookie = try await admin.createSessionCookie(idToken: ada.idToken, expiresIn: 86_400)
            let verified = try await admin.verifySessionCookie(cookie)
            #expect(verified.uid == ada.uid)
            #expect(verified.issuer == "https://session.firebase.google.com/\(live.projectID)")
            #expect(verified.email == "ada@example.com")
            #expect(verified.expiresAt.timeIntervalSince(verified.issuedAt) == 86_400)

            #expect(await adminError { _ = try await admin.verifyIDToken(cookie) } == .argumentError)
            #expect(await adminError { _ = try await admin.verifySessionCookie(ada.idToken) } == .argumentError)
            for seconds in [299.0, 1_209_601] {
                #expect(
                    await adminError { _ = try await admin.createSessionCookie(idToken: ada.idToken, expiresIn: seconds) }
                        == .invalidSessionCookieDuration)
            }
            #expect(await adminError { _ = try await admin.createSessionCookie(idToken: "not-a-token", expiresIn: 3_600) } == .invalidIDToken)

            // Outlives the ID token it was made from, then expires itself.
            clock.set(7_200)
            #expect(try await admin.verifySessionCookie(cookie).uid == ada.uid)
            #expect(await adminError { _ = try await admin.verifyIDToken(ada.idToken) } == .idTokenExpired)
            clock.set(86_400 + 61)
            #expect(await adminError { _ = try await admin.verifySessionCookie(cookie) } == .sessionCookieExpired)
        }
    }

    @Test("with Bearer owner a custom token is unsigned, as the Admin SDKs make them for an emulator; development mode signs it in with its claims")
    func emulatorCustomToken() async throws {
        try await withLiveHearth { live in
            let admin = try makeAdmin(live)
            let token = try admin.createCustomToken(uid: "backend-user-1", claims: ["role": "admin", "level": 3])
            let (header, payload, signature) = jwtParts(token)
            #expect(header["alg"] == "none")
            #expect(signature.isEmpty)
            #expect(payload["aud"] == .string(HearthAdmin.customTokenAudience))
            #expect(payload["uid"] == "backend-user-1")
            let signedIn = try await post(live, "/v1/accounts:signInWithCustomToken", ["token": .string(token), "returnSecureToken": true])
            #expect(signedIn.status == 200, "\(signedIn.json)")
            let idToken = try #require(signedIn.json["idToken"]?.stringValue)
            let verified = try await admin.verifyIDToken(idToken)
            #expect(verified.uid == "backend-user-1")
            #expect(verified.signInProvider == "custom")
            #expect(verified.customClaims == ["role": "admin", "level": 3])

            for name in ["sub", "iss", "exp", "firebase", "auth_time", "nonce"] {
                #expect(await adminError { _ = try admin.createCustomToken(uid: "u", claims: [name: "x"]) } == .reservedClaim, "\(name)")
            }
            #expect(await adminError { _ = try admin.createCustomToken(uid: "") } == .invalidUID)
            #expect(await adminError { _ = try admin.createCustomToken(uid: String(repeating: "u", count: 129)) } == .invalidUID)
            #expect(
                await adminError { _ = try admin.createCustomToken(uid: "u", claims: ["big": .string(String(repeating: "x", count: 1_000))]) }
                    == .claimsTooLarge)
            let bearer = try makeAdmin(live, credential: .bearer("some-admin-token-0123456789"))
            #expect(await adminError { _ = try bearer.createCustomToken(uid: "u") } == .invalidCredential)
        }
    }

    @Test("with a service-account key a custom token is signed RS256 (iss = sub = client_email) and a server that knows the key signs it in")
    func serviceAccountCustomToken() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-admin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let publicKeyFile = directory.appendingPathComponent("backend.pub.pem")
        try key.publicKey.pemRepresentation.write(to: publicKeyFile, atomically: true, encoding: .utf8)
        let email = "backend@demo-hearth.iam.gserviceaccount.com"
        let accountFile = try writeServiceAccount(key: key, email: email, tokenURI: "http://127.0.0.1:1/token", in: directory)

        try await withLiveHearth({ configuration in
            configuration.customTokenKeyFiles = [publicKeyFile.path]
            configuration.customTokenServiceAccounts = [email]
        }) { live in
            let admin = try makeAdmin(live, credential: .serviceAccount(file: accountFile))
            let token = try admin.createCustomToken(uid: "signed-user", claims: ["plan": "pro"])
            let (header, payload, _) = jwtParts(token)
            #expect(header["alg"] == "RS256")
            #expect(header["kid"] == "test-key-1")
            #expect(payload["iss"] == .string(email))
            #expect(payload["sub"] == .string(email))
            if case .number(let iat)? = payload["iat"], case .number(let exp)? = payload["exp"] {
                #expect(exp - iat == 3_600)
            } else {
                Issue.record("iat and exp are numbers")
            }
            let signedIn = try await post(live, "/v1/accounts:signInWithCustomToken", ["token": .string(token), "returnSecureToken": true])
            #expect(signedIn.status == 200, "\(signedIn.json)")
            let verified = try await admin.verifyIDToken(try #require(signedIn.json["idToken"]?.stringValue))
            #expect(verified.uid == "signed-user")
            #expect(verified.customClaims["plan"] == "pro")
        }
    }

    @Test("a service-account file that is not one is refused with auth/invalid-credential")
    func badServiceAccountFiles() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-admin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = URL(string: "http://127.0.0.1:1")!
        for (name, text) in [
            ("missing.json", nil), ("empty.json", ""), ("array.json", "[]"), ("nokey.json", #"{"client_email":"a@b","token_uri":"http://x/t"}"#),
            (
                "badkey.json",
                #"{"client_email":"a@b","private_key":"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n","token_uri":"http://x/t"}"#
            ),
        ] as [(String, String?)] {
            let file = directory.appendingPathComponent(name)
            if let text { try text.write(to: file, atomically: true, encoding: .utf8) }
            #expect(
                await adminError { _ = try HearthAdmin(projectID: "p", server: server, credential: .serviceAccount(file: file)) }
                    == .invalidCredential,
                "\(name)")
        }
    }
}

/// Writes a service-account JSON key file in Google's format and returns its URL.
func writeServiceAccount(key: _RSA.Signing.PrivateKey, email: String, tokenURI: String, in directory: URL) throws -> URL {
    let file = directory.appendingPathComponent("service-account.json")
    let json: [String: String] = [
        "type": "service_account", "project_id": "demo-hearth", "private_key_id": "test-key-1", "private_key": key.pemRepresentation,
        "client_email": email, "token_uri": tokenURI,
    ]
    try JSONEncoder().encode(json).write(to: file)
    return file
}
