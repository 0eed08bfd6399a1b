import Foundation
import HearthCore
import HearthWire

/// An `updateMask`: the dotted field paths a `PATCH` changes.
public enum UpdateMask {
    /// `updateMask`'s paths among `known` (a message stands for its fields), or with no mask every known path the body
    /// sets. `INVALID_CONFIG` for a field Hearth does not keep: refused rather than silently dropped.
    public static func paths(_ updateMask: String?, known: [String], isSet: (String) -> Bool) throws -> [String] {
        guard let updateMask, !updateMask.isEmpty else { return known.filter(isSet) }
        var paths: [String] = []
        for field in updateMask.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            let covered = known.filter { covers([field], $0) }
            guard !covered.isEmpty else { throw HearthError(.invalidConfig, detail: "Hearth does not keep \(field.prefix(100)).") }
            paths += covered.filter { !paths.contains($0) }
        }
        return paths
    }

    /// Whether `mask` names `field`, a message `field` is in, or a field within `field`.
    public static func covers(_ mask: [String], _ field: String) -> Bool {
        mask.contains { $0 == field || $0.hasPrefix(field + ".") || field.hasPrefix($0 + ".") }
    }
}

extension ProjectConfig {
    /// The project's sign-in settings as Identity Toolkit's `Config` names them; `hasher`'s parameters are its
    /// `hashConfig`.
    public init(_ settings: ProjectSettings, projectID: String, hasher: PasswordHasher) {
        self.init(
            name: "projects/\(projectID)/config",
            signIn: SignInConfig(
                allowDuplicateEmails: !settings.oneAccountPerEmail, anonymous: EnabledConfig(enabled: settings.anonymousEnabled),
                email: EmailSignInConfig(enabled: settings.passwordEnabled, passwordRequired: !settings.emailLinkEnabled),
                phoneNumber: PhoneNumberSignInConfig(enabled: settings.phoneEnabled, testPhoneNumbers: settings.testPhoneNumbers),
                hashConfig: HashConfig(algorithm: "STANDARD_SCRYPT", rounds: hasher.blockSize, memoryCost: hasher.logN)),
            emailPrivacyConfig: EmailPrivacyConfig(enableImprovedEmailPrivacy: settings.emailEnumerationProtection),
            autodeleteAnonymousUsers: settings.anonymousCleanupEnabled, smsRegionConfig: SmsRegionConfig(settings.smsRegionPolicy),
            mfa: MultiFactorAuthConfig(settings.multiFactor), blockingFunctions: BlockingFunctionsConfig(settings.blockingHooks))
        passkeyConfig = settings.passkeys.map(PasskeyConfig.init)
    }

    /// The fields Hearth keeps, as `updateMask` paths.
    public static let fieldPaths = [
        "signIn.allowDuplicateEmails", "signIn.anonymous.enabled", "signIn.email.enabled", "signIn.email.passwordRequired",
        "signIn.phoneNumber.enabled", "signIn.phoneNumber.testPhoneNumbers", "emailPrivacyConfig.enableImprovedEmailPrivacy",
        "autodeleteAnonymousUsers", "smsRegionConfig", "mfa", "blockingFunctions", "passkeyConfig",
    ]

    /// The paths to change (``UpdateMask``).
    public func fieldPaths(updateMask: String?) throws -> [String] {
        try UpdateMask.paths(updateMask, known: Self.fieldPaths) { path in
            switch path {
            case "signIn.allowDuplicateEmails": signIn?.allowDuplicateEmails != nil
            case "signIn.anonymous.enabled": signIn?.anonymous?.enabled != nil
            case "signIn.email.enabled": signIn?.email?.enabled != nil
            case "signIn.email.passwordRequired": signIn?.email?.passwordRequired != nil
            case "signIn.phoneNumber.enabled": signIn?.phoneNumber?.enabled != nil
            case "signIn.phoneNumber.testPhoneNumbers": signIn?.phoneNumber?.testPhoneNumbers != nil
            case "emailPrivacyConfig.enableImprovedEmailPrivacy": emailPrivacyConfig?.enableImprovedEmailPrivacy != nil
            case "smsRegionConfig": smsRegionConfig != nil
            case "mfa": mfa != nil
            case "blockingFunctions": blockingFunctions != nil
            case "passkeyConfig": passkeyConfig != nil
            default: autodeleteAnonymousUsers != nil
            }
        }
    }
}

extension ProjectSettings.Overrides {
    /// Takes the fields of `paths` from `input` (``ProjectConfig/fieldPaths(updateMask:)``); `development` allows
    /// blocking hooks on http to loopback.
    public mutating func apply(_ input: ProjectConfig, paths: [String], development: Bool) throws {
        for path in paths {
            switch path {
            case "signIn.allowDuplicateEmails": oneAccountPerEmail = input.signIn?.allowDuplicateEmails.map { !$0 }
            case "signIn.anonymous.enabled": anonymousEnabled = input.signIn?.anonymous?.enabled
            case "signIn.email.enabled": passwordEnabled = input.signIn?.email?.enabled
            case "signIn.email.passwordRequired": emailLinkEnabled = input.signIn?.email?.passwordRequired.map { !$0 }
            case "signIn.phoneNumber.enabled": phoneEnabled = input.signIn?.phoneNumber?.enabled
            case "signIn.phoneNumber.testPhoneNumbers":
                testPhoneNumbers = try input.signIn?.phoneNumber?.testPhoneNumbers.map(ProjectSettings.checkTestPhoneNumbers)
            case "emailPrivacyConfig.enableImprovedEmailPrivacy":
                emailEnumerationProtection = input.emailPrivacyConfig?.enableImprovedEmailPrivacy
            case "autodeleteAnonymousUsers": anonymousCleanupEnabled = input.autodeleteAnonymousUsers
            case "smsRegionConfig": smsRegionPolicy = try input.smsRegionConfig.map(SMSRegionPolicy.init)
            case "mfa": multiFactor = try input.mfa.map(MultiFactorSettings.init)
            case "blockingFunctions":
                blockingHooks = try input.blockingFunctions.map {
                    try BlockingHookSettings($0, development: development)
                }
            case "passkeyConfig": passkeys = try input.passkeyConfig.map(PasskeySettings.init)
            default: throw HearthError(.invalidConfig, detail: "Hearth does not keep \(path.prefix(100)).")
            }
        }
    }
}
