import Foundation

/// A value that holds a secret and never prints it: `description`, `debugDescription`, `dump` and string interpolation
/// all show ``redacted`` alone (ServiceLifecycle describes the services it runs, gateways inside, at debug level).
public protocol RedactedDescription: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// What may be shown: never a credential.
    var redacted: String { get }
}

extension RedactedDescription {
    public var description: String { redacted }
    public var debugDescription: String { redacted }
    /// No children, so reflection cannot reach the secret.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

extension SMSGatewaySettings.Twilio: RedactedDescription {
    public var redacted: String { "Twilio(account: \(accountSID), credentials redacted)" }
}

extension SMSGatewaySettings.Vonage: RedactedDescription {
    public var redacted: String { "Vonage(key: \(apiKey), secret redacted)" }
}

extension SMSGatewaySettings.Webhook: RedactedDescription {
    public var redacted: String { "Webhook(\(url.host ?? ""), secret redacted)" }
}

extension TwilioGateway: RedactedDescription {
    public var redacted: String { "TwilioGateway(\(settings.redacted))" }
}

extension VonageGateway: RedactedDescription {
    public var redacted: String { "VonageGateway(\(settings.redacted))" }
}

extension WebhookGateway: RedactedDescription {
    public var redacted: String { "WebhookGateway(\(settings.redacted))" }
}

extension TwilioVerify: RedactedDescription {
    public var redacted: String { "TwilioVerify(\(settings.redacted))" }
}

extension SiteVerifyCaptcha: RedactedDescription {
    public var redacted: String { "SiteVerifyCaptcha(\(service.rawValue), site key \(siteKey), secret redacted)" }
}

extension AppVerificationSettings: RedactedDescription {
    public var redacted: String {
        switch self {
        case .none: "none"
        case .proofOfWork(let difficulty): "proofOfWork(difficulty: \(difficulty))"
        case .captcha(let service, let siteKey, _, _, _): "captcha(\(service.rawValue), site key \(siteKey), secret redacted)"
        }
    }
}
