import Foundation

/// The rules of a provider's stored setting, which HearthProviders' catalogue knows (Core knows no provider by name).
public protocol ProviderSettingsChecking: Sendable {
    /// Gives a new setting what it is made with (a SAML provider's SP key and certificate).
    func prepareNew(_ setting: inout IdentityProviderSetting, now: Date) throws
    /// Throws `INVALID_CONFIG` (or `INVALID_PROVIDER_ID`) for a setting the provider cannot work with.
    func check(_ setting: IdentityProviderSetting) throws
}

/// An administrator's changes to the identity providers' settings, from the admin API (`defaultSupportedIdpConfigs`,
/// `oauthIdpConfigs`, `inboundSamlConfigs`) or the console's sign-in methods page: each checked, stored for every replica
/// (one settings row per provider), recorded as an audit event (which provider, what operation, who; never the
/// values), and taken into this replica's verifier at once.
public struct ProviderSettingsChanges: Sendable {
    public let store: any SettingStore
    /// Re-read after each change, so the change applies to this replica's next sign-in.
    public let verifier: any IdentityVerifier
    public let checking: any ProviderSettingsChecking
    public let audit: any AuditRecording
    public let clock: WallClock

    public init(
        store: any SettingStore, verifier: any IdentityVerifier, checking: any ProviderSettingsChecking, audit: any AuditRecording,
        clock: WallClock
    ) {
        self.store = store
        self.verifier = verifier
        self.checking = checking
        self.audit = audit
        self.clock = clock
    }

    /// Every stored setting, by provider id.
    public func all() async throws -> [IdentityProviderSetting] {
        try await store.settings(withPrefix: IdentityProviderSetting.storagePrefix).values.compactMap(IdentityProviderSetting.init(storedText:))
            .sorted { $0.providerID < $1.providerID }
    }

    public func setting(_ providerID: String) async throws -> IdentityProviderSetting? {
        try await store.setting(IdentityProviderSetting.storageName(for: providerID)).flatMap(IdentityProviderSetting.init(storedText:))
    }

    /// Creates `providerID`'s setting, off until `apply` says otherwise: `CONFIGURATION_EXISTS` when there is one.
    public func create(_ providerID: String, from origin: AuditOrigin, _ apply: (inout IdentityProviderSetting) async throws -> Void)
        async throws -> IdentityProviderSetting
    {
        var setting = IdentityProviderSetting(providerID: providerID, enabled: false)
        try await apply(&setting)
        try checking.prepareNew(&setting, now: clock.now)
        try checking.check(setting)
        // Created only if absent: an existing row makes this write a no-op and the answer CONFIGURATION_EXISTS.
        guard try await store.insertSetting(IdentityProviderSetting.storageName(for: providerID), value: setting.storedText()) else {
            throw HearthError(.configurationExists)
        }
        try await changed(providerID, "created", origin)
        return setting
    }

    /// Changes `providerID`'s setting by `apply`: `CONFIGURATION_NOT_FOUND` when there is none.
    public func update(_ providerID: String, from origin: AuditOrigin, _ apply: (inout IdentityProviderSetting) async throws -> Void)
        async throws -> IdentityProviderSetting
    {
        guard var setting = try await setting(providerID) else { throw HearthError(.configurationNotFound) }
        try await apply(&setting)
        try checking.check(setting)
        try await store.setSetting(IdentityProviderSetting.storageName(for: providerID), to: setting.storedText())
        try await changed(providerID, "updated", origin)
        return setting
    }

    /// Deletes `providerID`'s setting: `CONFIGURATION_NOT_FOUND` when there is none.
    public func delete(_ providerID: String, from origin: AuditOrigin) async throws {
        guard try await setting(providerID) != nil else { throw HearthError(.configurationNotFound) }
        try await store.setSetting(IdentityProviderSetting.storageName(for: providerID), to: nil)
        try await changed(providerID, "deleted", origin)
    }

    private func changed(_ providerID: String, _ operation: String, _ origin: AuditOrigin) async throws {
        await audit.record(
            AuditEvent(
                time: clock.now, kind: .adminProviderSettingsChanged, actor: .administrator, actorID: origin.actorID, clientAddress: origin.address,
                details: ["provider": providerID, "operation": operation]))
        try await verifier.refresh()
    }
}
