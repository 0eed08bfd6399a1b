import Foundation
import HearthCore
import HearthWire

extension TenantResource {
    /// The tenant as Identity Platform shows it, with its `settings` in effect (the tenant defaults under its own).
    public init(_ tenant: TenantRecord, projectID: String, settings: ProjectSettings) {
        self.init(
            name: "projects/\(projectID)/tenants/\(tenant.id)", tenantId: tenant.id, displayName: tenant.displayName,
            allowPasswordSignup: settings.passwordEnabled, enableEmailLinkSignin: settings.emailLinkEnabled,
            enableAnonymousUser: settings.anonymousEnabled, disableAuth: tenant.disabled, mfaConfig: MultiFactorAuthConfig(settings.multiFactor),
            testPhoneNumbers: settings.testPhoneNumbers.isEmpty ? nil : settings.testPhoneNumbers,
            smsRegionConfig: SmsRegionConfig(settings.smsRegionPolicy),
            emailPrivacyConfig: EmailPrivacyConfig(enableImprovedEmailPrivacy: settings.emailEnumerationProtection))
        passkeyConfig = settings.passkeys.map(PasskeyConfig.init)
    }

    /// The fields Hearth keeps, as `updateMask` paths.
    public static var fieldPaths: [String] {
        [
            "displayName", "allowPasswordSignup", "enableEmailLinkSignin", "enableAnonymousUser", "disableAuth", "mfaConfig",
            "testPhoneNumbers", "smsRegionConfig", "emailPrivacyConfig.enableImprovedEmailPrivacy", "passkeyConfig",
        ]
    }

    func isSet(_ path: String) -> Bool {
        return switch path {
        case "displayName": displayName != nil
        case "allowPasswordSignup": allowPasswordSignup != nil
        case "enableEmailLinkSignin": enableEmailLinkSignin != nil
        case "enableAnonymousUser": enableAnonymousUser != nil
        case "disableAuth": disableAuth != nil
        case "mfaConfig": mfaConfig != nil
        case "testPhoneNumbers": testPhoneNumbers != nil
        case "smsRegionConfig": smsRegionConfig != nil
        case "passkeyConfig": passkeyConfig != nil
        default: emailPrivacyConfig?.enableImprovedEmailPrivacy != nil
        }
    }

    /// The paths to change (``UpdateMask``).
    public func fieldPaths(updateMask: String?) throws -> [String] {
        try UpdateMask.paths(updateMask, known: Self.fieldPaths, isSet: isSet)
    }
}

extension TenantRecord {
    /// Takes the fields of `paths` from `body` (``TenantResource/fieldPaths(updateMask:)``).
    public mutating func apply(_ body: TenantResource, paths: [String]) throws {
        for path in paths {
            switch path {
            case "displayName":
                displayName = try TenantRecord.checkedDisplayName(body.displayName ?? "")
            case "allowPasswordSignup": settings.passwordEnabled = body.allowPasswordSignup
            case "enableEmailLinkSignin": settings.emailLinkEnabled = body.enableEmailLinkSignin
            case "enableAnonymousUser": settings.anonymousEnabled = body.enableAnonymousUser
            case "disableAuth": disabled = body.disableAuth ?? false
            case "mfaConfig": settings.multiFactor = try body.mfaConfig.map(MultiFactorSettings.init)
            case "testPhoneNumbers": settings.testPhoneNumbers = try body.testPhoneNumbers.map(ProjectSettings.checkTestPhoneNumbers)
            case "smsRegionConfig": settings.smsRegionPolicy = try body.smsRegionConfig.map(SMSRegionPolicy.init)
            case "passkeyConfig": settings.passkeys = try body.passkeyConfig.map(PasskeySettings.init)
            default: settings.emailEnumerationProtection = body.emailPrivacyConfig?.enableImprovedEmailPrivacy
            }
        }
    }
}
