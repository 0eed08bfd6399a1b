import Foundation
import HearthCore

/// The catalogue's rules for a stored provider setting (``ProviderCatalogue/validate(_:)``), and a new SAML provider's
/// SP key (``SAMLServiceProviderKey``), for HearthCore's ``ProviderSettingsChanges``.
public struct CatalogueChecking: ProviderSettingsChecking {
    public init() {}

    public func prepareNew(_ setting: inout IdentityProviderSetting, now: Date) throws {
        if ProviderCatalogue.describes(setting.providerID, in: .inboundSaml) { try SAMLServiceProviderKey.generate(into: &setting, now: now) }
    }

    public func check(_ setting: IdentityProviderSetting) throws {
        try ProviderCatalogue.validate(setting)
    }
}
