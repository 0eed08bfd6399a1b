import Foundation
import HearthProviders

/// A setting named by its former name (`providers.facebook.appID`, now `providers.facebook.clientId`):
/// still read, with a warning at start-up. When the new name is set too, the new name wins.
public struct RenamedSettingUse: Sendable, Equatable, CustomStringConvertible {
    /// As written: the dotted key of a file, or the environment variable.
    public let name: String
    public let source: UnknownSetting.Source
    /// The setting's name now, in the same form.
    public let newName: String
    /// Whether the new name is set as well (in the file or the environment), so the former one is ignored.
    public let isOverridden: Bool

    public var description: String {
        let place =
            switch source {
            case .environment: "environment"
            case .file(let path): path
            }
        return isOverridden
            ? "\(name) (\(place)) is deprecated and ignored: \(newName) is set too and wins; remove \(name)"
            : "\(name) (\(place)) is deprecated: rename it \(newName)"
    }
}

extension KnownSettings {
    /// Every renamed setting as (former name, name), dotted; an OpenID Connect provider's with
    /// ``providerName`` in place of its name.
    public static let renamed: [(former: String, name: String)] = ProviderCatalogue.all.flatMap { description in
        let section = "providers.\(description.settingsKey)." + (description.isFamily ? "\(providerName)." : "")
        return description.formerNames.sorted { $0.key < $1.key }.map { (former: section + $0.value, name: section + $0.key) }
    }

    /// The former names among `fileKeys` (from `file`) and the `environment` variable names, each with its
    /// new name. A variable whose name did not change (`HEARTH_PROVIDERS_GOOGLE_CLIENT_IDS` is both
    /// `clientIDs` and `clientIds`) is not reported. `oidcNames` are the configured `providers.oidc.names`.
    public static func renamedInUse(
        fileKeys: [String], file: String? = nil, environment: [String], oidcNames: [String]
    ) -> [RenamedSettingUse] {
        let pairs = renamed(oidcNames: oidcNames)
        let files = Set(fileKeys)
        let variables = Set(environment)
        var found: [RenamedSettingUse] = []
        for pair in pairs {
            let formerVariable = environmentName(of: pair.former)
            let variable = environmentName(of: pair.name)
            let newIsSet = files.contains(pair.name) || variables.contains(variable)
            if files.contains(pair.former) {
                found.append(
                    RenamedSettingUse(
                        name: pair.former, source: .file(file ?? "configuration file"), newName: pair.name, isOverridden: newIsSet))
            }
            if formerVariable != variable, variables.contains(formerVariable) {
                found.append(RenamedSettingUse(name: formerVariable, source: .environment, newName: variable, isOverridden: newIsSet))
            }
        }
        return found
    }

    /// ``renamed`` with the keys of each of `oidcNames` in place of the placeholder ones.
    static func renamed(oidcNames: [String]) -> [(former: String, name: String)] {
        renamed.flatMap { pair -> [(former: String, name: String)] in
            guard pair.former.contains(providerName) else { return [pair] }
            return oidcNames.map { oidc in
                (pair.former.replacingOccurrences(of: providerName, with: oidc), pair.name.replacingOccurrences(of: providerName, with: oidc))
            }
        }
    }
}
