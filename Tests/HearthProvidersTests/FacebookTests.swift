import Crypto
import Foundation
import HearthCore
import Testing

@testable import HearthProviders

@Suite("facebook.com")
struct FacebookTests {
    static let me: [String: JSONValue] = [
        "id": "10158497624517245", "name": "Ada Lovelace", "first_name": "Ada", "last_name": "Lovelace", "email": "Ada@Example.com",
        "picture": .object(["data": .object(["height": 50, "is_silhouette": false, "url": "https://scontent.xx.fbcdn.net/p.jpg", "width": 50])]),
        "birthday": "12/10/1815",
    ]

    func setUp(_ environment: FakeEnvironment) {
        environment.state.update {
            $0.facebookTokens["EAAGood"] = .init(appID: "fb-app", userID: "10158497624517245", expiresAt: environment.now + 3600, me: Self.me)
            $0.facebookTokens["EAAOther"] = .init(appID: "another-app", userID: "10158497624517245", me: Self.me)
            $0.facebookTokens["EAAInvalid"] = .init(appID: "fb-app", userID: "10158497624517245", isValid: false, me: Self.me)
            $0.facebookTokens["EAAExpired"] = .init(appID: "fb-app", userID: "10158497624517245", expiresAt: environment.now - 10, me: Self.me)
        }
    }

    @Test("appsecret_proof is the hex HMAC-SHA256 of the token keyed by the app secret")
    func proof() {
        let expected = HMAC<SHA256>.authenticationCode(for: Data("EAAGood".utf8), using: SymmetricKey(data: Data("fb-secret".utf8)))
            .map { String(format: "%02x", $0) }.joined()
        #expect(FacebookAccessTokenVerifier.appSecretProof("EAAGood", secret: "fb-secret") == expected)
        #expect(expected.count == 64)
    }

    @Test("classic login: debug_token for this app, then /me with appsecret_proof; email unverified; Graph photo URL")
    func classic() async throws {
        try await FakeEnvironment.run { environment in
            setUp(environment)
            let profile = try await environment.registry().verify(.init(providerID: "facebook.com", accessToken: "EAAGood"))
            #expect(profile.rawID == "10158497624517245")
            #expect(profile.displayName == "Ada Lovelace")
            #expect(profile.firstName == "Ada")
            #expect(profile.email == "ada@example.com")
            #expect(!profile.emailVerified)
            #expect(profile.photoURL == environment.base + "/fb/10158497624517245/picture")
            #expect(profile.rawUserInfo["picture"] != nil)
            #expect(profile.rawUserInfo["birthday"] == nil)  // only the requested fields
            #expect(environment.state.fetchCount("/fb/v24.0/debug_token") == 1)
            #expect(environment.state.fetchCount("/fb/v24.0/me") == 1)
        }
    }

    @Test("a token for another app, an invalid token and an expired token are rejected before /me")
    func rejected() async throws {
        try await FakeEnvironment.run { environment in
            setUp(environment)
            let registry = environment.registry()
            let cases: [(String, String)] = [
                ("EAAOther", "The Facebook access token was not issued for this app."),
                ("EAAInvalid", "The Facebook access token is invalid or expired."),
                ("EAAExpired", "The Facebook access token is invalid or expired."),
                ("EAAUnknown", "The Facebook access token is invalid or expired."),
            ]
            for (token, detail) in cases {
                let error = await rejection { try await registry.verify(.init(providerID: "facebook.com", accessToken: token)) }
                #expect(error?.code == .invalidIDPResponse, "\(token)")
                #expect(error?.detail == detail, "\(token)")
            }
            #expect(environment.state.fetchCount("/fb/v24.0/me") == 0)
        }
    }

    @Test("a wrong app secret fails at debug_token and is never shown")
    func wrongSecret() async throws {
        try await FakeEnvironment.run { environment in
            setUp(environment)
            let registry = environment.registry { $0.facebook.appSecret = "wrong-secret" }
            let error = await rejection { try await registry.verify(.init(providerID: "facebook.com", accessToken: "EAAGood")) }
            #expect(error?.code == .invalidIDPResponse)
            let text = "\(error?.detail ?? "") \(error?.reason ?? "")"
            #expect(!text.contains("wrong-secret"))
        }
    }

    @Test("Limited Login: the ID token with its nonce; email unverified; /me-shaped rawUserInfo")
    func limitedLogin() async throws {
        try await FakeEnvironment.run { environment in
            let token = TokenMinter.mint(environment.facebookClaims(), key: .primary)
            let profile = try await environment.registry().verify(.init(providerID: "facebook.com", idToken: token, rawNonce: "fb-raw-nonce"))
            #expect(profile.rawID == "10158497624517245")
            #expect(profile.email == "ada@example.com")
            #expect(!profile.emailVerified)
            #expect(profile.rawUserInfo["id"] == "10158497624517245")
            #expect(profile.rawUserInfo["first_name"] == "Ada")
            #expect(profile.photoURL == environment.base + "/fb/10158497624517245/picture")
        }
    }

    @Test("Limited Login requires a raw nonce even when the token has none")
    func limitedLoginNonceRequired() async throws {
        try await FakeEnvironment.run { environment in
            let token = TokenMinter.mint(environment.facebookClaims(["nonce": nil]), key: .primary)
            let error = await rejection { try await environment.registry().verify(.init(providerID: "facebook.com", idToken: token)) }
            #expect(error?.code == .missingOrInvalidNonce)
            #expect(error?.detail == "Nonce is missing in the request.")
        }
    }

    @Test("Limited Login switched off")
    func limitedLoginOff() async throws {
        try await FakeEnvironment.run { environment in
            let registry = environment.registry { $0.facebook.limitedLoginEnabled = false }
            let token = TokenMinter.mint(environment.facebookClaims(), key: .primary)
            let error = await rejection { try await registry.verify(.init(providerID: "facebook.com", idToken: token, rawNonce: "fb-raw-nonce")) }
            #expect(error?.code == .operationNotAllowed)
        }
    }
}
