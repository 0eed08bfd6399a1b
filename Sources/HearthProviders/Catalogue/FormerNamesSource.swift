import Foundation

extension ProviderDescription {
    /// The former name of `key` (`providers.facebook.clientId`: `providers.facebook.appID`), when its last
    /// component was renamed in this provider's section (a family's: in any member's).
    public func formerName(of key: String) -> String? {
        let section = "providers.\(settingsKey)."
        guard key.hasPrefix(section) else { return nil }
        let parts = key.dropFirst(section.count).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == (isFamily ? 2 : 1), let last = parts.last, !parts.contains(where: \.isEmpty),
            let former = formerNames[String(last)]
        else { return nil }
        return section + (isFamily ? "\(parts[0])." : "") + former
    }
}

/// A provider's section read by the settings' names, or by their former names when only those are set.
struct FormerNamesSource: ProviderSettingsSource {
    let base: any ProviderSettingsSource
    let description: ProviderDescription

    /// The value under `key`, else under its former name.
    private func read<T>(_ key: String, _ get: (String) throws -> T?) throws -> T? {
        if let value = try get(key) { return value }
        guard let former = description.formerName(of: key) else { return nil }
        return try get(former)
    }

    func string(_ key: String, isSecret: Bool) throws -> String? { try read(key) { try base.string($0, isSecret: isSecret) } }
    func stringArray(_ key: String, isSecret: Bool) throws -> [String]? { try read(key) { try base.stringArray($0, isSecret: isSecret) } }
    func bool(_ key: String) throws -> Bool? { try read(key) { try base.bool($0) } }
    func int(_ key: String, in range: ClosedRange<Int>) throws -> Int? { try read(key) { try base.int($0, in: range) } }
    func problem(_ key: String, _ problem: String) -> any Error { base.problem(key, problem) }
}
