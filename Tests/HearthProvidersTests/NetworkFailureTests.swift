import Foundation
import HearthCore
import HearthProviders
import Testing

@Suite("Providers that are down or slow fail fast with INVALID_IDP_RESPONSE")
struct NetworkFailureTests {
    @Test("connection refused")
    func refused() async throws {
        try await FakeEnvironment.run { environment in
            let registry = environment.registry {
                $0.network.requestTimeout = 1
                $0.apple.jwksURL = URL(string: "http://127.0.0.1:1/auth/keys")!
                $0.gitHub.apiBaseURL = URL(string: "http://127.0.0.1:1")!
            }
            let started = ContinuousClock.now
            let error = await rejection {
                try await registry.verify(.init(providerID: "apple.com", idToken: TokenMinter.mint(environment.appleClaims(), key: .primary)))
            }
            #expect(error?.code == .invalidIDPResponse)
            #expect(["The identity provider could not be reached.", "The identity provider did not answer in time."].contains(error?.detail ?? ""))
            #expect(ContinuousClock.now - started < .seconds(60))
            let gitHub = await rejection { try await registry.verify(.init(providerID: "github.com", accessToken: "gho_x")) }
            #expect(["The identity provider could not be reached.", "The identity provider did not answer in time."].contains(gitHub?.detail ?? ""))
            #expect(ContinuousClock.now - started < .seconds(60))
        }
    }

    @Test("a provider answering after the timeout", arguments: ["apple.com", "github.com", "twitter.com", "facebook.com"])
    func slow(_ providerID: String) async throws {
        try await FakeEnvironment.run { environment in
            let registry = environment.registry {
                $0.network.requestTimeout = 0.3
                $0.apple.jwksURL = environment.url("/slow/apple/auth/keys")
                $0.gitHub.apiBaseURL = environment.url("/slow/github")
                $0.twitter.apiBaseURL = environment.url("/slow/twitter")
                $0.facebook.graphBaseURL = environment.url("/slow/fb")
            }
            let credential: FederatedCredential =
                switch providerID {
                case "apple.com": .init(providerID: providerID, idToken: TokenMinter.mint(environment.appleClaims(), key: .primary))
                case "twitter.com": .init(providerID: providerID, accessToken: "t", tokenSecret: "s")
                default: .init(providerID: providerID, accessToken: "token")
                }
            let started = ContinuousClock.now
            let error = await rejection { try await registry.verify(credential) }
            let elapsed = ContinuousClock.now - started
            #expect(error?.code == .invalidIDPResponse)
            #expect(error?.detail == "The identity provider did not answer in time.")
            #expect(elapsed < .seconds(60), "took \(elapsed)")
        }
    }

    @Test("a provider that sends its headers but stalls the body")
    func stalledBody() async throws {
        try await FakeEnvironment.run { environment in
            let registry = environment.registry {
                $0.network.requestTimeout = 0.3
                $0.google.jwksURL = environment.url("/slowbody/certs")
            }
            let started = ContinuousClock.now
            let error = await rejection {
                try await registry.verify(.init(providerID: "google.com", idToken: TokenMinter.mint(environment.googleClaims(), key: .primary)))
            }
            #expect(error?.detail == "The identity provider did not answer in time.")
            #expect(ContinuousClock.now - started < .seconds(60))
        }
    }

    @Test("a 5xx answer")
    func serverError() async throws {
        try await FakeEnvironment.run { environment in
            let registry = environment.registry {
                $0.google.jwksURL = environment.url("/down/certs")
                $0.gitHub.apiBaseURL = environment.url("/down/github")
            }
            let error = await rejection {
                try await registry.verify(.init(providerID: "google.com", idToken: TokenMinter.mint(environment.googleClaims(), key: .primary)))
            }
            #expect(error?.code == .invalidIDPResponse)
            #expect(error?.detail == "The identity provider answered with HTTP 503.")
            let gitHub = await rejection { try await registry.verify(.init(providerID: "github.com", accessToken: "gho")) }
            #expect(gitHub?.detail == "The identity provider answered with HTTP 503.")
        }
    }

    @Test("a JWKS that is not JSON")
    func garbage() async throws {
        try await FakeEnvironment.run { environment in
            let registry = environment.registry { $0.apple.jwksURL = environment.url("/github/user") }
            let error = await rejection {
                try await registry.verify(.init(providerID: "apple.com", idToken: TokenMinter.mint(environment.appleClaims(), key: .primary)))
            }
            #expect(error?.code == .invalidIDPResponse)
        }
    }
}
