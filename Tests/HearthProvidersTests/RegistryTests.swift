import AsyncHTTPClient
import Foundation
import HearthCore
import HearthProviders
import Logging
import Testing

@Suite("ProviderRegistry dispatch and ProvidersConfiguration")
struct RegistryTests {
    @Test("a switched-off provider is not allowed; an unconfigured one neither")
    func disabled() async throws {
        try await FakeEnvironment.run { environment in
            let registry = environment.registry {
                $0.apple.enabled = false
                $0.google.clientIDs = []
                $0.twitter.consumerSecret = ""
            }
            for id in ["apple.com", "google.com", "twitter.com"] {
                #expect(!registry.isEnabled(id))
                let error = await rejection { try await registry.verify(.init(providerID: id, idToken: "a.b.c", accessToken: "x")) }
                #expect(error?.code == .operationNotAllowed, "\(id)")
            }
            #expect(registry.isEnabled("github.com"))
            #expect(registry.enabledProviderIDs == ["facebook.com", "github.com", "microsoft.com", "oidc.corp"])
        }
    }

    @Test("an unknown provider id is INVALID_CREDENTIAL_OR_PROVIDER_ID")
    func unknown() async throws {
        try await FakeEnvironment.run { environment in
            let registry = environment.registry()
            #expect(!registry.isEnabled("myspace.com"))
            let error = await rejection { try await registry.verify(.init(providerID: "myspace.com", accessToken: "x")) }
            #expect(error?.code == .invalidCredentialOrProviderID)
            #expect(error?.detail == "Invalid IdP response/credential: providerId=myspace.com")
        }
    }

    @Test("built-in provider ids are case-insensitive")
    func caseInsensitive() async throws {
        try await FakeEnvironment.run { environment in
            let registry = environment.registry()
            #expect(registry.isEnabled("Apple.COM"))
            let profile = try await registry.verify(
                .init(providerID: "Apple.com", idToken: TokenMinter.mint(environment.appleClaims(), key: .primary)))
            #expect(profile.providerID == "apple.com")
        }
    }

    @Test("a credential of the wrong kind says what is needed")
    func wrongKind() async throws {
        try await FakeEnvironment.run { environment in
            let registry = environment.registry()
            let gitHub = await rejection { try await registry.verify(.init(providerID: "github.com", idToken: "a.b.c")) }
            #expect(gitHub?.detail == "The github.com credential needs an access_token.")
            let google = await rejection { try await registry.verify(.init(providerID: "google.com")) }
            #expect(google?.detail == "The google.com credential has neither id_token nor access_token.")
        }
    }

    @Test("secrets never appear in description, debugDescription or dump")
    func redaction() {
        var configuration = ProvidersConfiguration()
        configuration.facebook.appSecret = "fb-TOP-SECRET"
        configuration.twitter.consumerSecret = "tw-TOP-SECRET"
        configuration.gitHub.clientSecret = "gh-TOP-SECRET"
        var dumped = ""
        dump(configuration, to: &dumped)
        for text in [
            configuration.description, configuration.debugDescription, "\(configuration)", String(reflecting: configuration), dumped,
            "\(configuration.facebook)", "\(configuration.twitter)", "\(configuration.gitHub)",
        ] {
            #expect(!text.contains("TOP-SECRET"), "\(text)")
        }
        #expect(configuration.description.contains("appSecret: <redacted>"))
        #expect(ProvidersConfiguration().description.contains("appSecret: <unset>"))
        #expect(configuration.facebook.appSecret.value == "fb-TOP-SECRET")
    }

    @Test("the defaults are the providers' real endpoints")
    func defaults() {
        let configuration = ProvidersConfiguration()
        #expect(configuration.apple.jwksURL.absoluteString == "https://appleid.apple.com/auth/keys")
        #expect(configuration.apple.issuers.first == "https://appleid.apple.com")
        #expect(configuration.microsoft.tenant == "common")
        #expect(configuration.microsoft.jwksURLTemplate == "https://login.microsoftonline.com/{tenant}/discovery/v2.0/keys")
        #expect(configuration.microsoft.issuerTemplate == "https://login.microsoftonline.com/{tenant}/v2.0")
        #expect(configuration.twitter.verifyCredentialsURL.absoluteString == "https://api.twitter.com/1.1/account/verify_credentials.json")
        #expect(Set(configuration.google.issuers) == ["https://accounts.google.com", "accounts.google.com"])
        #expect(configuration.google.jwksURL.absoluteString == "https://www.googleapis.com/oauth2/v3/certs")
        #expect(configuration.google.userinfoURL.absoluteString == "https://openidconnect.googleapis.com/v1/userinfo")
        #expect(configuration.google.tokeninfoURL.absoluteString == "https://oauth2.googleapis.com/tokeninfo")
        #expect(configuration.facebook.graphURL("/me").absoluteString == "https://graph.facebook.com/v24.0/me")
        #expect(configuration.facebook.limitedLoginIssuers == ["https://www.facebook.com"])
        #expect(configuration.facebook.limitedLoginJWKSURL.absoluteString == "https://limited.facebook.com/.well-known/oauth/openid/jwks/")
        #expect(configuration.facebook.pictureURL(forUserID: "42") == "https://graph.facebook.com/42/picture")
        #expect(configuration.gitHub.apiBaseURL.absoluteString == "https://api.github.com")
        #expect(configuration.network.requestTimeout == 10)
        #expect(
            ProvidersConfiguration.OIDC(issuer: "https://id.example.com/", clientIDs: ["c"]).resolvedDiscoveryURL?.absoluteString
                == "https://id.example.com/.well-known/openid-configuration")
        // Nothing is switched on by default.
        let registry = ProviderRegistry(configuration: configuration, httpClient: .shared, logger: Logger(label: "t"))
        #expect(registry.enabledProviderIDs.isEmpty)
    }

    @Test("logs (at trace level) never contain tokens, secrets or query strings")
    func logRedaction() async throws {
        try await FakeEnvironment.run { environment in
            let lines = LockedBox<[String]>([])
            let logger = Logger(label: "capture") { _ in CapturingLogHandler(lines: lines) }
            environment.state.update {
                $0.facebookTokens["EAA-SECRET-USER-TOKEN"] = .init(appID: "fb-app", userID: "1", me: ["id": "1", "name": "A"])
                $0.twitterAccounts["tw-SECRET-TOKEN"] = .init(secret: "tw-SECRET-TOKEN-SECRET", user: ["id_str": "1"])
            }
            let registry = environment.registry(logger: logger) {
                $0.facebook.appSecret = "fb-APP-SECRET"
                $0.twitter.consumerSecret = "tw-CONSUMER-SECRET"
            }
            _ = await rejection { try await registry.verify(.init(providerID: "facebook.com", accessToken: "EAA-SECRET-USER-TOKEN")) }
            _ = await rejection {
                try await registry.verify(.init(providerID: "twitter.com", accessToken: "tw-SECRET-TOKEN", tokenSecret: "tw-SECRET-TOKEN-SECRET"))
            }
            _ = await rejection { try await registry.verify(.init(providerID: "google.com", accessToken: "ya29-SECRET-ACCESS")) }
            let idToken = TokenMinter.mint(environment.appleClaims(), key: .rogue)
            _ = await rejection { try await registry.verify(.init(providerID: "apple.com", idToken: idToken)) }
            let logged = lines.withLock { $0 }.joined(separator: "\n")
            #expect(!logged.isEmpty)
            for secret in ["SECRET", idToken, "appsecret_proof", "input_token", "?"] {
                #expect(!logged.contains(secret), "log contains \(secret)")
            }
        }
    }
}
