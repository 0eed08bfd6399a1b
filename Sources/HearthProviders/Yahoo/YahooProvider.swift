import Foundation
import HearthCore

extension ProviderDescription {
    /// Yahoo (`yahoo.com`): OpenID Connect ID tokens (ES256) checked against Yahoo's discovery document and
    /// keys; browser sign-in with the client secret (code + PKCE + nonce).
    static let yahoo = ProviderDescription(
        id: "yahoo.com", name: "Yahoo", isFamily: false, settingsKey: "yahoo", adminCollection: .defaultSupported,
        read: { source, p in
            p.yahoo.enabled = try source.bool("providers.yahoo.enabled") ?? p.yahoo.enabled
            p.yahoo.clientIDs = try source.stringArray("providers.yahoo.clientIds") ?? p.yahoo.clientIDs
            if let secret = try source.secret("providers.yahoo.clientSecret") { p.yahoo.clientSecret = secret }
            p.yahoo.discoveryURL = try source.url("providers.yahoo.discoveryURL") ?? p.yahoo.discoveryURL
            if p.yahoo.enabled, p.yahoo.clientIDs.isEmpty {
                throw source.problem("providers.yahoo.clientIds", "Yahoo sign-in needs the app's Client ID")
            }
        },
        isSwitchedOn: { $0.yahoo.enabled },
        adopt: { p, other in p.yahoo = other.yahoo },
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
        apply: { setting, p in
            p.yahoo.enabled = setting.enabled
            p.yahoo.clientIDs = setting.clientIDs
            p.yahoo.clientSecret = ProviderSecret(setting.clientSecret ?? "")
        },
        validate: { try checkCredentials($0, audiences: true) },
        formerNames: ["clientIds": "clientIDs"])
}
