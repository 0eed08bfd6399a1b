import Foundation
import HearthCore

extension ProviderDescription {
    /// Microsoft identity platform v2.0 (`microsoft.com`): ID tokens checked against the tenant rule;
    /// browser sign-in with the client secret (code + PKCE + nonce, tenant from the `tenant` parameter).
    static let microsoft = ProviderDescription(
        id: "microsoft.com", name: "Microsoft", isFamily: false, settingsKey: "microsoft", adminCollection: .defaultSupported,
        read: { source, p in
            p.microsoft.enabled = try source.bool("providers.microsoft.enabled") ?? p.microsoft.enabled
            p.microsoft.clientIDs = try source.stringArray("providers.microsoft.clientIds") ?? p.microsoft.clientIDs
            p.microsoft.tenant = try source.string("providers.microsoft.tenant") ?? p.microsoft.tenant
            p.microsoft.allowedTenantIDs = try source.stringArray("providers.microsoft.allowedTenantIds") ?? p.microsoft.allowedTenantIDs
            p.microsoft.jwksURLTemplate =
                try source.tenantTemplate("providers.microsoft.jwksURLTemplate", placeholderRequired: false) ?? p.microsoft.jwksURLTemplate
            p.microsoft.discoveryURLTemplate =
                try source.tenantTemplate("providers.microsoft.discoveryURLTemplate", placeholderRequired: false) ?? p.microsoft.discoveryURLTemplate
            if p.microsoft.enabled, p.microsoft.clientIDs.isEmpty {
                throw source.problem("providers.microsoft.clientIds", "Microsoft sign-in needs the application (client) ID")
            }
            if let value = try source.secret("providers.microsoft.clientSecret") { p.microsoft.clientSecret = value }
            p.microsoft.authorizationURLTemplate =
                try source.tenantTemplate("providers.microsoft.authorizationURLTemplate") ?? p.microsoft.authorizationURLTemplate
            p.microsoft.tokenURLTemplate = try source.tenantTemplate("providers.microsoft.tokenURLTemplate") ?? p.microsoft.tokenURLTemplate
        },
        isSwitchedOn: { $0.microsoft.enabled },
        adopt: { p, other in p.microsoft = other.microsoft },
        adapters: { p, tools in
            guard p.microsoft.isUsable else { return [:] }
            return [
                "microsoft.com": ProviderAdapters(
                    idToken: MicrosoftIDTokenVerifier(configuration: p.microsoft, validator: tools.validator, discovery: tools.discovery))
            ]
        },
        browserFlow: BrowserFlow(
            supports: { p, _ in p.microsoft.supportsBrowserSignIn },
            start: { flows, request, custom in
                let tenant = try flows.microsoftTenant(request.customParameters["tenant"])
                let endpoint = try flows.templateURL(flows.configuration.microsoft.authorizationURLTemplate, tenant: tenant)
                var withoutTenant = custom
                withoutTenant["tenant"] = nil
                return try flows.codeFlowStart(
                    request, endpoint: endpoint, clientID: flows.configuration.microsoft.clientIDs.first ?? "",
                    defaultScopes: ["openid", "profile", "email"], custom: withoutTenant, extra: ["tenant": tenant],
                    responseMode: "query")
            },
            finish: { flows, callback in
                try await flows.finishCodeFlow(callback) { code in
                    let microsoft = flows.configuration.microsoft
                    let endpoint = try flows.failing {
                        try flows.templateURL(microsoft.tokenURLTemplate, tenant: callback.pending["tenant"] ?? microsoft.tenant)
                    }
                    return try await flows.exchangeCode(
                        code, callback: callback, endpoint: endpoint,
                        credentials: [("client_id", microsoft.clientIDs.first ?? ""), ("client_secret", microsoft.clientSecret.value)])
                }
            }),
        apply: { setting, p in
            p.microsoft.enabled = setting.enabled
            p.microsoft.clientIDs = setting.clientIDs
            p.microsoft.clientSecret = ProviderSecret(setting.clientSecret ?? "")
            // Replaced only by a setting that has one: storing a client id never widens the tenants allowed.
            if let tenant = setting.microsoftTenant { p.microsoft.tenant = tenant }
            if let allowed = setting.microsoftAllowedTenantIDs { p.microsoft.allowedTenantIDs = allowed }
        },
        validate: { setting in
            if let tenant = setting.microsoftTenant, !MicrosoftTenantRule.isValid(tenant) {
                throw HearthError(
                    .invalidConfig, detail: "microsoftSignInConfig.tenant must be common, organizations, consumers, a tenant ID or a domain")
            }
            if let allowed = setting.microsoftAllowedTenantIDs, !allowed.allSatisfy(MicrosoftTenantRule.isGUID) {
                throw HearthError(.invalidConfig, detail: "microsoftSignInConfig.allowedTenantIds must be tenant IDs (GUIDs)")
            }
            var withoutTenant = setting
            withoutTenant.microsoftTenant = nil
            withoutTenant.microsoftAllowedTenantIDs = nil
            try checkCredentials(withoutTenant, audiences: true)
        },
        formerNames: ["clientIds": "clientIDs", "allowedTenantIds": "allowedTenantIDs"])
}
