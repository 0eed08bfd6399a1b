import Foundation
import HearthCore

extension ProviderDescription {
    /// Generic OpenID Connect providers (`oidc.<name>`, one per configured issuer): ID tokens checked against
    /// the issuer's discovery document and keys; browser sign-in with the client secret (code + PKCE + nonce).
    static let oidc = ProviderDescription(
        id: "oidc.", name: "OpenID Connect", isFamily: true, settingsKey: "oidc", adminCollection: .oauth,
        read: { source, p in
            for name in try source.stringArray("providers.oidc.names") ?? [] {
                let prefix = "providers.oidc.\(name)"
                guard name.range(of: #"^[a-z0-9][a-z0-9._-]*$"#, options: .regularExpression) != nil else {
                    throw source.problem("providers.oidc.names", "\(name) is not a valid provider name (oidc.<name>)")
                }
                guard let issuer = try source.string("\(prefix).issuer") else {
                    throw source.problem("\(prefix).issuer", "an OpenID Connect provider needs its issuer URL")
                }
                guard let clientIDs = try source.stringArray("\(prefix).clientIds"), !clientIDs.isEmpty else {
                    throw source.problem("\(prefix).clientIds", "an OpenID Connect provider needs at least one client ID")
                }
                var oidc = ProvidersConfiguration.OIDC(issuer: issuer, clientIDs: clientIDs)
                oidc.discoveryURL = try source.url("\(prefix).discoveryURL")
                if let secret = try source.secret("\(prefix).clientSecret") { oidc.clientSecret = secret }
                p.oidc[name] = oidc
            }
        },
        isSwitchedOn: { _ in false },
        adopt: { p, other in p.oidc = other.oidc.merging(p.oidc) { _, own in own } },
        adapters: { p, tools in
            var adapters: [String: ProviderAdapters] = [:]
            for (name, provider) in p.oidc where provider.isUsable {
                let id = "oidc.\(name)"
                adapters[id] = ProviderAdapters(
                    idToken: OIDCIDTokenVerifier(providerID: id, configuration: provider, validator: tools.validator, discovery: tools.discovery))
            }
            return adapters
        },
        browserFlow: BrowserFlow(
            supports: { p, providerID in p.oidc[String(providerID.dropFirst("oidc.".count))]?.supportsBrowserSignIn ?? false },
            start: { flows, request, custom in
                guard let oidc = flows.configuration.oidc[String(request.providerID.dropFirst("oidc.".count))] else {
                    throw HearthError(.invalidProviderID, detail: "Provider Id is not supported.")
                }
                return try await flows.discoveredCodeFlowStart(request, oidc, custom: custom)
            },
            finish: { flows, callback in
                guard let oidc = flows.configuration.oidc[String(callback.providerID.dropFirst("oidc.".count))] else {
                    throw AuthorizationFailure.refused("Unknown provider \(callback.providerID).")
                }
                return try await flows.finishDiscoveredCodeFlow(callback, oidc)
            }),
        apply: { setting, p in
            let name = String(setting.providerID.dropFirst("oidc.".count))
            let clientIDs = setting.clientIDs
            var oidc = p.oidc[name] ?? ProvidersConfiguration.OIDC(issuer: setting.issuer ?? "", clientIDs: clientIDs)
            oidc.enabled = setting.enabled
            oidc.clientIDs = clientIDs
            oidc.clientSecret = ProviderSecret(setting.clientSecret ?? "")
            if let issuer = setting.issuer, issuer != oidc.issuer {
                oidc.issuer = issuer
                oidc.discoveryURL = nil
            }
            p.oidc[name] = oidc
        },
        validate: { setting in
            guard present(setting.clientID) else { throw HearthError(.invalidOAuthClientID, detail: "clientId is required") }
            try checkAudiences(setting)
            guard let issuer = setting.issuer, let url = URL(string: issuer), ["https", "http"].contains(url.scheme ?? ""), url.host != nil
            else { throw HearthError(.invalidConfig, detail: "issuer must be an absolute http(s) URL") }
        },
        formerNames: ["clientIds": "clientIDs"], acceptsAdditionalClientIDs: true)
}
