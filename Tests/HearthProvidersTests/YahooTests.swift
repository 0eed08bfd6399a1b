import Foundation
import HearthCore
import HearthProviders
import Testing

/// `yahoo.com` is an OpenID Connect provider with fixed defaults: it is verified by the OIDC code with
/// ES256 only, under its own provider id.
@Suite("yahoo.com")
struct YahooTests {
    /// Yahoo pointed at the fake issuer (the real one is `https://api.login.yahoo.com`).
    static func yahoo(_ environment: FakeEnvironment) -> ProvidersConfiguration.Yahoo {
        ProvidersConfiguration.Yahoo(
            enabled: true, clientIDs: ["yahoo-client"], issuer: environment.base + "/oidc",
            discoveryURL: environment.url("/oidc/.well-known/openid-configuration"))
    }

    @Test("an ES256 ID token is the profile, under yahoo.com")
    func verifies() async throws {
        try await FakeEnvironment.run { environment in
            let registry = environment.registry { $0.yahoo = Self.yahoo(environment) }
            #expect(registry.isEnabled("yahoo.com"))
            let token = TokenMinter.mint(environment.oidcClaims(["aud": "yahoo-client"]), key: .elliptic)
            let profile = try await registry.verify(.init(providerID: "yahoo.com", idToken: token))
            #expect(profile.providerID == "yahoo.com")
            #expect(profile.rawID == "employee-42")
            #expect(profile.emailVerified)
        }
    }

    @Test("RS256, another audience and a switched-off Yahoo are refused with Firebase's errors")
    func refusals() async throws {
        try await FakeEnvironment.run { environment in
            let registry = environment.registry { $0.yahoo = Self.yahoo(environment) }
            let rsa = TokenMinter.mint(environment.oidcClaims(["aud": "yahoo-client"]), key: .primary)
            let wrongAlgorithm = await rejection { try await registry.verify(.init(providerID: "yahoo.com", idToken: rsa)) }
            #expect(wrongAlgorithm?.code == .invalidIDPResponse)
            let otherApp = TokenMinter.mint(environment.oidcClaims(["aud": "corp-client"]), key: .elliptic)
            let wrongAudience = await rejection { try await registry.verify(.init(providerID: "yahoo.com", idToken: otherApp)) }
            #expect(wrongAudience?.code == .invalidIDPResponse)

            let off = environment.registry()
            #expect(!off.isEnabled("yahoo.com"))
            let notAllowed = await rejection { try await off.verify(.init(providerID: "yahoo.com", idToken: rsa)) }
            #expect(notAllowed?.code == .operationNotAllowed)
        }
    }

    @Test("the real defaults: Yahoo's issuer and discovery document")
    func defaults() {
        let yahoo = ProvidersConfiguration.Yahoo()
        #expect(yahoo.issuer == "https://api.login.yahoo.com")
        #expect(yahoo.discoveryURL.absoluteString == "https://api.login.yahoo.com/.well-known/openid-configuration")
        #expect(!yahoo.isUsable)
    }
}
