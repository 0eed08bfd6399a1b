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
        passkeys = configuration.signIn.passkeys
    }

    /// Where a new tenant starts, as Identity Platform's tenants do: no sign-in on until its administrator turns one on
    /// (`allowPasswordSignup`, `enableEmailLinkSignin`, `enableAnonymousUser`), no test phone numbers, no second factors.
    /// What is the server's rather than a user pool's (one account per e-mail, the anonymous clean-up, phone sign-in) is
    /// the configuration's, and so are passkeys (`passkeys.*`: the server's relying party) until the tenant sets its own.
    public static func tenantDefaults(_ configuration: ServerConfiguration) -> ProjectSettings {
        var settings = ProjectSettings(configuration)
        settings.anonymousEnabled = false
        settings.passwordEnabled = false
        settings.emailLinkEnabled = false
        settings.emailEnumerationProtection = false
        settings.testPhoneNumbers = [:]
        settings.multiFactor = MultiFactorSettings()
        return settings
    }
}
