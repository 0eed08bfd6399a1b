/// The sign-in settings an administrator may change while Hearth runs (`GET/PATCH /v2/projects/{p}/config`,
/// the Admin SDKs' project config): which sign-ins are on, one account per e-mail, e-mail enumeration
/// protection, the anonymous clean-up, the test phone numbers. The configuration gives their starting values; a change through the
/// admin API is stored in the database and overrides them on every replica.
public struct ProjectSettings: Sendable, Equatable {
    public var anonymousEnabled: Bool
    public var passwordEnabled: Bool
    public var emailEnumerationProtection: Bool
    public var oneAccountPerEmail: Bool
    public var anonymousCleanupEnabled: Bool
    public var emailLinkEnabled: Bool
    /// Phone sign-in (`sendVerificationCode`, `signInWithPhoneNumber`).
    public var phoneEnabled: Bool
    /// Test phone numbers (E.164) and their fixed codes: no SMS is sent to them, and the send limits do not count them.
    public var testPhoneNumbers: [String: String]
    /// Which regions phone numbers may get a code by SMS (`smsRegionConfig`); test phone numbers get none and are not
    /// held to it.
    public var smsRegionPolicy: SMSRegionPolicy = .allowAll
    /// Second factors.
    public var multiFactor = MultiFactorSettings()
    /// Blocking functions: the operator's hooks asked before an account is made and before a sign-in's tokens.
    public var blockingHooks = BlockingHookSettings()
    /// Passkeys' relying party; `nil`: passkeys are off (`OPERATION_NOT_ALLOWED`).
    public var passkeys: PasskeySettings?

    /// At most this many test phone numbers, as Firebase allows.
    public static let maxTestPhoneNumbers = 10

    public init(
        anonymousEnabled: Bool, passwordEnabled: Bool, emailEnumerationProtection: Bool, oneAccountPerEmail: Bool,
        anonymousCleanupEnabled: Bool, emailLinkEnabled: Bool, phoneEnabled: Bool = false, testPhoneNumbers: [String: String] = [:]
    ) {
        self.anonymousEnabled = anonymousEnabled
        self.passwordEnabled = passwordEnabled
        self.emailEnumerationProtection = emailEnumerationProtection
        self.oneAccountPerEmail = oneAccountPerEmail
        self.anonymousCleanupEnabled = anonymousCleanupEnabled
        self.emailLinkEnabled = emailLinkEnabled
        self.phoneEnabled = phoneEnabled
        self.testPhoneNumbers = testPhoneNumbers
    }

    /// What the database stores: only the values an administrator set.
    public struct Overrides: Codable, Sendable, Equatable {
        public var anonymousEnabled: Bool?
        public var passwordEnabled: Bool?
        public var emailEnumerationProtection: Bool?
        public var oneAccountPerEmail: Bool?
        public var anonymousCleanupEnabled: Bool?
        public var emailLinkEnabled: Bool?
        public var phoneEnabled: Bool?
        public var testPhoneNumbers: [String: String]?
        public var smsRegionPolicy: SMSRegionPolicy?
        public var multiFactor: MultiFactorSettings?
        public var blockingHooks: BlockingHookSettings?
        public var passkeys: PasskeySettings?

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
        if let value = overrides.phoneEnabled { settings.phoneEnabled = value }
        if let value = overrides.testPhoneNumbers { settings.testPhoneNumbers = value }
        if let value = overrides.smsRegionPolicy { settings.smsRegionPolicy = value }
        if let value = overrides.multiFactor { settings.multiFactor = value }
        if let value = overrides.blockingHooks { settings.blockingHooks = value }
        if let value = overrides.passkeys { settings.passkeys = value }
        return settings
    }

    /// `numbers` when they can be test phone numbers: at most ``maxTestPhoneNumbers``, each an E.164 number with a
    /// 6-digit code. Throws `INVALID_CONFIG` otherwise.
    public static func checkTestPhoneNumbers(_ numbers: [String: String]) throws -> [String: String] {
        guard numbers.count <= maxTestPhoneNumbers else {
            throw HearthError(.invalidConfig, detail: "At most \(maxTestPhoneNumbers) test phone numbers are allowed.")
        }
        for (number, code) in numbers.sorted(by: { $0.key < $1.key }) {
            guard PhoneNumber.validated(number) != nil else {
                throw HearthError(.invalidConfig, detail: "A test phone number must be E.164, e.g. +16505551234.")
            }
            guard VerificationCode.isWellFormed(code) else {
                throw HearthError(.invalidConfig, detail: "The code of test phone number \(number) must be 6 digits.")
            }
        }
        return numbers
    }
}
