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
    /// (`INVALID_CONFIG`); `whitelistedAudiences` belongs to the providers that accept more than one client id
    /// (``acceptsAdditionalClientIDs``). (A section of another provider was refused before:
    /// ``ProviderCatalogue/validate(_:)``.)
    static func checkCredentials(_ setting: IdentityProviderSetting, secret: Bool = false) throws {
        if ProviderCatalogue.description(of: setting.providerID)?.acceptsAdditionalClientIDs == true {
            try checkAudiences(setting)
        } else if setting.additionalClientIDs != nil {
            let ids = ProviderCatalogue.all.filter(\.acceptsAdditionalClientIDs)
            let named = ids.filter { !$0.isFamily }.map(\.id).sorted() + ids.filter(\.isFamily).map(\.id)
            let list = named.count > 1 ? named.dropLast().joined(separator: ", ") + " and " + named[named.count - 1] : named.joined()
            throw HearthError(.invalidConfig, detail: "whitelistedAudiences is only for \(list) providers")
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
}
