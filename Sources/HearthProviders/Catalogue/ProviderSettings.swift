import Foundation

/// A provider's settings type (``ProvidersConfiguration/Yahoo``, …): kept in ``ProvidersConfiguration`` by
/// its provider id, so that the configuration has no stored property per provider. Each provider's folder
/// declares the conformance and a typed accessor (`providers.yahoo`).
public protocol ProviderSettings: Sendable, Equatable, CustomStringConvertible {
    /// Firebase's provider id (`yahoo.com`).
    static var providerID: String { get }
    /// The provider's defaults: off, real endpoints.
    static var defaults: Self { get }
    /// Whether the provider is switched on.
    var enabled: Bool { get set }
}

extension ProviderSettings {
    /// Whether `other` holds the same settings.
    func isEqual(to other: any ProviderSettings) -> Bool { (other as? Self) == self }
}

extension ProvidersConfiguration {
    /// The settings of the provider `type` belongs to, its defaults when none were set.
    public subscript<Settings: ProviderSettings>(_ type: Settings.Type) -> Settings {
        get { providerSettings[Settings.providerID] as? Settings ?? Settings.defaults }
        set { providerSettings[Settings.providerID] = newValue }
    }
}
