import Foundation
import HearthCore
import HearthProviders
import Testing

@Suite("Every ID-token provider rejects bad tokens")
struct IDTokenRejectionTests {
    @Test("a valid token is accepted", arguments: IDTokenProvider.allCases)
    func valid(_ provider: IDTokenProvider) async throws {
        try await FakeEnvironment.run { environment in
            let registry = environment.registry()
            let token = TokenMinter.mint(provider.validClaims(environment), key: .primary)
            let profile = try await registry.verify(.init(providerID: provider.providerID, idToken: token, rawNonce: provider.rawNonce))
            #expect(profile.providerID == provider.providerID)
            #expect(!profile.rawID.isEmpty)
        }
    }

    @Test("a bad token is rejected with a clear detail", arguments: IDTokenProvider.allCases, BadToken.allCases)
    func rejected(_ provider: IDTokenProvider, _ bad: BadToken) async throws {
        // OIDC providers may use ES256 (the fake's discovery lists it).
        if provider == .oidc && bad == .es256WhereRS256 { return }
        try await FakeEnvironment.run { environment in
            let registry = environment.registry()
            let (token, rawNonce) = bad.make(for: provider, in: environment)
            let error = await rejection {
                try await registry.verify(.init(providerID: provider.providerID, idToken: token, rawNonce: rawNonce))
            }
            #expect(error?.code == bad.expectedCode, "\(provider) \(bad): \(String(describing: error))")
            #expect(error?.detail?.contains(bad.expectedDetail) == true, "\(provider) \(bad): detail \(error?.detail ?? "none")")
            // No detail ever echoes the token.
            #expect(error?.detail?.contains(token) != true)
        }
    }

    @Test("exp within the clock skew is still accepted", arguments: IDTokenProvider.allCases)
    func skew(_ provider: IDTokenProvider) async throws {
        try await FakeEnvironment.run { environment in
            let registry = environment.registry()
            let claims = provider.validClaims(environment, ["exp": .number(environment.now - 30), "iat": .number(environment.now + 30)])
            _ = try await registry.verify(
                .init(providerID: provider.providerID, idToken: TokenMinter.mint(claims, key: .primary), rawNonce: provider.rawNonce))
        }
    }

    @Test("a matching nonce is accepted", arguments: IDTokenProvider.allCases)
    func nonce(_ provider: IDTokenProvider) async throws {
        try await FakeEnvironment.run { environment in
            let registry = environment.registry()
            let claims = provider.validClaims(environment, ["nonce": .string(TokenMinter.nonceHash("n-0S6_WzA2Mj"))])
            _ = try await registry.verify(
                .init(providerID: provider.providerID, idToken: TokenMinter.mint(claims, key: .primary), rawNonce: "n-0S6_WzA2Mj"))
        }
    }

    @Test("with a replay guard, a token carrying a nonce is accepted once")
    func replay() async throws {
        try await FakeEnvironment.run { environment in
            let registry = environment.registry(replayGuard: InMemoryCredentialReplayGuard(clock: environment.clock.wallClock))
            let claims = environment.appleClaims(["nonce": .string(TokenMinter.nonceHash("once"))])
            let credential = FederatedCredential(providerID: "apple.com", idToken: TokenMinter.mint(claims, key: .primary), rawNonce: "once")
            _ = try await registry.verify(credential)
            let error = await rejection { try await registry.verify(credential) }
            #expect(error?.code == .missingOrInvalidNonce)
            #expect(error?.detail == "Duplicate credential received. Please try again with a new credential.")
        }
    }
}
