import Foundation
import HearthCore

/// The sign-in settings an administrator may change while Hearth runs (`GET/PATCH /v2/projects/{p}/config`,
/// the Admin SDKs' project config): which sign-ins are on, one account per e-mail, e-mail enumeration
/// protection, the anonymous clean-up. The configuration gives their starting values; a change through the
/// admin API is stored in the database and overrides them on every replica (within ``ProjectSettingsCache/lifetime``).
public struct ProjectSettings: Sendable, Equatable {
    public var anonymousEnabled: Bool
    public var passwordEnabled: Bool
    public var emailEnumerationProtection: Bool
    public var oneAccountPerEmail: Bool
    public var anonymousCleanupEnabled: Bool
    public var emailLinkEnabled: Bool

    /// The configuration's values.
    public init(_ configuration: ServerConfiguration) {
        anonymousEnabled = configuration.signIn.anonymousEnabled
        passwordEnabled = configuration.signIn.passwordEnabled
        emailEnumerationProtection = configuration.signIn.emailEnumerationProtection
        oneAccountPerEmail = configuration.signIn.oneAccountPerEmail
        anonymousCleanupEnabled = configuration.anonymousCleanup.enabled
        emailLinkEnabled = configuration.signIn.emailLinkEnabled
    }

    /// What the database stores: only the values an administrator set.
    struct Overrides: Codable, Sendable, Equatable {
        var anonymousEnabled: Bool?
        var passwordEnabled: Bool?
        var emailEnumerationProtection: Bool?
        var oneAccountPerEmail: Bool?
        var anonymousCleanupEnabled: Bool?
        var emailLinkEnabled: Bool?
    }

    static let settingName = "project.config"

    func applying(_ overrides: Overrides) -> ProjectSettings {
        var settings = self
        if let value = overrides.anonymousEnabled { settings.anonymousEnabled = value }
        if let value = overrides.passwordEnabled { settings.passwordEnabled = value }
        if let value = overrides.emailEnumerationProtection { settings.emailEnumerationProtection = value }
        if let value = overrides.oneAccountPerEmail { settings.oneAccountPerEmail = value }
        if let value = overrides.anonymousCleanupEnabled { settings.anonymousCleanupEnabled = value }
        if let value = overrides.emailLinkEnabled { settings.emailLinkEnabled = value }
        return settings
    }
}

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
