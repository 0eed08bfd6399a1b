import Foundation
import HearthCore

extension ProviderDescription {
    /// Twitter / X (`twitter.com`): OAuth 1.0a access token and secret checked with `verify_credentials`;
    /// browser sign-in with the three-legged OAuth 1.0a flow.
    static let twitter = ProviderDescription(
        id: "twitter.com", name: "Twitter", settings: ProvidersConfiguration.Twitter.self, settingsKey: "twitter",
        keys: [
            .bool("enabled", \.enabled), .string("clientId", \.consumerKey), .secret("clientSecret", \.consumerSecret),
            .url("apiBaseURL", \.apiBaseURL),
        ],
        check: { twitter, source, key in
            if twitter.enabled, twitter.consumerKey.isEmpty || twitter.consumerSecret.isEmpty {
                throw source.problem(key("clientSecret"), "Twitter sign-in needs the API key (clientId) and API secret (clientSecret)")
            }
        },
        adapters: { p, tools in
            guard p.twitter.isUsable else { return [:] }
            return [
                "twitter.com": ProviderAdapters(
                    accessToken: TwitterAccessTokenVerifier(configuration: p.twitter, http: tools.http, clock: tools.clock))
            ]
        },
        browserFlow: BrowserFlow(
            supports: { p, _ in p.twitter.isUsable },
            start: { flows, request, custom in try await flows.startTwitter(request, custom: custom) },
            finish: { flows, callback in try await flows.finishTwitter(callback: callback.fields, pending: callback.pending) }),
        apply: { setting, twitter in
            twitter.enabled = setting.enabled
            twitter.consumerKey = setting.clientID ?? ""
            twitter.consumerSecret = ProviderSecret(setting.clientSecret ?? "")
        },
        validate: { try checkCredentials($0, secret: true) },
        formerNames: ["clientId": "consumerKey", "clientSecret": "consumerSecret"])
}
