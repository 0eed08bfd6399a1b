/// The sign-in settings an administrator may change while Hearth runs (`GET/PATCH /v2/projects/{p}/config`,
/// the Admin SDKs' project config): which sign-ins are on, one account per e-mail, e-mail enumeration
/// protection, the anonymous clean-up. The configuration gives their starting values; a change through the
/// admin API is stored in the database and overrides them on every replica.
public struct ProjectSettings: Sendable, Equatable {
    public var anonymousEnabled: Bool
    public var passwordEnabled: Bool
    public var emailEnumerationProtection: Bool
    public var oneAccountPerEmail: Bool
    public var anonymousCleanupEnabled: Bool
    public var emailLinkEnabled: Bool

    public init(
        anonymousEnabled: Bool, passwordEnabled: Bool, emailEnumerationProtection: Bool, oneAccountPerEmail: Bool,
        anonymousCleanupEnabled: Bool, emailLinkEnabled: Bool
    ) {
        self.anonymousEnabled = anonymousEnabled
        self.passwordEnabled = passwordEnabled
        self.emailEnumerationProtection = emailEnumerationProtection
        self.oneAccountPerEmail = oneAccountPerEmail
        self.anonymousCleanupEnabled = anonymousCleanupEnabled
        self.emailLinkEnabled = emailLinkEnabled
    }

    /// What the database stores: only the values an administrator set.
    public struct Overrides: Codable, Sendable, Equatable {
        public var anonymousEnabled: Bool?
        public var passwordEnabled: Bool?
        public var emailEnumerationProtection: Bool?
        public var oneAccountPerEmail: Bool?
        public var anonymousCleanupEnabled: Bool?
        public var emailLinkEnabled: Bool?

        public init() {}
    }

    /// The name of the setting row that holds the ``Overrides``.
    public static let settingName = "project.config"

    public func applying(_ overrides: Overrides) -> ProjectSettings {
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
