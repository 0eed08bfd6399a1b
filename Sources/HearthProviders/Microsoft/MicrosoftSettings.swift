import HearthCore

/// Microsoft's own admin settings: the `microsoftSignInConfig` section (a Hearth extension), its tenant rule.
extension IdentityProviderSetting {
    static let microsoftSection = AdminSection(
        name: "microsoftSignInConfig", fields: [["tenant"], ["allowedTenantIds"]],
        legacyKeys: [["tenant"]: "microsoftTenant", ["allowedTenantIds"]: "microsoftAllowedTenantIDs"])

    /// Which accounts may sign in (`common`, `organizations`, `consumers`, a tenant GUID or a verified
    /// domain). `nil`: the configuration's rule stays.
    public var microsoftTenant: String? {
        get { specificString(["microsoftSignInConfig", "tenant"], legacyKey: "microsoftTenant") }
        set { setSpecific(["microsoftSignInConfig", "tenant"], newValue.map(JSONValue.string), replacing: "microsoftTenant") }
    }

    /// Tenant GUIDs allowed on top of ``microsoftTenant``. `nil`: the configuration's list stays.
    public var microsoftAllowedTenantIDs: [String]? {
        get { specificStrings(["microsoftSignInConfig", "allowedTenantIds"], legacyKey: "microsoftAllowedTenantIDs") }
        set { setSpecific(["microsoftSignInConfig", "allowedTenantIds"], newValue?.json, replacing: "microsoftAllowedTenantIDs") }
    }
}
