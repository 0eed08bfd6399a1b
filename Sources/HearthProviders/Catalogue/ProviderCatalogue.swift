import Foundation
import HearthCore

/// Every identity provider Hearth knows, one ``ProviderDescription`` each. Adding a provider is a folder
/// with its description and one line here (docs/adding-a-provider.md).
public enum ProviderCatalogue {
    /// The descriptions, in the order settings are read and providers listed.
    public static let all: [ProviderDescription] = [
        .apple, .microsoft, .twitter, .google, .facebook, .gitHub, .yahoo, .oidc, .saml,
    ]

    /// The description of `providerID` (`google.com`, or `oidc.<name>` / `saml.<name>` for the families).
    public static func description(of providerID: String) -> ProviderDescription? {
        all.first { $0.describes(providerID) }
    }

    /// Whether Hearth knows `providerID`, configured or not: the answer to a known but switched-off provider
    /// is `OPERATION_NOT_ALLOWED`, to an unknown one an error about the id.
    public static func isKnown(_ providerID: String) -> Bool { description(of: providerID) != nil }

    /// Whether `accounts:revokeToken` can revoke `providerID`'s tokens.
    public static func revokesTokens(_ providerID: String?) -> Bool {
        providerID.flatMap(description(of:))?.revokesTokens ?? false
    }

    /// The ids of the built-in providers (every description that is not a family), in catalogue order.
    public static var builtInProviderIDs: [String] { all.filter { !$0.isFamily }.map(\.id) }

    /// The providers whose admin settings live in `collection`.
    public static func describes(_ providerID: String, in collection: ProviderDescription.AdminCollection) -> Bool {
        description(of: providerID)?.adminCollection == collection
    }

    /// Checks an administrator's setting for a provider: what an enabled provider cannot work without.
    public static func validate(_ setting: IdentityProviderSetting) throws {
        guard let description = description(of: setting.providerID) else {
            throw HearthError(.invalidProviderID, detail: "Provider Id is not supported.")
        }
        try refuseOtherProvidersSections(setting)
        try description.validate(setting)
    }
}

extension ProvidersConfiguration {
    /// Reads every provider's section, `providers.<key>.…`, from `source`.
    public static func reading(_ source: any ProviderSettingsSource) throws -> ProvidersConfiguration {
        var providers = ProvidersConfiguration()
        for description in ProviderCatalogue.all {
            try description.read(FormerNamesSource(base: source, description: description), &providers)
        }
        return providers
    }

    /// This configuration, with every provider it does not switch on taken from `fallback`: development mode
    /// keeps the providers a developer configured and points the others at the sandbox.
    public func fillingDisabled(from fallback: ProvidersConfiguration) -> ProvidersConfiguration {
        var merged = self
        for description in ProviderCatalogue.all where !description.isSwitchedOn(self) {
            description.adopt(&merged, fallback)
        }
        return merged
    }

    /// This configuration with every provider switched off and no OIDC provider, its endpoints, network limits and
    /// caching kept: where a tenant's providers start, as Identity Platform's tenants start with none (each tenant's
    /// administrator turns providers on with the tenant's own client ids through the admin API).
    public func switchedOff() -> ProvidersConfiguration {
        var providers = applying(ProviderCatalogue.builtInProviderIDs.map { IdentityProviderSetting(providerID: $0, enabled: false) })
        providers.oidc = [:]
        providers.saml = [:]
        return providers
    }

    /// This configuration with each stored setting taking the place of its provider's switch and
    /// credentials (client ids, secrets, signing keys, an OIDC issuer). Endpoints, caching and network limits
    /// stay as configured.
    public func applying(_ settings: [IdentityProviderSetting]) -> ProvidersConfiguration {
        var providers = self
        for setting in settings.sorted(by: { $0.providerID < $1.providerID }) {
            ProviderCatalogue.description(of: setting.providerID)?.apply(setting, &providers)
        }
        return providers
    }
}
