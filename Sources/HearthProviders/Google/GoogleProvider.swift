import Foundation
import HearthCore

extension ProviderDescription {
    /// Google (`google.com`): ID tokens, or access tokens checked with `tokeninfo`; browser sign-in with
    /// the web client's secret (code + PKCE + nonce).
    static let google = ProviderDescription(
        id: "google.com", name: "Google", settings: ProvidersConfiguration.Google.self, settingsKey: "google",
        keys: [
            .bool("enabled", \.enabled), .strings("clientIds", \.clientIDs), .url("jwksURL", \.jwksURL), .url("userinfoURL", \.userinfoURL),
            .url("tokeninfoURL", \.tokeninfoURL), .secret("clientSecret", \.clientSecret), .url("authorizationURL", \.authorizationURL),
            .url("tokenURL", \.tokenURL),
        ],
        check: { google, source, key in
            if google.enabled, google.clientIDs.isEmpty {
                throw source.problem(key("clientIds"), "Google sign-in needs at least one OAuth client ID")
            }
        },
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
        apply: { setting, google in
            google.enabled = setting.enabled
            google.clientIDs = setting.clientIDs
            google.clientSecret = ProviderSecret(setting.clientSecret ?? "")
        },
        validate: { try checkCredentials($0) },
        federatedIDPrefix: "https://accounts.google.com/", formerNames: ["clientIds": "clientIDs"], acceptsAdditionalClientIDs: true)
}
