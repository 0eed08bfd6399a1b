import AsyncHTTPClient
import Foundation
import HearthCore
import HearthProviders
import Hummingbird
import HummingbirdTesting
import Logging

/// A running set of fake providers on loopback, an HTTP client, a hand-moved clock, and a configuration
/// pointing every provider at the fakes.
struct FakeEnvironment: Sendable {
    static let appleAudience = "com.example.app"
    static let appleServiceID = "com.example.web"
    static let googleClientID = "1234-web.apps.googleusercontent.com"
    static let microsoftClientID = "6f1e3a52-0000-4c5b-8000-00000000c11e"
    static let workTenant = "72f988bf-86f1-41af-91ab-2d7cd011db47"
    static let otherTenant = "0b1f6c2e-1111-4222-8333-444455556666"
    static let consumersTenant = "9188040d-6c67-4c5b-b112-36a304b66dad"

    let port: Int
    let state: FakeState
    let http: HTTPClient
    let clock: ManualClock

    var base: String { "http://127.0.0.1:\(port)" }
    func url(_ path: String) -> URL { URL(string: base + path)! }
    var now: Double { clock.now.timeIntervalSince1970 }

    /// Every provider switched on, pointing at the fakes.
    var configuration: ProvidersConfiguration {
        var configuration = ProvidersConfiguration()
        configuration.apple = .init(
            enabled: true, bundleIDs: [Self.appleAudience], serviceIDs: [Self.appleServiceID], jwksURL: url("/apple/auth/keys"))
        configuration.microsoft = .init(
            enabled: true, clientIDs: [Self.microsoftClientID], tenant: "common",
            jwksURLTemplate: base + "/ms/{tenant}/discovery/v2.0/keys",
            discoveryURLTemplate: base + "/ms/{tenant}/v2.0/.well-known/openid-configuration")
        configuration.twitter = .init(
            enabled: true, consumerKey: "tw-consumer-key", consumerSecret: "tw-consumer-secret", apiBaseURL: url("/twitter"))
        configuration.google = .init(
            enabled: true, clientIDs: [Self.googleClientID], jwksURL: url("/google/oauth2/v3/certs"), userinfoURL: url("/google/userinfo"),
            tokeninfoURL: url("/google/tokeninfo"))
        configuration.facebook = .init(
            enabled: true, appID: "fb-app", appSecret: "fb-secret", graphBaseURL: url("/fb"), limitedLoginJWKSURL: url("/fb/limited/jwks/"))
        configuration.gitHub = .init(enabled: true, apiBaseURL: url("/github"))
        configuration.oidc = ["corp": .init(issuer: base + "/oidc", clientIDs: ["corp-client"])]
        configuration.network.requestTimeout = 20
        return configuration
    }

    func registry(
        replayGuard: (any CredentialReplayGuard)? = nil, logger: Logger? = nil, _ adjust: (inout ProvidersConfiguration) -> Void = { _ in }
    ) -> ProviderRegistry {
        var configuration = self.configuration
        adjust(&configuration)
        return ProviderRegistry(
            configuration: configuration, httpClient: http, clock: clock.wallClock, logger: logger ?? Self.quietLogger,
            replayGuard: replayGuard)
    }

    static let quietLogger: Logger = {
        var logger = Logger(label: "providers-test")
        logger.logLevel = .error
        return logger
    }()

    /// Starts the fakes, runs `body`, stops everything.
    static func run<T: Sendable>(_ body: @Sendable (FakeEnvironment) async throws -> T) async throws -> T {
        let state = FakeState()
        var logger = Logger(label: "fake-providers")
        logger.logLevel = .warning
        let app = Application(
            router: FakeProviders.router(state), configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: logger)
        return try await app.test(.live) { client in
            guard let port = client.port else { throw FakeError.noPort }
            let http = HTTPClient(eventLoopGroupProvider: .singleton)
            let environment = FakeEnvironment(port: port, state: state, http: http, clock: ManualClock())
            state.update { $0.oidcIssuer = environment.base + "/oidc" }
            do {
                let result = try await body(environment)
                try await http.shutdown()
                return result
            } catch {
                try? await http.shutdown()
                throw error
            }
        }
    }

    enum FakeError: Error { case noPort }
}
