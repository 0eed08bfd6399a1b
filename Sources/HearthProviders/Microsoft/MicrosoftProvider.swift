import Foundation
import HearthCore

extension ProviderDescription {
    /// Microsoft identity platform v2.0 (`microsoft.com`): ID tokens checked against the tenant rule;
    /// browser sign-in with the client secret (code + PKCE + nonce, tenant from the `tenant` parameter).
    static let microsoft = ProviderDescription(
        id: "microsoft.com", name: "Microsoft", settings: ProvidersConfiguration.Microsoft.self, settingsKey: "microsoft",
        keys: [
            .bool("enabled", \.enabled), .strings("clientIds", \.clientIDs), .string("tenant", \.tenant),
            .strings("allowedTenantIds", \.allowedTenantIDs), .tenantTemplate("jwksURLTemplate", \.jwksURLTemplate, placeholderRequired: false),
            .tenantTemplate("discoveryURLTemplate", \.discoveryURLTemplate, placeholderRequired: false), .secret("clientSecret", \.clientSecret),
            .tenantTemplate("authorizationURLTemplate", \.authorizationURLTemplate), .tenantTemplate("tokenURLTemplate", \.tokenURLTemplate),
        ],
        check: { microsoft, source, key in
            if microsoft.enabled, microsoft.clientIDs.isEmpty {
                throw source.problem(key("clientIds"), "Microsoft sign-in needs the application (client) ID")
            }
        },
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
        apply: { setting, microsoft in
            microsoft.enabled = setting.enabled
            microsoft.clientIDs = setting.clientIDs
            microsoft.clientSecret = ProviderSecret(setting.clientSecret ?? "")
            // Replaced only by a setting that has one: storing a client id never widens the tenants allowed.
            if let tenant = setting.microsoftTenant { microsoft.tenant = tenant }
            if let allowed = setting.microsoftAllowedTenantIDs { microsoft.allowedTenantIDs = allowed }
        },
        validate: { setting in
            if let tenant = setting.microsoftTenant, !MicrosoftTenantRule.isValid(tenant) {
                throw HearthError(
                    .invalidConfig, detail: "microsoftSignInConfig.tenant must be common, organizations, consumers, a tenant ID or a domain")
            }
            if let allowed = setting.microsoftAllowedTenantIDs, !allowed.allSatisfy(MicrosoftTenantRule.isGUID) {
                throw HearthError(.invalidConfig, detail: "microsoftSignInConfig.allowedTenantIds must be tenant IDs (GUIDs)")
            }
            try checkCredentials(setting)
        },
        formerNames: ["clientIds": "clientIDs", "allowedTenantIds": "allowedTenantIDs"], acceptsAdditionalClientIDs: true,
        adminSections: [IdentityProviderSetting.microsoftSection])
}
