import HearthCore

extension ProjectSettings {
    /// The configuration's values.
    public init(_ configuration: ServerConfiguration) {
        self.init(
            anonymousEnabled: configuration.signIn.anonymousEnabled, passwordEnabled: configuration.signIn.passwordEnabled,
            emailEnumerationProtection: configuration.signIn.emailEnumerationProtection,
            oneAccountPerEmail: configuration.signIn.oneAccountPerEmail, anonymousCleanupEnabled: configuration.anonymousCleanup.enabled,
            emailLinkEnabled: configuration.signIn.emailLinkEnabled, phoneEnabled: configuration.signIn.phoneEnabled,
            testPhoneNumbers: configuration.signIn.testPhoneNumbers)
        smsRegionPolicy = configuration.signIn.smsRegionPolicy
        multiFactor = configuration.signIn.multiFactor
    }
}
