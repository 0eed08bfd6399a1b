import Foundation
import HearthCore

extension ProviderDescription {
    /// Facebook (`facebook.com`): Limited Login ID tokens, or classic access tokens checked with
    /// `debug_token`; browser sign-in with the app secret (code, no PKCE; the exchange is a GET).
    static let facebook = ProviderDescription(
        id: "facebook.com", name: "Facebook", settings: ProvidersConfiguration.Facebook.self, settingsKey: "facebook",
        keys: [
            .bool("enabled", \.enabled), .string("clientId", \.appID), .secret("clientSecret", \.appSecret), .url("graphBaseURL", \.graphBaseURL),
            .url("limitedLoginJWKSURL", \.limitedLoginJWKSURL), .url("dialogURL", \.dialogURL),
        ],
        check: { facebook, source, key in
            if facebook.enabled, facebook.appID.isEmpty {
                throw source.problem(key("clientId"), "Facebook sign-in needs the app ID (and the app secret, clientSecret, for access tokens)")
            }
        },
        adapters: { p, tools in
            guard p.facebook.isUsable else { return [:] }
            return [
                "facebook.com": ProviderAdapters(
                    idToken: FacebookLimitedLoginVerifier(configuration: p.facebook, validator: tools.validator),
                    accessToken: FacebookAccessTokenVerifier(configuration: p.facebook, http: tools.http, clock: tools.clock))
            ]
        },
        browserFlow: BrowserFlow(
            supports: { p, _ in p.facebook.supportsBrowserSignIn },
            start: { flows, request, custom in
                let facebook = flows.configuration.facebook
                return try flows.plainCodeFlowStart(
                    request, endpoint: facebook.dialogURL, clientID: facebook.appID, defaultScopes: ["email", "public_profile"],
                    separator: ",", custom: custom, extra: [("response_type", "code")])
            },
            finish: { flows, callback in
                try await flows.finishCodeFlow(callback) { code in
                    let facebook = flows.configuration.facebook
                    let url = facebook.graphURL("/oauth/access_token").appendingQuery([
                        ("client_id", facebook.appID), ("redirect_uri", callback.redirectURI.absoluteString),
                        ("client_secret", facebook.appSecret.value), ("code", code),
                    ])
                    guard let url else { throw AuthorizationFailure.refused("The Facebook token URL is invalid.") }
                    let response = try await flows.call { try await flows.http.get(url, provider: "Facebook") }
                    return try AuthorizationFlows.tokens(from: response, provider: "Facebook")
                }
            }),
        apply: { setting, facebook in
            facebook.enabled = setting.enabled
            facebook.appID = setting.clientID ?? ""
            facebook.appSecret = ProviderSecret(setting.clientSecret ?? "")
        },
        validate: { try checkCredentials($0, secret: true) },
        formerNames: ["clientId": "appID", "clientSecret": "appSecret"])
}
