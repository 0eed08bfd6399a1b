import Foundation
import HearthCore

/// One configuration key of a provider's settings: its last component (`clientIds`, under
/// `providers.<settingsKey>.`, `HEARTH_PROVIDERS_<KEY>_CLIENTIDS` in the environment) and the property it
/// sets. A provider's folder lists its keys once; the configuration reader, the list of known settings and
/// their renamed former names all come from that list.
public struct SettingKey<Settings>: Sendable {
    /// The key's last component.
    public let name: String
    /// Reads the value of the full key `key` into the settings, leaving them as they are when it is absent.
    let read: @Sendable (_ source: any ProviderSettingsSource, _ key: String, _ settings: inout Settings) throws -> Void

    init(_ name: String, read: @escaping @Sendable (any ProviderSettingsSource, String, inout Settings) throws -> Void) {
        self.name = name
        self.read = read
    }

    /// A boolean.
    static func bool(_ name: String, _ path: any WritableKeyPath<Settings, Bool> & Sendable) -> Self {
        Self(name) { source, key, settings in if let value = try source.bool(key) { settings[keyPath: path] = value } }
    }

    /// A string.
    static func string(_ name: String, _ path: any WritableKeyPath<Settings, String> & Sendable) -> Self {
        Self(name) { source, key, settings in if let value = try source.string(key) { settings[keyPath: path] = value } }
    }

    /// A string that may be unset.
    static func string(_ name: String, _ path: any WritableKeyPath<Settings, String?> & Sendable) -> Self {
        Self(name) { source, key, settings in if let value = try source.string(key) { settings[keyPath: path] = value } }
    }

    /// A list of strings (a comma-separated string in the environment).
    static func strings(_ name: String, _ path: any WritableKeyPath<Settings, [String]> & Sendable) -> Self {
        Self(name) { source, key, settings in if let value = try source.stringArray(key) { settings[keyPath: path] = value } }
    }

    /// A secret, never logged.
    static func secret(_ name: String, _ path: any WritableKeyPath<Settings, ProviderSecret> & Sendable) -> Self {
        Self(name) { source, key, settings in if let value = try source.secret(key) { settings[keyPath: path] = value } }
    }

    /// A secret that may be unset.
    static func secret(_ name: String, _ path: any WritableKeyPath<Settings, ProviderSecret?> & Sendable) -> Self {
        Self(name) { source, key, settings in if let value = try source.secret(key) { settings[keyPath: path] = value } }
    }

    /// An absolute http(s) URL.
    static func url(_ name: String, _ path: any WritableKeyPath<Settings, URL> & Sendable) -> Self {
        Self(name) { source, key, settings in if let value = try source.url(key) { settings[keyPath: path] = value } }
    }

    /// A URL template with the `{tenant}` placeholder (required unless `placeholderRequired` is false).
    static func tenantTemplate(_ name: String, _ path: any WritableKeyPath<Settings, String> & Sendable, placeholderRequired: Bool = true) -> Self {
        Self(name) { source, key, settings in
            if let value = try source.tenantTemplate(key, placeholderRequired: placeholderRequired) { settings[keyPath: path] = value }
        }
    }
}

extension ProviderDescription {
    /// The description of a provider with one settings type, read key by key.
    ///
    /// - Parameters:
    ///   - keys: every key of the provider's section, in reading order.
    ///   - check: what an enabled provider needs, once every key is read; `problem` makes the error naming a
    ///     key of the section by its last component.
    init<Settings: ProviderSettings>(
        id: String, name: String, settings: Settings.Type, settingsKey: String, keys: [SettingKey<Settings>],
        check: @escaping @Sendable (_ settings: inout Settings, _ source: any ProviderSettingsSource, _ key: (String) -> String) throws -> Void,
        adapters: @escaping @Sendable (ProvidersConfiguration, ProviderTools) -> [String: ProviderAdapters], browserFlow: BrowserFlow?,
        apply: @escaping @Sendable (IdentityProviderSetting, inout Settings) -> Void,
        validate: @escaping @Sendable (IdentityProviderSetting) throws -> Void,
        federatedIDPrefix: String = "", formerNames: [String: String] = [:], acceptsAdditionalClientIDs: Bool = false,
        adminSections: [AdminSection] = [], revokesTokens: Bool = false
    ) {
        self.init(
            id: id, name: name, isFamily: false, settingsKey: settingsKey, adminCollection: .defaultSupported,
            read: { source, p in
                let section = "providers.\(settingsKey)."
                var settings = p[Settings.self]
                for key in keys { try key.read(source, section + key.name, &settings) }
                try check(&settings, source) { section + $0 }
                p[Settings.self] = settings
            },
            isSwitchedOn: { $0[Settings.self].enabled }, adopt: { p, other in p[Settings.self] = other[Settings.self] },
            adapters: adapters, browserFlow: browserFlow, apply: { setting, p in apply(setting, &p[Settings.self]) }, validate: validate,
            federatedIDPrefix: federatedIDPrefix, formerNames: formerNames, adminSections: adminSections,
            acceptsAdditionalClientIDs: acceptsAdditionalClientIDs, revokesTokens: revokesTokens,
            settingsText: { String(describing: $0[Settings.self]) })
    }
}
