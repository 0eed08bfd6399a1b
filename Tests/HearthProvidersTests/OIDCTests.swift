import Foundation
import HearthCore
import HearthProviders
import Testing

@Suite("oidc.<name>")
struct OIDCTests {
    @Test("discovery, then JWKS; RS256 and ES256; the claims are the profile; discovery is cached")
    func happyPath() async throws {
        try await FakeEnvironment.run { environment in
            let registry = environment.registry()
            for key in [TestKey.primary, TestKey.elliptic] {
                let profile = try await registry.verify(.init(providerID: "oidc.corp", idToken: TokenMinter.mint(environment.oidcClaims(), key: key)))
                #expect(profile.providerID == "oidc.corp")
                #expect(profile.rawID == "employee-42")
                #expect(profile.email == "grace@corp.example")
                #expect(profile.emailVerified)
                #expect(profile.photoURL == "https://corp.example/grace.png")
                #expect(profile.rawUserInfo["sub"] == "employee-42")
            }
            #expect(environment.state.fetchCount("/oidc/.well-known/openid-configuration") == 1)
            #expect(environment.state.fetchCount("/oidc/jwks") == 1)
        }
    }

    @Test("an algorithm the discovery document does not list is refused")
    func discoveryAlgorithms() async throws {
        try await FakeEnvironment.run { environment in
            environment.state.update { $0.oidcAlgorithms = ["RS256"] }
            let token = TokenMinter.mint(environment.oidcClaims(), key: .elliptic)
            let error = await rejection { try await environment.registry().verify(.init(providerID: "oidc.corp", idToken: token)) }
            #expect(error?.detail?.contains("\"ES256\" is not accepted") == true)
        }
    }

    @Test("a discovery document naming another issuer is refused")
    func issuerMismatch() async throws {
        try await FakeEnvironment.run { environment in
            environment.state.update { $0.oidcIssuer = "https://impostor.example" }
            let token = TokenMinter.mint(environment.oidcClaims(), key: .primary)
            let error = await rejection { try await environment.registry().verify(.init(providerID: "oidc.corp", idToken: token)) }
            #expect(error?.code == .invalidIDPResponse)
            #expect(error?.detail == "The oidc.corp discovery document names another issuer.")
        }
    }

    @Test("an explicit discovery URL is used")
    func explicitDiscovery() async throws {
        try await FakeEnvironment.run { environment in
            let registry = environment.registry {
                $0.oidc["corp"]?.discoveryURL = environment.url("/oidc/.well-known/openid-configuration")
                $0.oidc["corp"]?.issuer = environment.base + "/oidc"
            }
            _ = try await registry.verify(.init(providerID: "oidc.corp", idToken: TokenMinter.mint(environment.oidcClaims(), key: .primary)))
        }
    }

    @Test("an oidc provider that is not configured is not allowed")
    func notConfigured() async throws {
        try await FakeEnvironment.run { environment in
            let registry = environment.registry()
            #expect(!registry.isEnabled("oidc.other"))
            let error = await rejection { try await registry.verify(.init(providerID: "oidc.other", idToken: "x.y.z")) }
            #expect(error?.code == .operationNotAllowed)
        }
    }
}
