import Configuration
import Foundation
import Synchronization
import Yams

/// A setting a configuration names that Hearth never reads: a typo such as `sever:` for `server:` or
/// `HEARTH_SIGNIN_ANONYMOUS_ENABLED`, which would otherwise leave the default in force without a word.
public struct UnknownSetting: Sendable, Equatable, CustomStringConvertible {
    public enum Source: Sendable, Equatable {
        case environment
        /// The configuration file at this path.
        case file(String)
    }

    /// As written: `HEARTH_SIGNIN_ANONYMOUS_ENABLED`, or `sever.port` for a nested key of a file.
    public let name: String
    public let source: Source
    /// The nearest known setting, in the same form (an environment variable for one).
    public let suggestion: String?
    /// Why a key of the right shape is not read (an OpenID Connect provider not in `providers.oidc.names`).
    public let note: String?

    public var description: String {
        let place =
            switch source {
            case .environment: "environment"
            case .file(let path): path
            }
        var text = "unknown setting \(name) (\(place))"
        if let note { text += ": \(note)" }
        if let suggestion {
            text += "; did you mean \(suggestion)?"
        } else if note == nil {
            text += "; see docs/configuration.md for the settings"
        }
        return text
    }
}

/// The settings Hearth reads, found by reading a configuration and noting every key asked for, so the
/// list cannot drift from ``ServerConfiguration/init(reader:defaultMode:)``; and the check of a file's keys
/// and of the process's `HEARTH_*` variables against it.
public enum KnownSettings {
    /// Stands for the name of an OpenID Connect provider in ``keys``: `providers.oidc.<name>.issuer`.
    public static let providerName = "<name>"

    /// Every dotted key the configuration reader reads, sorted; the keys of each OpenID Connect provider
    /// with ``providerName`` in place of its name.
    public static let keys: [String] = {
        let placeholder = "hearth-known-settings-provider"
        let recorder = KeyRecorder()
        let example: [AbsoluteConfigKey: ConfigValue] = [
            "providers.oidc.names": .init(.stringArray([placeholder]), isSecret: false),
            AbsoluteConfigKey(ConfigKey("providers.oidc.\(placeholder).issuer")): .init(.string("https://issuer.example"), isSecret: false),
            AbsoluteConfigKey(ConfigKey("providers.oidc.\(placeholder).clientIds")): .init(.stringArray(["client"]), isSecret: false),
        ]
        _ = try? ServerConfiguration(reader: ConfigReader(provider: InMemoryProvider(values: example), accessReporter: recorder))
        // The reader asks for a former name only while the new one is absent (here: all but the example provider's clientIds).
        let read = recorder.keys.map { $0.replacingOccurrences(of: ".\(placeholder).", with: ".\(providerName).") }
        return Set(read + renamed.map(\.former)).sorted()
    }()

    /// `HEARTH_*` variables that are not settings of the server: the client SDK's, and those of the tests
    /// and scripts. They are never reported.
    public static let foreignEnvironmentVariables: Set<String> = [
        "HEARTH_SERVER_URL", "HEARTH_API_KEY",  // HearthAuth's HearthApp.configure()
        "HEARTH_TEST_DATABASE", "HEARTH_PG_BIN",  // the tests and the benchmark
        "HEARTH_BIN",  // scripts/fuzz.sh
    ]
    /// Prefixes of `HEARTH_*` variables that are not settings (scripts/fuzz.sh hands these to its hooks).
    public static let foreignEnvironmentPrefixes = ["HEARTH_FUZZ_"]

    /// The environment variable of a dotted key, as swift-configuration's environment provider looks it up:
    /// camelCase words split by `_`, upper-cased, every other character `_`, and `HEARTH_` in front.
    public static func environmentName(of key: String) -> String {
        let components = key.split(separator: ".", omittingEmptySubsequences: false).map { component -> String in
            var words = ""
            var previous: Character?
            for character in component {
                if let previous, previous.isLowercase, character.isUppercase { words.append("_") }
                words.append(character)
                previous = character
            }
            return words.uppercased().map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
        }
        return "HEARTH_" + components.joined(separator: "_")
    }

