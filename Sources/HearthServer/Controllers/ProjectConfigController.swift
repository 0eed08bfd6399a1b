import Foundation
import HearthConfiguration
import HearthCore
import HearthWire
import HearthWireMapping
import Hummingbird

/// `GET/PATCH /v2/projects/{project}/config`: the sign-in settings of ``ProjectSettings`` as Identity
/// Toolkit's `Config` names them. PATCH changes the fields `updateMask` names (every field the body has
/// when it names none); fields Hearth does not keep are refused rather than silently dropped.
struct ProjectConfigController<Context: RequestContext>: Sendable {
    let settings: ProjectSettingsSource
    /// Hearth's own hash parameters, shown as the project's `hashConfig`.
    let passwords: PasswordHasher
    let audit: AuditTrail
    let configuration: ServerConfiguration

    static func addRoutes(to group: RouterGroup<Context>, from source: ControllerSource<Self, Context>) {
        group.get("config", use: source { $0.get })
        group.patch("config", use: source { $0.patch })
    }

    @Sendable func get(_ request: Request, context: Context) async throws -> Response {
        try checkProject(context)
        return WireCoding.response(config(try await settings.projectSettings()))
    }

    @Sendable func patch(_ request: Request, context: Context) async throws -> Response {
        try checkProject(context)
        let input = try await WireCoding.decode(ProjectConfig.self, from: request, limit: configuration.maxBodyBytes)
        let mask = try Self.paths(request.uri.queryParameters.get("updateMask"), body: input)
        var overrides = try await settings.storedOverrides()
        for path in mask {
            switch path {
            case "signIn.allowDuplicateEmails": overrides.oneAccountPerEmail = input.signIn?.allowDuplicateEmails.map { !$0 }
            case "signIn.anonymous.enabled": overrides.anonymousEnabled = input.signIn?.anonymous?.enabled
            case "signIn.email.enabled": overrides.passwordEnabled = input.signIn?.email?.enabled
            case "signIn.email.passwordRequired": overrides.emailLinkEnabled = input.signIn?.email?.passwordRequired.map { !$0 }
            case "signIn.phoneNumber.enabled": overrides.phoneEnabled = input.signIn?.phoneNumber?.enabled
            case "signIn.phoneNumber.testPhoneNumbers":
                overrides.testPhoneNumbers = try input.signIn?.phoneNumber?.testPhoneNumbers.map(ProjectSettings.checkTestPhoneNumbers)
            case "emailPrivacyConfig.enableImprovedEmailPrivacy":
                overrides.emailEnumerationProtection = input.emailPrivacyConfig?.enableImprovedEmailPrivacy
            case "autodeleteAnonymousUsers": overrides.anonymousCleanupEnabled = input.autodeleteAnonymousUsers
            case "smsRegionConfig": overrides.smsRegionPolicy = try input.smsRegionConfig.map(SMSRegionPolicy.init)
            case "mfa": overrides.multiFactor = try input.mfa.map(MultiFactorSettings.init)
            case "blockingFunctions":
                overrides.blockingHooks = try input.blockingFunctions.map {
                    try BlockingHookSettings($0, development: configuration.mode == .development)
                }
            default: throw HearthError(.invalidConfig, detail: "Hearth does not keep \(path.prefix(100)).")
            }
        }
        let stored = try await settings.store(overrides)
        await audit.record(
            .adminProjectSettingsChanged, uid: nil, actor: .administrator, request: request, context: context,
            details: ["fields": mask.joined(separator: ",")])
        return WireCoding.response(config(stored))
    }

    /// The dotted field paths to change: `updateMask`'s (a whole message stands for its fields), or
    /// every field of `body` when there is no mask.
    static func paths(_ updateMask: String?, body: ProjectConfig) throws -> [String] {
        let all = [
            "signIn.allowDuplicateEmails", "signIn.anonymous.enabled", "signIn.email.enabled", "signIn.email.passwordRequired",
            "signIn.phoneNumber.enabled", "signIn.phoneNumber.testPhoneNumbers", "emailPrivacyConfig.enableImprovedEmailPrivacy",
            "autodeleteAnonymousUsers", "smsRegionConfig", "mfa", "blockingFunctions",
        ]
        guard let updateMask, !updateMask.isEmpty else {
            return all.filter { path in
                switch path {
                case "signIn.allowDuplicateEmails": body.signIn?.allowDuplicateEmails != nil
                case "signIn.anonymous.enabled": body.signIn?.anonymous?.enabled != nil
                case "signIn.email.enabled": body.signIn?.email?.enabled != nil
                case "signIn.email.passwordRequired": body.signIn?.email?.passwordRequired != nil
                case "signIn.phoneNumber.enabled": body.signIn?.phoneNumber?.enabled != nil
                case "signIn.phoneNumber.testPhoneNumbers": body.signIn?.phoneNumber?.testPhoneNumbers != nil
                case "emailPrivacyConfig.enableImprovedEmailPrivacy": body.emailPrivacyConfig?.enableImprovedEmailPrivacy != nil
                case "smsRegionConfig": body.smsRegionConfig != nil
                case "mfa": body.mfa != nil
                case "blockingFunctions": body.blockingFunctions != nil
                default: body.autodeleteAnonymousUsers != nil
                }
            }
        }
        var paths: [String] = []
        for field in updateMask.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            let covered = all.filter { $0 == field || $0.hasPrefix(field + ".") || field.hasPrefix($0 + ".") }
            guard !covered.isEmpty else { throw HearthError(.invalidConfig, detail: "Hearth does not keep \(field.prefix(100)).") }
            paths += covered.filter { !paths.contains($0) }
        }
        return paths
    }

    private func config(_ settings: ProjectSettings) -> ProjectConfig {
        ProjectConfig(
            name: "projects/\(configuration.projectID)/config",
            signIn: SignInConfig(
                allowDuplicateEmails: !settings.oneAccountPerEmail, anonymous: EnabledConfig(enabled: settings.anonymousEnabled),
                email: EmailSignInConfig(enabled: settings.passwordEnabled, passwordRequired: !settings.emailLinkEnabled),
                phoneNumber: PhoneNumberSignInConfig(enabled: settings.phoneEnabled, testPhoneNumbers: settings.testPhoneNumbers),
                hashConfig: HashConfig(algorithm: "STANDARD_SCRYPT", rounds: passwords.blockSize, memoryCost: passwords.logN)),
            emailPrivacyConfig: EmailPrivacyConfig(enableImprovedEmailPrivacy: settings.emailEnumerationProtection),
            autodeleteAnonymousUsers: settings.anonymousCleanupEnabled, smsRegionConfig: SmsRegionConfig(settings.smsRegionPolicy),
            mfa: MultiFactorAuthConfig(settings.multiFactor), blockingFunctions: BlockingFunctionsConfig(settings.blockingHooks))
    }

    private func checkProject(_ context: Context) throws {
        guard context.parameters.get("project") == configuration.projectID else { throw HearthError(.projectNotFound) }
    }
}
