import Foundation
import HearthConfiguration
import HearthCore

/// The last ``ProjectSettings`` read from the database, kept for ``lifetime``: a sign-in reads no setting
/// row, and a change made on another replica is seen within that time.
public final class ProjectSettingsCache: Sendable {
    static let lifetime: TimeInterval = 5
    private let box = LockedBox<(settings: ProjectSettings, readAt: ContinuousClock.Instant)?>(nil)

    public init() {}

    func cached() -> ProjectSettings? {
        box.withLock { entry in
            guard let entry, entry.readAt.duration(to: .now) < .seconds(Self.lifetime) else { return nil }
            return entry.settings
        }
    }

    func remember(_ settings: ProjectSettings) {
        box.withLock { $0 = (settings, .now) }
    }
}

extension HearthServices {
    /// The project's sign-in settings as they stand: the configuration's, overridden by an administrator's.
    public func projectSettings() async throws -> ProjectSettings {
        if let cached = projectSettingsCache.cached() { return cached }
        let settings = ProjectSettings(configuration).applying(try await storedProjectOverrides())
        projectSettingsCache.remember(settings)
        return settings
    }

    func storedProjectOverrides() async throws -> ProjectSettings.Overrides {
        guard let text = try await store.setting(ProjectSettings.settingName),
            let overrides = try? JSONDecoder().decode(ProjectSettings.Overrides.self, from: Data(text.utf8))
        else { return ProjectSettings.Overrides() }
        return overrides
    }

    /// Stores `overrides` for every replica and returns the settings they make.
    func storeProjectOverrides(_ overrides: ProjectSettings.Overrides) async throws -> ProjectSettings {
        let text = String(decoding: try JSONEncoder().encode(overrides), as: UTF8.self)
        try await store.setSetting(ProjectSettings.settingName, to: text)
        let settings = ProjectSettings(configuration).applying(overrides)
        projectSettingsCache.remember(settings)
        return settings
    }
}