    /// The settings among `fileKeys` (dotted, from `file`) and the `environment` variable names that Hearth
    /// does not read, each with the nearest known one. `oidcNames` are the configured
    /// `providers.oidc.names`: only their keys are read.
    public static func unknown(
        fileKeys: [String], file: String? = nil, environment: [String], oidcNames: [String]
    ) -> [UnknownSetting] {
        let exact = keys.filter { !$0.contains(providerName) }
        let providerLeaves = keys.compactMap { key -> String? in
            let prefix = "providers.oidc.\(providerName)."
            return key.hasPrefix(prefix) ? String(key.dropFirst(prefix.count)) : nil
        }
        let providerKeys = oidcNames.flatMap { name in providerLeaves.map { "providers.oidc.\(name).\($0)" } }
        let fileKnown = exact + providerKeys
        let fileKnownSet = Set(fileKnown)
        // Suggestions name settings by their new names: a typo of a former name gets the new one.
        let renamedPairs = renamed(oidcNames: oidcNames)
        let newKeys = Dictionary(renamedPairs.map { ($0.former, $0.name) }) { first, _ in first }
        var found: [UnknownSetting] = []
        for key in fileKeys.sorted() where !fileKnownSet.contains(key) {
            let source = UnknownSetting.Source.file(file ?? "configuration file")
            if let name = providerName(in: key, leaves: providerLeaves, prefix: "providers.oidc.", separator: ".") {
                found.append(UnknownSetting(name: key, source: source, suggestion: nil, note: unlistedNote(name)))
            } else {
                let suggestion = nearest(to: key, among: fileKnown, separator: ".").map { newKeys[$0] ?? $0 }
                found.append(UnknownSetting(name: key, source: source, suggestion: suggestion, note: nil))
            }
        }

        let environmentKnown = fileKnown.map(environmentName(of:))
        let environmentKnownSet = Set(environmentKnown)
        let newVariables = Dictionary(renamedPairs.map { (environmentName(of: $0.former), environmentName(of: $0.name)) }) { first, _ in first }
        let encodedLeaves = providerLeaves.map { String(environmentName(of: $0).dropFirst("HEARTH_".count)) }
        for name in environment.sorted() where name.hasPrefix("HEARTH_") && !environmentKnownSet.contains(name) {
            if foreignEnvironmentVariables.contains(name) || foreignEnvironmentPrefixes.contains(where: name.hasPrefix) { continue }
            if let provider = providerName(in: name, leaves: encodedLeaves, prefix: "HEARTH_PROVIDERS_OIDC_", separator: "_") {
                found.append(UnknownSetting(name: name, source: .environment, suggestion: nil, note: unlistedNote(provider.lowercased())))
            } else {
                let suggestion = nearest(to: name, among: environmentKnown, separator: "_").map { newVariables[$0] ?? $0 }
                found.append(UnknownSetting(name: name, source: .environment, suggestion: suggestion, note: nil))
            }
        }
        return found
    }

    /// The leaf keys of a YAML (or, for a path ending in `.json`, JSON) configuration file, dotted as the
    /// file provider reads them: nested maps join with `.`, a list is one value.
    public static func fileKeys(atPath path: String) throws -> [String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var keys: [String] = []
        if path.hasSuffix(".json") {
            func walk(_ value: Any, _ prefix: String) {
                guard let object = value as? [String: Any] else {
                    if !prefix.isEmpty { keys.append(prefix) }
                    return
                }
                for (key, child) in object { walk(child, prefix.isEmpty ? key : "\(prefix).\(key)") }
            }
            walk(try JSONSerialization.jsonObject(with: data), "")
        } else {
            func walk(_ node: Node, _ prefix: String) {
                guard let mapping = node.mapping else {
                    if !prefix.isEmpty { keys.append(prefix) }
                    return
                }
                for (key, child) in mapping {
                    let name = key.string ?? key.scalar?.string ?? "?"
                    walk(child, prefix.isEmpty ? name : "\(prefix).\(name)")
                }
            }
            if let root = try Yams.compose(yaml: String(decoding: data, as: UTF8.self)) { walk(root, "") }
        }
        return keys.sorted()
    }

    /// `providers.oidc.names` as the reader gives it (a list, or a comma-separated string from the environment).
    public static func oidcNames(in reader: ConfigReader) -> [String] {
        let names =
            reader.stringArray(forKey: "providers.oidc.names")
            ?? reader.string(forKey: "providers.oidc.names").map { $0.split(separator: ",").map(String.init) } ?? []
        return names.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The provider name in `key` when it reads `<prefix><name><separator><leaf>` for a known leaf.
    private static func providerName(in key: String, leaves: [String], prefix: String, separator: String) -> String? {
        guard key.hasPrefix(prefix) else { return nil }
        let rest = key.dropFirst(prefix.count)
        for leaf in leaves where rest.hasSuffix(separator + leaf) && rest.count > leaf.count + separator.count {
            return String(rest.dropLast(leaf.count + separator.count))
        }
        return nil
    }

    private static func unlistedNote(_ name: String) -> String {
        "the OpenID Connect provider \(name) is not in providers.oidc.names (HEARTH_PROVIDERS_OIDC_NAMES); add it there to use these keys"
    }

    /// The known name closest to `name`: by edit distance (ignoring case) when it is small for the name's
    /// length, else one that ends with the same last word (`HEARTH_PORT`: `HEARTH_SERVER_PORT`).
    static func nearest(to name: String, among known: [String], separator: Character) -> String? {
        let lowered = name.lowercased()
        let scored = known.map { ($0, editDistance(lowered, $0.lowercased())) }
        if let best = scored.min(by: { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }), best.1 <= max(2, name.count / 4) {
            return best.0
        }
        guard let last = lowered.split(separator: separator).last else { return nil }
        return scored.filter { $0.0.lowercased().hasSuffix(String(separator) + last) }.min { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }?.0
    }

    /// Levenshtein distance: insertions, deletions and substitutions of characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}

/// Notes every key a ``ConfigReader`` is asked for.
private final class KeyRecorder: AccessReporter {
    private let recorded = Mutex<[String]>([])

    var keys: [String] { recorded.withLock { $0 } }

    func report(_ event: AccessEvent) {
        let key = event.metadata.key.components.joined(separator: ".")
        recorded.withLock { $0.append(key) }
    }
}
