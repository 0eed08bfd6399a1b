import Foundation
import HearthCore
import HearthProviders
import Testing

@Suite("google.com")
struct GoogleTests {
    @Test("both issuer forms; rawUserInfo in Google's v2 userinfo shape", arguments: ["accounts.google.com", "https://accounts.google.com"])
    func idToken(issuer: String) async throws {
        try await FakeEnvironment.run { environment in
            let token = TokenMinter.mint(environment.googleClaims(["iss": .string(issuer), "hd": "example.com"]), key: .primary)
            let profile = try await environment.registry().verify(.init(providerID: "google.com", idToken: token))
            #expect(profile.rawID == "115113236566683398301")
            #expect(profile.email == "oberyn@gmail.com")
            #expect(profile.emailVerified)
            #expect(profile.displayName == "Oberyn Martell")
            #expect(profile.firstName == "Oberyn")
            #expect(profile.lastName == "Martell")
            #expect(profile.photoURL == "https://lh3.googleusercontent.com/a/x")
            #expect(
                profile.rawUserInfo == [
                    "id": "115113236566683398301", "email": "Oberyn@gmail.com", "verified_email": true, "name": "Oberyn Martell",
                    "given_name": "Oberyn", "family_name": "Martell", "picture": "https://lh3.googleusercontent.com/a/x", "locale": "en",
                    "hd": "example.com",
                ])
        }
    }

    func setUpAccessToken(_ environment: FakeEnvironment, token: String = "ya29.good", audience: String = FakeEnvironment.googleClientID) {
        environment.state.update {
            $0.googleAccessTokens[token] = .init(
                tokeninfo: [
                    "azp": .string(audience), "aud": .string(audience), "sub": "115113236566683398301",
                    "scope": "openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile",
                    "exp": .string(String(Int(environment.now) + 3000)), "expires_in": "3000", "email": "oberyn@gmail.com",
                    "email_verified": "true", "access_type": "online",
                ],
                userinfo: [
                    "sub": "115113236566683398301", "name": "Oberyn Martell", "given_name": "Oberyn", "family_name": "Martell",
                    "picture": "https://lh3.googleusercontent.com/a/x", "email": "oberyn@gmail.com", "email_verified": true, "locale": "en",
                ])
        }
    }

    @Test("an access token: tokeninfo audience, then userinfo; granted_scopes in rawUserInfo")
    func accessToken() async throws {
        try await FakeEnvironment.run { environment in
            setUpAccessToken(environment)
            let profile = try await environment.registry().verify(.init(providerID: "google.com", accessToken: "ya29.good"))
            #expect(profile.rawID == "115113236566683398301")
            #expect(profile.emailVerified)
            #expect(profile.rawUserInfo["granted_scopes"]?.jsonText.contains("userinfo.email") == true)
            #expect(profile.rawUserInfo["id"] == "115113236566683398301")
        }
    }

    @Test("an access token issued to another project is rejected")
    func accessTokenForAnotherProject() async throws {
        try await FakeEnvironment.run { environment in
            setUpAccessToken(environment, token: "ya29.other", audience: "999-other.apps.googleusercontent.com")
            let error = await rejection { try await environment.registry().verify(.init(providerID: "google.com", accessToken: "ya29.other")) }
            #expect(error?.code == .invalidIDPResponse)
            #expect(error?.detail == "access_token audience is not for this project")
            #expect(environment.state.fetchCount("/google/userinfo") == 0)
        }
    }

    @Test("an unknown or expired access token is rejected")
    func badAccessToken() async throws {
        try await FakeEnvironment.run { environment in
            let error = await rejection { try await environment.registry().verify(.init(providerID: "google.com", accessToken: "ya29.bad")) }
            #expect(error?.code == .invalidIDPResponse)
            #expect(error?.detail == "The Google access token is invalid or expired.")
            #expect(error?.detail?.contains("ya29") == false)
        }
    }

    @Test("with both tokens the ID token decides (a bad ID token is not rescued by a good access token)")
    func bothTokens() async throws {
        try await FakeEnvironment.run { environment in
            setUpAccessToken(environment)
            let forged = TokenMinter.mint(environment.googleClaims(), key: .rogue)
            let error = await rejection {
                try await environment.registry().verify(.init(providerID: "google.com", idToken: forged, accessToken: "ya29.good"))
            }
            #expect(error?.code == .invalidIDPResponse)
        }
    }
}
