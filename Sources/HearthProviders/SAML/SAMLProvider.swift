import Foundation
import HearthCore
import HearthSAML

extension ProviderDescription {
    /// SAML 2.0 identity providers (`saml.<name>`), set up through the admin API's `inboundSamlConfigs` only:
    /// SP-initiated browser sign-in (an AuthnRequest by the HTTP-Redirect binding, the response posted to the redirect
    /// handler and verified by HearthSAML). There is no credential an app holds itself: `signInWithIdp` takes a SAML
    /// sign-in only from the browser flow.
    static let saml = ProviderDescription(
        id: "saml.", name: "SAML", isFamily: true, settingsKey: "saml", adminCollection: .inboundSaml,
        read: { _, _ in },
        isSwitchedOn: { _ in false },
        adopt: { p, other in p.saml = other.saml.merging(p.saml) { _, own in own } },
        adapters: { p, _ in
            // Known and switched on, with no verifier: a credential the app sends itself is refused.
            var adapters: [String: ProviderAdapters] = [:]
            for (name, provider) in p.saml where provider.isUsable { adapters["saml.\(name)"] = ProviderAdapters() }
            return adapters
        },
        browserFlow: BrowserFlow(
            supports: { p, providerID in p.saml[String(providerID.dropFirst("saml.".count))]?.isUsable ?? false },
            start: { flows, request, _ in try flows.samlStart(request) },
            finish: { flows, callback in try await flows.samlFinish(callback) }),
        apply: { setting, p in
            let name = String(setting.providerID.dropFirst("saml.".count))
            let stored = setting.saml
            var saml = ProvidersConfiguration.SAML(
                enabled: setting.enabled, idpEntityID: stored.idpEntityID ?? "", ssoURL: stored.ssoURL ?? "",
                idpCertificates: stored.idpCertificates ?? [], signsRequests: stored.signsRequests ?? false,
                spEntityID: stored.spEntityID ?? "", callbackURI: stored.callbackURI.flatMap { $0.isEmpty ? nil : $0 })
            saml.spSigningKey = ProviderSecret(stored.spSigningKey ?? "")
            saml.displayName = setting.displayName
            p.saml[name] = saml
        },
        validate: { setting in try validateSAML(setting) })

    /// What a `saml.<name>` setting must hold, whether enabled or not (as Identity Platform checks it):
    /// `INVALID_CONFIG : …` for a missing IdP entity ID, SSO URL, certificate or SP entity ID, an SSO or callback URL
    /// that is not an absolute http(s) URL, or a certificate that does not parse.
    static func validateSAML(_ setting: IdentityProviderSetting) throws {
        let saml = setting.saml
        guard present(saml.idpEntityID) else { throw HearthError(.invalidConfig, detail: "idpConfig.idpEntityId is required") }
        guard let sso = saml.ssoURL, isHTTPURL(sso) else {
            throw HearthError(.invalidConfig, detail: "idpConfig.ssoUrl must be an absolute http(s) URL")
        }
        guard let certificates = saml.idpCertificates, !certificates.isEmpty else {
            throw HearthError(.invalidConfig, detail: "idpConfig.idpCertificates needs at least one x509Certificate")
        }
        for (index, pem) in certificates.enumerated() {
            do {
                _ = try SAMLCertificate(pem)
            } catch {
                throw HearthError(.invalidConfig, detail: "idpConfig.idpCertificates[\(index)] is not an X.509 certificate with an RSA key")
            }
        }
        guard present(saml.spEntityID) else { throw HearthError(.invalidConfig, detail: "spConfig.spEntityId is required") }
        if let callback = saml.callbackURI, !callback.isEmpty, !isHTTPURL(callback) {
            throw HearthError(.invalidConfig, detail: "spConfig.callbackUri must be an absolute http(s) URL")
        }
    }

    private static func isHTTPURL(_ text: String) -> Bool {
        guard let url = URL(string: text), ["https", "http"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else { return false }
        return true
    }
}
