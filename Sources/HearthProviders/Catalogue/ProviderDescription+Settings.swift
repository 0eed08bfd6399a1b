import Foundation
import HearthCore

/// Checks every built-in provider's admin setting shares.
extension ProviderDescription {
    /// The most client ids `whitelistedAudiences` holds, and the longest one.
    static let maxAdditionalClientIDs = 50
    static let maxClientIDLength = 256

    /// Whether `value` has something besides white space.
    static func present(_ value: String?) -> Bool { !(value ?? "").trimmingCharacters(in: .whitespaces).isEmpty }

    /// An enabled setting needs a client id (`INVALID_OAUTH_CLIENT_ID`) and, with `secret`, a client secret
    /// (`INVALID_CONFIG`); Microsoft's tenant settings belong to Microsoft alone, and `whitelistedAudiences`
    /// to the providers that accept more than one client id (`audiences`).
    static func checkCredentials(_ setting: IdentityProviderSetting, secret: Bool = false, audiences: Bool = false) throws {
        try refuseMicrosoftSettings(setting)
        if audiences {
            try checkAudiences(setting)
        } else if setting.additionalClientIDs != nil {
            throw HearthError(
                .invalidConfig, detail: "whitelistedAudiences is only for apple.com, google.com, microsoft.com, yahoo.com and oidc. providers")
        }
        guard setting.enabled else { return }
        guard present(setting.clientID) else { throw HearthError(.invalidOAuthClientID, detail: "clientId is required") }
        if secret, !present(setting.clientSecret) { throw HearthError(.invalidConfig, detail: "clientSecret is required") }
    }

    /// `whitelistedAudiences`: client ids besides `clientId` (which it needs), each without white space or
    /// control characters, a bounded number of bounded length.
    static func checkAudiences(_ setting: IdentityProviderSetting) throws {
        guard let additional = setting.additionalClientIDs, !additional.isEmpty else { return }
        guard present(setting.clientID) else { throw HearthError(.invalidConfig, detail: "whitelistedAudiences needs a clientId") }
        let wellFormed = additional.allSatisfy { id in
            !id.isEmpty && id.count <= maxClientIDLength
                && !id.unicodeScalars.contains { CharacterSet.whitespacesAndNewlines.contains($0) || CharacterSet.controlCharacters.contains($0) }
        }
        guard additional.count <= maxAdditionalClientIDs, wellFormed else {
            throw HearthError(
                .invalidConfig,
                detail: "whitelistedAudiences must be at most \(maxAdditionalClientIDs) client IDs of 1 to \(maxClientIDLength) characters, "
                    + "without spaces or control characters")
        }
    }

    /// `microsoftSignInConfig` on any provider but Microsoft is `INVALID_CONFIG`.
    static func refuseMicrosoftSettings(_ setting: IdentityProviderSetting) throws {
        if setting.microsoftTenant != nil || setting.microsoftAllowedTenantIDs != nil {
            throw HearthError(.invalidConfig, detail: "microsoftSignInConfig is only for microsoft.com")
        }
    }
}
