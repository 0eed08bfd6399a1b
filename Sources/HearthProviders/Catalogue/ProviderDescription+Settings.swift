import Foundation
import HearthCore

/// Checks every built-in provider's admin setting shares.
extension ProviderDescription {
    /// Whether `value` has something besides white space.
    static func present(_ value: String?) -> Bool { !(value ?? "").trimmingCharacters(in: .whitespaces).isEmpty }

    /// An enabled setting needs a client id (`INVALID_OAUTH_CLIENT_ID`) and, with `secret`, a client secret
    /// (`INVALID_CONFIG`); Microsoft's tenant settings belong to Microsoft alone.
    static func checkCredentials(_ setting: IdentityProviderSetting, secret: Bool = false) throws {
        try refuseMicrosoftSettings(setting)
        guard setting.enabled else { return }
        guard present(setting.clientID) else { throw HearthError(.invalidOAuthClientID, detail: "clientId is required") }
        if secret, !present(setting.clientSecret) { throw HearthError(.invalidConfig, detail: "clientSecret is required") }
    }

    /// `microsoftSignInConfig` on any provider but Microsoft is `INVALID_CONFIG`.
    static func refuseMicrosoftSettings(_ setting: IdentityProviderSetting) throws {
        if setting.microsoftTenant != nil || setting.microsoftAllowedTenantIDs != nil {
            throw HearthError(.invalidConfig, detail: "microsoftSignInConfig is only for microsoft.com")
        }
    }
}
