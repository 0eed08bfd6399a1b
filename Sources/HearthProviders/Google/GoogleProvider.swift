import Foundation
import HearthCore

extension ProviderDescription {
    /// Google (`google.com`): ID tokens, or access tokens checked with `tokeninfo`; browser sign-in with
    /// the web client's secret (code + PKCE + nonce).
    static let google = ProviderDescription(
        id: "google.com", name: "Google", isFamily: false, settingsKey: "google", adminCollection: .defaultSupported,
        read: { source, p in
            p.google.enabled = try source.bool("providers.google.enabled") ?? p.google.enabled
            p.google.clientIDs = try source.stringArray("providers.google.clientIds") ?? p.google.clientIDs
            p.google.jwksURL = try source.url("providers.google.jwksURL") ?? p.google.jwksURL
            p.google.userinfoURL = try source.url("providers.google.userinfoURL") ?? p.google.userinfoURL
            p.google.tokeninfoURL = try source.url("providers.google.tokeninfoURL") ?? p.google.tokeninfoURL
            if p.google.enabled, p.google.clientIDs.isEmpty {
                throw source.problem("providers.google.clientIds", "Google sign-in needs at least one OAuth client ID")
            }
            if let value = try source.secret("providers.google.clientSecret") { p.google.clientSecret = value }
            p.google.authorizationURL = try source.url("providers.google.authorizationURL") ?? p.google.authorizationURL
            p.google.tokenURL = try source.url("providers.google.tokenURL") ?? p.google.tokenURL
        },
        isSwitchedOn: { $0.google.enabled },
        adopt: { p, other in p.google = other.google },
        adapters: { p, tools in
            guard p.google.isUsable else { return [:] }
            return [
                "google.com": ProviderAdapters(
                    idToken: GoogleIDTokenVerifier(configuration: p.google, validator: tools.validator),
                    accessToken: GoogleAccessTokenVerifier(
                        configuration: p.google, http: tools.http, clock: tools.clock, clockSkew: tools.clockSkew))
            ]
        },
        browserFlow: BrowserFlow(
            supports: { p, _ in p.google.supportsBrowserSignIn },
            start: { flows, request, custom in
                let google = flows.configuration.google
                return try flows.codeFlowStart(
                    request, endpoint: google.authorizationURL, clientID: google.clientIDs.first ?? "",
                    defaultScopes: ["openid", "email", "profile"], custom: custom, extra: [:])
            },
            finish: { flows, callback in
                let google = flows.configuration.google
                return try await flows.finishCodeFlow(
                    callback, tokenEndpoint: google.tokenURL, clientID: google.clientIDs.first ?? "", clientSecret: google.clientSecret.value)
            }),
        apply: { setting, p in
            p.google.enabled = setting.enabled
            p.google.clientIDs = setting.clientIDs
            p.google.clientSecret = ProviderSecret(setting.clientSecret ?? "")
        },
        validate: { try checkCredentials($0, audiences: true) },
        federatedIDPrefix: "https://accounts.google.com/", formerNames: ["clientIds": "clientIDs"])
}
