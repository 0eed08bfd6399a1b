import Foundation
import HearthCore

extension ProviderDescription {
    /// Twitter / X (`twitter.com`): OAuth 1.0a access token and secret checked with `verify_credentials`;
    /// browser sign-in with the three-legged OAuth 1.0a flow.
    static let twitter = ProviderDescription(
        id: "twitter.com", name: "Twitter", isFamily: false, settingsKey: "twitter", adminCollection: .defaultSupported,
        read: { source, p in
            p.twitter.enabled = try source.bool("providers.twitter.enabled") ?? p.twitter.enabled
            p.twitter.consumerKey = try source.string("providers.twitter.clientId") ?? p.twitter.consumerKey
            if let secret = try source.secret("providers.twitter.clientSecret") { p.twitter.consumerSecret = secret }
            p.twitter.apiBaseURL = try source.url("providers.twitter.apiBaseURL") ?? p.twitter.apiBaseURL
            if p.twitter.enabled, p.twitter.consumerKey.isEmpty || p.twitter.consumerSecret.isEmpty {
                throw source.problem("providers.twitter.clientSecret", "Twitter sign-in needs the API key (clientId) and API secret (clientSecret)")
            }
        },
        isSwitchedOn: { $0.twitter.enabled },
        adopt: { p, other in p.twitter = other.twitter },
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
        apply: { setting, p in
            p.twitter.enabled = setting.enabled
            p.twitter.consumerKey = setting.clientID ?? ""
            p.twitter.consumerSecret = ProviderSecret(setting.clientSecret ?? "")
        },
        validate: { try checkCredentials($0, secret: true) },
        formerNames: ["clientId": "consumerKey", "clientSecret": "consumerSecret"])
}
