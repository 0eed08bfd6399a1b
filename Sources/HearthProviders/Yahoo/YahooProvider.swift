import Foundation
import HearthCore

extension ProviderDescription {
    /// Yahoo (`yahoo.com`): OpenID Connect ID tokens (ES256) checked against Yahoo's discovery document and
    /// keys; browser sign-in with the client secret (code + PKCE + nonce).
    static let yahoo = ProviderDescription(
        id: "yahoo.com", name: "Yahoo", settings: ProvidersConfiguration.Yahoo.self, settingsKey: "yahoo",
        keys: [
            .bool("enabled", \.enabled), .strings("clientIds", \.clientIDs), .secret("clientSecret", \.clientSecret),
            .url("discoveryURL", \.discoveryURL),
        ],
        check: { yahoo, source, key in
            if yahoo.enabled, yahoo.clientIDs.isEmpty { throw source.problem(key("clientIds"), "Yahoo sign-in needs the app's Client ID") }
        },
        adapters: { p, tools in
            guard p.yahoo.isUsable else { return [:] }
            return [
                "yahoo.com": ProviderAdapters(
                    idToken: OIDCIDTokenVerifier(
                        providerID: "yahoo.com", configuration: p.yahoo.openIDConnect, validator: tools.validator,
                        discovery: tools.discovery))
            ]
        },
        browserFlow: BrowserFlow(
            supports: { p, _ in p.yahoo.supportsBrowserSignIn },
            start: { flows, request, custom in
                try await flows.discoveredCodeFlowStart(request, flows.configuration.yahoo.openIDConnect, custom: custom)
            },
            finish: { flows, callback in try await flows.finishDiscoveredCodeFlow(callback, flows.configuration.yahoo.openIDConnect) }),
        apply: { setting, yahoo in
            yahoo.enabled = setting.enabled
            yahoo.clientIDs = setting.clientIDs
            yahoo.clientSecret = ProviderSecret(setting.clientSecret ?? "")
        },
        validate: { try checkCredentials($0) },
        formerNames: ["clientIds": "clientIDs"], acceptsAdditionalClientIDs: true)
}
