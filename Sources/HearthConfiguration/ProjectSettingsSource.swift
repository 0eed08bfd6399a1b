import Foundation
import HearthCore

/// The project's sign-in settings as they stand: the configuration's, overridden by an administrator's (stored
/// for every replica); or one tenant's: the tenant defaults (``ProjectSettings/tenantDefaults(_:)``) overridden by
/// the tenant's own. The last settings read are kept for ``lifetime``: a sign-in reads no setting row, and a
/// change made on another replica is seen within that time.
public struct ProjectSettingsSource: ProjectSettingsStoring {
    static let lifetime: TimeInterval = 5

    let configuration: ServerConfiguration
    let store: any SettingStore & TenantStore
    /// Whose settings: `nil` for the project's.
    let tenantID: String?
    /// A tenant's: the project's settings, whose blocking hooks apply to the tenant's users unless it sets its own (as
    /// Identity Platform's blocking functions apply to every user of the project).
    let project: (any ProjectSettingsReading)?
    private let cache = LockedBox<(settings: ProjectSettings, readAt: ContinuousClock.Instant)?>(nil)

    public init(
        configuration: ServerConfiguration, store: any SettingStore & TenantStore, tenantID: String? = nil,
        project: (any ProjectSettingsReading)? = nil
    ) {
        self.configuration = configuration
        self.store = store
        self.tenantID = tenantID
        self.project = project
    }

    /// Where the settings start before an administrator's overrides.
    private func defaults() async throws -> ProjectSettings {
        guard tenantID != nil else { return ProjectSettings(configuration) }
        var settings = ProjectSettings.tenantDefaults(configuration)
        if let project { settings.blockingHooks = try await project.projectSettings().blockingHooks }
        return settings
    }

    public func projectSettings() async throws -> ProjectSettings {
        let cached = cache.withLock { entry -> ProjectSettings? in
            guard let entry, entry.readAt.duration(to: .now) < .seconds(Self.lifetime) else { return nil }
            return entry.settings
        }
        if let cached { return cached }
        let settings = try await defaults().applying(try await storedOverrides())
        remember(settings)
        return settings
    }

    /// The overrides an administrator stored: the project config's, or the tenant's (`TENANT_NOT_FOUND` when it is gone).
    public func storedOverrides() async throws -> ProjectSettings.Overrides {
        if let tenantID {
            guard let tenant = try await store.tenant(id: tenantID) else { throw HearthError(.tenantNotFound) }
            return tenant.settings
        }
        guard let text = try await store.setting(ProjectSettings.settingName),
            let overrides = try? JSONDecoder().decode(ProjectSettings.Overrides.self, from: Data(text.utf8))
        else { return ProjectSettings.Overrides() }
        return overrides
    }

    /// Stores `overrides` for every replica and returns the settings they make.
    public func store(_ overrides: ProjectSettings.Overrides) async throws -> ProjectSettings {
        if let tenantID {
            try await store.updateTenant(id: tenantID) { $0.settings = overrides }
        } else {
            let text = String(decoding: try JSONEncoder().encode(overrides), as: UTF8.self)
            try await store.setSetting(ProjectSettings.settingName, to: text)
        }
        let settings = try await defaults().applying(overrides)
        remember(settings)
        return settings
    }

    private func remember(_ settings: ProjectSettings) {
        cache.withLock { $0 = (settings, .now) }
    }
}
