import Foundation
import HearthCore

/// The project's sign-in settings as they stand: the configuration's, overridden by an administrator's (stored
/// for every replica). The last settings read are kept for ``lifetime``: a sign-in reads no setting row, and a
/// change made on another replica is seen within that time.
public struct ProjectSettingsSource: ProjectSettingsReading {
    static let lifetime: TimeInterval = 5

    let configuration: ServerConfiguration
    let store: any SettingStore
    private let cache = LockedBox<(settings: ProjectSettings, readAt: ContinuousClock.Instant)?>(nil)

    public init(configuration: ServerConfiguration, store: any SettingStore) {
        self.configuration = configuration
        self.store = store
    }

    public func projectSettings() async throws -> ProjectSettings {
        let cached = cache.withLock { entry -> ProjectSettings? in
            guard let entry, entry.readAt.duration(to: .now) < .seconds(Self.lifetime) else { return nil }
            return entry.settings
        }
        if let cached { return cached }
        let settings = ProjectSettings(configuration).applying(try await storedOverrides())
        remember(settings)
        return settings
    }

    public func storedOverrides() async throws -> ProjectSettings.Overrides {
        guard let text = try await store.setting(ProjectSettings.settingName),
            let overrides = try? JSONDecoder().decode(ProjectSettings.Overrides.self, from: Data(text.utf8))
        else { return ProjectSettings.Overrides() }
        return overrides
    }

    /// Stores `overrides` for every replica and returns the settings they make.
    public func store(_ overrides: ProjectSettings.Overrides) async throws -> ProjectSettings {
        let text = String(decoding: try JSONEncoder().encode(overrides), as: UTF8.self)
        try await store.setSetting(ProjectSettings.settingName, to: text)
        let settings = ProjectSettings(configuration).applying(overrides)
        remember(settings)
        return settings
    }

    private func remember(_ settings: ProjectSettings) {
        cache.withLock { $0 = (settings, .now) }
    }
}
