import Foundation

/// Where the project's (or one tenant's) sign-in settings are kept: the overrides an administrator stored over the
/// defaults (HearthConfiguration's `ProjectSettingsSource`).
public protocol ProjectSettingsStoring: ProjectSettingsReading {
    /// The overrides stored so far (`TENANT_NOT_FOUND` for a tenant that is gone).
    func storedOverrides() async throws -> ProjectSettings.Overrides
    /// Stores `overrides` for every replica and returns the settings they make.
    func store(_ overrides: ProjectSettings.Overrides) async throws -> ProjectSettings
}

/// An administrator's change to the project's sign-in settings, from the admin API (`PATCH …/config`) or the console's
/// settings pages: the stored overrides changed by `apply` (which holds the rules of what may be set), stored for every
/// replica, and an audit event naming the fields changed (never their values) and who changed them.
public struct ProjectSettingsChanges: Sendable {
    public let settings: any ProjectSettingsStoring
    public let audit: any AuditRecording
    public let clock: WallClock

    public init(settings: any ProjectSettingsStoring, audit: any AuditRecording, clock: WallClock) {
        self.settings = settings
        self.audit = audit
        self.clock = clock
    }

    /// Changes the stored overrides by `apply` (which throws `INVALID_CONFIG` for a value it refuses: nothing is stored
    /// then) and returns the settings in effect.
    @discardableResult
    public func change(fields: [String], from origin: AuditOrigin, _ apply: (inout ProjectSettings.Overrides) throws -> Void)
        async throws -> ProjectSettings
    {
        var overrides = try await settings.storedOverrides()
        try apply(&overrides)
        let stored = try await settings.store(overrides)
        await audit.record(
            AuditEvent(
                time: clock.now, kind: .adminProjectSettingsChanged, actor: .administrator, actorID: origin.actorID, clientAddress: origin.address,
                details: ["fields": fields.joined(separator: ",")]))
        return stored
    }
}
