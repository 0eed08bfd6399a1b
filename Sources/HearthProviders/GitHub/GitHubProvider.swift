import Foundation
import HearthCore

extension ProviderDescription {
    /// GitHub (`github.com`): access tokens read with `/user` and `/user/emails`; browser sign-in with the
    /// OAuth app's client secret (code, no PKCE; errors come with HTTP 200).
    static let gitHub = ProviderDescription(
        id: "github.com", name: "GitHub", settings: ProvidersConfiguration.GitHub.self, settingsKey: "github",
        keys: [
            .bool("enabled", \.enabled), .url("apiBaseURL", \.apiBaseURL), .string("clientId", \.clientID), .secret("clientSecret", \.clientSecret),
            .url("authorizationURL", \.authorizationURL), .url("tokenURL", \.tokenURL),
        ],
        check: { _, _, _ in },
        adapters: { p, tools in
            guard p.gitHub.isUsable else { return [:] }
            return ["github.com": ProviderAdapters(accessToken: GitHubAccessTokenVerifier(configuration: p.gitHub, http: tools.http))]
        },
        browserFlow: BrowserFlow(
            supports: { p, _ in p.gitHub.supportsBrowserSignIn },
            start: { flows, request, custom in
                let gitHub = flows.configuration.gitHub
                return try flows.plainCodeFlowStart(
                    request, endpoint: gitHub.authorizationURL, clientID: gitHub.clientID ?? "",
                    defaultScopes: ["read:user", "user:email"], separator: " ", custom: custom)
            },
            finish: { flows, callback in
                let gitHub = flows.configuration.gitHub
                return try await flows.finishCodeFlow(
                    callback, tokenEndpoint: gitHub.tokenURL, clientID: gitHub.clientID ?? "", clientSecret: gitHub.clientSecret?.value ?? "")
            }),
        apply: { setting, gitHub in
            gitHub.enabled = setting.enabled
            gitHub.clientID = setting.clientID
            gitHub.clientSecret = setting.clientSecret.map { ProviderSecret($0) }
        },
        validate: { try checkCredentials($0) },
        formerNames: ["clientId": "clientID"])
}
