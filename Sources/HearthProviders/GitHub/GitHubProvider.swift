import Foundation
import HearthCore

extension ProviderDescription {
    /// GitHub (`github.com`): access tokens read with `/user` and `/user/emails`; browser sign-in with the
    /// OAuth app's client secret (code, no PKCE; errors come with HTTP 200).
    static let gitHub = ProviderDescription(
        id: "github.com", name: "GitHub", isFamily: false, settingsKey: "github", adminCollection: .defaultSupported,
        read: { source, p in
            p.gitHub.enabled = try source.bool("providers.github.enabled") ?? p.gitHub.enabled
            p.gitHub.apiBaseURL = try source.url("providers.github.apiBaseURL") ?? p.gitHub.apiBaseURL
            p.gitHub.clientID = try source.string("providers.github.clientId") ?? p.gitHub.clientID
            if let secret = try source.secret("providers.github.clientSecret") { p.gitHub.clientSecret = secret }
            p.gitHub.authorizationURL = try source.url("providers.github.authorizationURL") ?? p.gitHub.authorizationURL
            p.gitHub.tokenURL = try source.url("providers.github.tokenURL") ?? p.gitHub.tokenURL
        },
        isSwitchedOn: { $0.gitHub.enabled },
        adopt: { p, other in p.gitHub = other.gitHub },
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
        apply: { setting, p in
            p.gitHub.enabled = setting.enabled
            p.gitHub.clientID = setting.clientID
            p.gitHub.clientSecret = setting.clientSecret.map { ProviderSecret($0) }
        },
        validate: { try checkCredentials($0) },
        formerNames: ["clientId": "clientID"])
}
