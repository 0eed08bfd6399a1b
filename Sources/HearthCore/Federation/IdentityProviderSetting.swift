import Foundation

/// A provider's settings as an administrator stored them through the admin API. They take the place of
/// the configuration file's settings for that provider; endpoints stay as configured.
///
/// Stored as JSON in the settings table under ``storageName(for:)``, one row per provider, so that
/// replicas see a change on their next federated sign-in. The row is sealed at rest as a whole (it holds
/// ``clientSecret`` and may hold a provider's key; see ``SecretSealer/sealedSettingPrefixes``).
///
/// The fields every provider has are properties; what only one provider has (the admin API's section of
/// that provider, such as a `…SignInConfig` object) is ``providerSpecific``, which the provider's folder in
/// HearthProviders reads, checks and redacts. Core knows no provider by name.
public struct IdentityProviderSetting: Codable, Sendable, Equatable {
    /// A built-in provider's id (`google.com`) or `oidc.<name>` (HearthProviders' catalogue knows which).
    public var providerID: String
    public var enabled: Bool
    /// The OAuth client id (Twitter: the API key; Facebook: the app ID; some providers: the web client's).
    public var clientID: String?
    /// More client ids whose ID tokens are accepted (the wire's `whitelistedAudiences`): Google's iOS and
    /// Android clients, other services IDs, more Microsoft, Yahoo or OIDC apps. Rows stored before it
    /// existed decode with `nil`.
    public var additionalClientIDs: [String]?
    /// The OAuth client secret (Twitter: the API secret; Facebook: the app secret).
    public var clientSecret: String?
    /// OIDC: the issuer.
    public var issuer: String?
    /// OIDC: a name to show.
    public var displayName: String?
    /// OIDC: browser-flow response types.
    public var responseTypeIDToken: Bool?
    public var responseTypeCode: Bool?
    /// What only this setting's provider has, by name, as JSON: its admin API section, by the section's
    /// wire name. Stored beside the common fields, so every key of a stored row that is not a common field
    /// lands here (rows written by earlier versions included).
    public var providerSpecific: [String: JSONValue] = [:]

    /// Every accepted client id: ``clientID`` first (the one browser sign-in uses), then
    /// ``additionalClientIDs`` without repeats.
    public var clientIDs: [String] {
        var ids: [String] = []
        for id in [clientID].compactMap({ $0 }) + (additionalClientIDs ?? []) where !ids.contains(id) { ids.append(id) }
        return ids
    }

    public init(providerID: String, enabled: Bool) {
        self.providerID = providerID
        self.enabled = enabled
    }

    /// The settings-table prefix of every stored provider setting.
    public static let storagePrefix = "identity-provider/"

    public static func storageName(for providerID: String) -> String { storagePrefix + providerID }

    /// The setting as the store keeps it (a JSON text; ``init(storedText:)`` reads it back).
    public func storedText() throws -> String {
        String(decoding: try JSONEncoder().encode(self), as: UTF8.self)
    }

    public init?(storedText text: String) {
        guard let setting = try? JSONDecoder().decode(IdentityProviderSetting.self, from: Data(text.utf8)) else { return nil }
        self = setting
    }

    // MARK: Codable

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case providerID, enabled, clientID, additionalClientIDs, clientSecret, issuer, displayName, responseTypeIDToken, responseTypeCode
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        providerID = try container.decode(String.self, forKey: .providerID)
        enabled = try container.decode(Bool.self, forKey: .enabled)
        clientID = try container.decodeIfPresent(String.self, forKey: .clientID)
        additionalClientIDs = try container.decodeIfPresent([String].self, forKey: .additionalClientIDs)
        clientSecret = try container.decodeIfPresent(String.self, forKey: .clientSecret)
        issuer = try container.decodeIfPresent(String.self, forKey: .issuer)
        displayName = try container.decodeIfPresent(String.self, forKey: .displayName)
        responseTypeIDToken = try container.decodeIfPresent(Bool.self, forKey: .responseTypeIDToken)
        responseTypeCode = try container.decodeIfPresent(Bool.self, forKey: .responseTypeCode)
        let common = Set(CodingKeys.allCases.map(\.rawValue))
        let all = try decoder.container(keyedBy: AnyKey.self)
        for key in all.allKeys where !common.contains(key.stringValue) {
            let value = try all.decode(JSONValue.self, forKey: key)
            if value != .null { providerSpecific[key.stringValue] = value }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(providerID, forKey: .providerID)
        try container.encode(enabled, forKey: .enabled)
        try container.encodeIfPresent(clientID, forKey: .clientID)
        try container.encodeIfPresent(additionalClientIDs, forKey: .additionalClientIDs)
        try container.encodeIfPresent(clientSecret, forKey: .clientSecret)
        try container.encodeIfPresent(issuer, forKey: .issuer)
        try container.encodeIfPresent(displayName, forKey: .displayName)
        try container.encodeIfPresent(responseTypeIDToken, forKey: .responseTypeIDToken)
        try container.encodeIfPresent(responseTypeCode, forKey: .responseTypeCode)
        let common = Set(CodingKeys.allCases.map(\.rawValue))
        var all = encoder.container(keyedBy: AnyKey.self)
        for (name, value) in providerSpecific where !common.contains(name) {
            try all.encode(value, forKey: AnyKey(stringValue: name))
        }
    }
}
