import Foundation
import HearthCore
import HearthProviders
import Testing

@Suite("apple.com")
struct AppleTests {
    @Test("string flags, a private-relay address, the name from the first-sign-in user JSON, no photo")
    func firstSignIn() async throws {
        try await FakeEnvironment.run { environment in
            let token = TokenMinter.mint(environment.appleClaims(), key: .primary)
            let profile = try await environment.registry().verify(
                .init(
                    providerID: "apple.com", idToken: token,
                    appleUser: #"{"name":{"firstName":"Ada","lastName":"Lovelace"},"email":"attacker@example.com"}"#))
            #expect(profile.rawID == "001234.5e201aec537347aeb79d23cbc345170a.1321")
            #expect(profile.email == "q7x2@privaterelay.appleid.com")
            #expect(profile.emailVerified)
            #expect(profile.isPrivateEmail)
            #expect(profile.displayName == "Ada Lovelace")
            #expect(profile.firstName == "Ada")
            #expect(profile.lastName == "Lovelace")
            #expect(profile.photoURL == nil)
            #expect(profile.rawUserInfo["sub"] == "001234.5e201aec537347aeb79d23cbc345170a.1321")
            #expect(profile.rawUserInfo["is_private_email"] == "true")
        }
    }

    @Test("boolean flags, a real address, later sign-ins have no name")
    func laterSignIn() async throws {
        try await FakeEnvironment.run { environment in
            let claims = environment.appleClaims(["email": "ada@example.com", "email_verified": true, "is_private_email": false])
            let profile = try await environment.registry().verify(.init(providerID: "apple.com", idToken: TokenMinter.mint(claims, key: .primary)))
            #expect(profile.email == "ada@example.com")
            #expect(profile.emailVerified)
            #expect(!profile.isPrivateEmail)
            #expect(profile.displayName == nil)
        }
    }

    @Test("email_verified \"false\" is false, not truthy")
    func falseString() async throws {
        try await FakeEnvironment.run { environment in
            let claims = environment.appleClaims(["email_verified": "false", "is_private_email": nil])
            let profile = try await environment.registry().verify(.init(providerID: "apple.com", idToken: TokenMinter.mint(claims, key: .primary)))
            #expect(!profile.emailVerified)
            // Without the claim, the relay domain still flags the address.
            #expect(profile.isPrivateEmail)
        }
    }

    @Test("the services id is an accepted audience too; the account.apple.com issuer is accepted")
    func serviceID() async throws {
        try await FakeEnvironment.run { environment in
            let claims = environment.appleClaims(["aud": .string(FakeEnvironment.appleServiceID), "iss": "https://account.apple.com"])
            let profile = try await environment.registry().verify(.init(providerID: "apple.com", idToken: TokenMinter.mint(claims, key: .primary)))
            #expect(profile.providerID == "apple.com")
        }
    }

    @Test("a malformed user JSON gives no name but does not fail")
    func badUserJSON() async throws {
        try await FakeEnvironment.run { environment in
            let profile = try await environment.registry().verify(
                .init(providerID: "apple.com", idToken: TokenMinter.mint(environment.appleClaims(), key: .primary), appleUser: "{not json"))
            #expect(profile.displayName == nil)
        }
    }

    @Test("an access token alone is not an Apple credential")
    func accessTokenOnly() async throws {
        try await FakeEnvironment.run { environment in
            let error = await rejection { try await environment.registry().verify(.init(providerID: "apple.com", accessToken: "abc")) }
            #expect(error?.code == .invalidIDPResponse)
            #expect(error?.detail == "The apple.com credential needs an id_token.")
        }
    }
}
