import Foundation
import HearthCore

/// A provider's own part of its admin settings: an object of the admin API's `defaultSupportedIdpConfigs`
/// body (`appleSignInConfig`, `microsoftSignInConfig`) that only that provider has. Its description declares
/// it; the admin API copies it into ``IdentityProviderSetting/providerSpecific`` field by field (an
/// `updateMask` names the fields by path) and answers it without the secret fields. Only the provider's folder
/// interprets the values.
public struct AdminSection: Sendable {
    /// The body's key (`appleSignInConfig`).
    public let name: String
    /// The fields, by path within the section (`["codeFlowConfig", "teamId"]`).
    public let fields: [[String]]
    /// The fields that are accepted and never answered.
    public let secretFields: Set<[String]>
    /// Whether an answer carries the section even when it holds nothing to show (as `{}`).
    public let alwaysShown: Bool
    /// The top-level key under which an earlier version stored a field, by the field's path: still read,
    /// dropped when the field is written.
    let legacyKeys: [[String]: String]

    init(
        name: String, fields: [[String]], secretFields: Set<[String]> = [], alwaysShown: Bool = false, legacyKeys: [[String]: String] = [:]
    ) {
        self.name = name
        self.fields = fields
        self.secretFields = secretFields
        self.alwaysShown = alwaysShown
        self.legacyKeys = legacyKeys
    }

    /// Copies the section's fields from `body` (the request's section, `nil` when absent) into `setting`:
    /// each field the body has, or with an update mask (`masked` answers for a dotted field name) exactly the
    /// masked ones, a masked field absent from the body being cleared.
    func apply(_ body: JSONValue?, to setting: inout IdentityProviderSetting, masked: (String) -> Bool?) {
        for field in fields {
            let value = body?.value(at: field).flatMap { $0 == .null ? nil : $0 }
            guard masked(([name] + field).joined(separator: ".")) ?? (value != nil) else { continue }
            if let legacy = legacyKeys[field] { setting.providerSpecific[legacy] = nil }
            setting.setSpecific([name] + field, value)
        }
    }

    /// The section as answered for `setting`: its fields without the secret ones; `nil` when there is
    /// nothing to show and the section is not ``alwaysShown``.
    func answer(for setting: IdentityProviderSetting) -> JSONValue? {
        var shown: JSONValue = .object([:])
        for field in fields where !secretFields.contains(field) {
            if let value = setting.specific([name] + field) ?? legacyKeys[field].flatMap({ setting.providerSpecific[$0] }) {
                shown.set(field, value)
            }
        }
        return shown == .object([:]) && !alwaysShown ? nil : shown
    }
}

extension ProviderCatalogue {
    /// Every provider's admin sections, with the provider that owns each.
    static var adminSections: [(owner: ProviderDescription, section: AdminSection)] {
        all.flatMap { description in description.adminSections.map { (description, $0) } }
    }

    /// Copies every provider's section present in (or masked for) `body` into `setting`; ``validate(_:)``
    /// then refuses a section of another provider. `masked` answers for a dotted field name: `nil` without an
    /// update mask.
    public static func applyAdminSections(
        _ body: [String: JSONValue], to setting: inout IdentityProviderSetting, masked: (String) -> Bool?
    ) {
        for (_, section) in adminSections {
            section.apply(body[section.name], to: &setting, masked: masked)
        }
    }

    /// The admin sections of `setting`'s provider as answered (secrets left out), by name.
    public static func adminSectionAnswers(for setting: IdentityProviderSetting) -> [String: JSONValue] {
        var answers: [String: JSONValue] = [:]
        for section in description(of: setting.providerID)?.adminSections ?? [] {
            answers[section.name] = section.answer(for: setting)
        }
        return answers
    }

    /// `INVALID_CONFIG` for a section that belongs to another provider (`microsoftSignInConfig is only for
    /// microsoft.com`).
    static func refuseOtherProvidersSections(_ setting: IdentityProviderSetting) throws {
        for (owner, section) in adminSections where !owner.describes(setting.providerID) && setting.providerSpecific[section.name] != nil {
            throw HearthError(.invalidConfig, detail: "\(section.name) is only for \(owner.id)")
        }
    }
}

extension IdentityProviderSetting {
    /// The provider-specific value at `path` (section, then fields).
    func specific(_ path: [String]) -> JSONValue? {
        guard let first = path.first, let root = providerSpecific[first] else { return nil }
        let value = root.value(at: Array(path.dropFirst()))
        return value == .null ? nil : value
    }

    /// Sets (or with `nil` removes) the provider-specific value at `path`; an object left empty by a
    /// removal disappears.
    mutating func setSpecific(_ path: [String], _ value: JSONValue?) {
        guard let first = path.first else { return }
        var root = providerSpecific[first] ?? .object([:])
        if path.count == 1 {
            providerSpecific[first] = value
            return
        }
        root.set(Array(path.dropFirst()), value)
        providerSpecific[first] = root == .object([:]) ? nil : root
    }

    /// A string array at `path`, else the string array an earlier version stored under `legacyKey`.
    func specificStrings(_ path: [String], legacyKey: String) -> [String]? {
        guard case .array(let values)? = specific(path) ?? providerSpecific[legacyKey] else { return nil }
        return values.compactMap { if case .string(let text) = $0 { text } else { nil } }
    }

    /// A string at `path`, else the string an earlier version stored under `legacyKey`.
    func specificString(_ path: [String], legacyKey: String) -> String? {
        guard case .string(let text)? = specific(path) ?? providerSpecific[legacyKey] else { return nil }
        return text
    }

    /// Sets a value at `path`, dropping what an earlier version stored under `legacyKey`.
    mutating func setSpecific(_ path: [String], _ value: JSONValue?, replacing legacyKey: String) {
        providerSpecific[legacyKey] = nil
        setSpecific(path, value)
    }
}

extension JSONValue {
    /// The value at `path` inside nested objects; `self` for an empty path.
    func value(at path: [String]) -> JSONValue? {
        var current = self
        for key in path {
            guard case .object(let object) = current, let next = object[key] else { return nil }
            current = next
        }
        return current
    }

    /// Sets (or with `nil` removes) the value at `path`, making the objects on the way; objects left empty
    /// by a removal disappear.
    mutating func set(_ path: [String], _ value: JSONValue?) {
        guard let key = path.first else {
            self = value ?? .object([:])
            return
        }
        var object: [String: JSONValue] = if case .object(let existing) = self { existing } else { [:] }
        if path.count == 1 {
            object[key] = value
        } else {
            var child = object[key] ?? .object([:])
            child.set(Array(path.dropFirst()), value)
            object[key] = child == .object([:]) ? nil : child
        }
        self = .object(object)
    }
}

extension Array where Element == String {
    /// The strings as a JSON array.
    var json: JSONValue { .array(map { .string($0) }) }
}
