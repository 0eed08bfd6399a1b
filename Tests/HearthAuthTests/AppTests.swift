import Foundation
import HearthAuth
import HearthTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Forwards to URLSession and records what was sent.
final class RecordingTransport: AuthTransport {
    let requests = Recorder<URLRequest>()
    private let base = URLSessionTransport()

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        requests.append(request)
        return try await base.send(request)
    }
}

@Suite struct AppTests {
    @Test func optionsAndApps() {
        #expect(HearthOptions(apiKey: "k", projectID: "p", host: "::1", port: 9099).serverURL == "http://[::1]:9099")
        #expect(HearthOptions(apiKey: "k", projectID: "p", host: "127.0.0.1", port: 8080).serverURL == "http://127.0.0.1:8080")
        #expect(HearthOptions(apiKey: "k", projectID: "p", serverURL: "https://auth.example.com/").serverURL == "https://auth.example.com")

        let name = "apps-\(UUID().uuidString)"
        HearthApp.configure(name: name, options: HearthOptions(apiKey: "k", projectID: "p"))
        let app = try! #require(HearthApp.app(name: name))
        #expect(app.name == name)
        #expect(!app.isDefaultApp)
        #expect(HearthApp.allApps?[name] === app)
        let auth = Auth.auth(app: app)
        #expect(Auth.auth(app: app) === auth)
        #expect(auth.app === app)
        #expect(auth.serverURL == "http://127.0.0.1:9099")
        auth.useEmulator(withHost: "10.0.2.2", port: 9199)
        #expect(auth.serverURL == "http://10.0.2.2:9199")
        #expect(auth.currentUser == nil)
    }

    @Test func reservedCustomParametersAreDropped() {
        let name = "oauth-\(UUID().uuidString)"
        HearthApp.configure(name: name, options: HearthOptions(apiKey: "k", projectID: "p"))
        let provider = OAuthProvider(providerID: .custom("microsoft.com"), auth: Auth.auth(app: HearthApp.app(name: name)!))
        provider.customParameters = [
            "prompt": "consent", "client_id": "evil", "redirect_uri": "https://evil.example", "state": "x", "tenant": "contoso",
        ]
        #expect(provider.effectiveCustomParameters == ["prompt": "consent", "tenant": "contoso"])
        #expect(provider.providerID == "microsoft.com")
    }

    @Test("Requests go to the emulator-style paths with the API key, the locale and JSON")
    func requestShape() async throws {
        try await withLiveHearth { live in
            let transport = RecordingTransport()
            let auth = makeAuth(live, transport: transport)
            auth.languageCode = "fr"
            #expect(auth.languageCode == "fr")
            auth.tenantID = nil
            _ = try await auth.signInAnonymously()
            let requests = transport.requests.all
            #expect(
                requests.map { $0.url?.path } == [
                    "/identitytoolkit.googleapis.com/v1/accounts:signUp", "/identitytoolkit.googleapis.com/v1/accounts:lookup",
                ])
            #expect(requests.allSatisfy { $0.url?.query == "key=\(live.apiKey)" })
            #expect(requests.allSatisfy { $0.value(forHTTPHeaderField: "X-Firebase-Locale") == "fr" })
            #expect(requests.allSatisfy { $0.value(forHTTPHeaderField: "Content-Type") == "application/json" })
            _ = try await auth.currentUser!.getIDToken(forcingRefresh: true)
            #expect(transport.requests.all.last?.url?.path == "/securetoken.googleapis.com/v1/token")
        }
    }
}
