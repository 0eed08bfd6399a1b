/// A provider's settings as an administrator stored them through the admin API. They take the place of
/// the configuration file's settings for that provider; endpoints stay as configured.
///
/// Stored as JSON in the settings table under ``storageName(for:)``, one row per provider, so that
/// replicas see a change on their next federated sign-in. The row is sealed at rest as a whole (it holds
/// ``clientSecret`` and ``applePrivateKey``; see ``SecretSealer/sealedSettingPrefixes``).
public struct IdentityProviderSetting: Codable, Sendable, Equatable {
    /// A built-in provider's id (`google.com`) or `oidc.<name>` (HearthProviders' catalogue knows which).
    public var providerID: String
    public var enabled: Bool
    /// The OAuth client id (Apple: the services ID; Twitter: the API key; Facebook: the app ID).
    public var clientID: String?
    /// More client ids whose ID tokens are accepted (the wire's `whitelistedAudiences`): Google's iOS and
    /// Android clients, Apple's other services IDs, more Microsoft, Yahoo or OIDC apps. Rows stored before
    /// it existed decode with `nil`.
    public var additionalClientIDs: [String]?
    /// The OAuth client secret (Twitter: the API secret; Facebook: the app secret).
    public var clientSecret: String?
    /// Apple: the app bundle IDs.
    public var appleBundleIDs: [String]?
    public var appleTeamID: String?
    public var appleKeyID: String?
    /// Apple: the `.p8` private key, PEM.
    public var applePrivateKey: String?
    /// Microsoft: which accounts may sign in (`common`, `organizations`, `consumers`, a tenant GUID or a
    /// verified domain). `nil`: the configuration's rule stays.
    public var microsoftTenant: String?
    /// Microsoft: tenant GUIDs allowed on top of ``microsoftTenant``. `nil`: the configuration's list stays.
    public var microsoftAllowedTenantIDs: [String]?
    /// OIDC: the issuer.
    public var issuer: String?
    /// OIDC: a name to show.
    public var displayName: String?
    /// OIDC: browser-flow response types.
    public var responseTypeIDToken: Bool?
    public var responseTypeCode: Bool?

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
}
