import Foundation

/// Which gateway sends phone sign-in's SMS, and its account: `sms.gateway` and `sms.<gateway>.*` in
/// docs/configuration.md. Credentials are secrets: ``description`` never shows them.
public enum SMSGatewaySettings: Sendable, Equatable, RedactedDescription {
    case twilio(Twilio)
    case vonage(Vonage)
    case webhook(Webhook)

    /// Twilio Programmable Messaging (`POST /2010-04-01/Accounts/{AccountSid}/Messages.json`), SMS or WhatsApp.
    public struct Twilio: Sendable, Equatable {
        /// `sms.twilio.accountSID`: `AC…`.
        public var accountSID: String
        /// `sms.twilio.apiKeySID`: an API key (`SK…`) to authenticate with instead of the account; its secret is then
        /// ``authToken``.
        public var apiKeySID: String?
        /// `sms.twilio.authToken`: the account's auth token, or the API key's secret. A secret.
        public var authToken: String
        /// `sms.twilio.from`: the sending number (E.164) or alphanumeric sender id; or
        public var from: String?
        /// `sms.twilio.messagingServiceSID`: a Messaging Service (`MG…`) that picks the sender.
        public var messagingServiceSID: String?
        /// `sms.twilio.whatsappFrom`: a WhatsApp-enabled sender (E.164). Set, codes go by WhatsApp (`whatsapp:` addresses).
        public var whatsappFrom: String?
        /// `sms.twilio.baseURL`: `https://api.twilio.com` unless a test points it elsewhere.
        public var baseURL: URL
        /// `sms.twilio.verifyServiceSID`: a Twilio Verify service (`VA…`). Set, Twilio sends and checks the codes
        /// (``TwilioVerify``) and the SMS queue is not used.
        public var verifyServiceSID: String?
        /// `sms.twilio.verifyBaseURL`: `https://verify.twilio.com` unless a test points it elsewhere.
        public var verifyBaseURL = URL(string: "https://verify.twilio.com")!

        public init(
            accountSID: String, apiKeySID: String? = nil, authToken: String, from: String? = nil, messagingServiceSID: String? = nil,
            whatsappFrom: String? = nil, baseURL: URL = URL(string: "https://api.twilio.com")!
        ) {
            self.accountSID = accountSID
            self.apiKeySID = apiKeySID
            self.authToken = authToken
            self.from = from
            self.messagingServiceSID = messagingServiceSID
            self.whatsappFrom = whatsappFrom
            self.baseURL = baseURL
        }
    }

    /// Vonage's SMS API (`POST https://rest.nexmo.com/sms/json`).
    public struct Vonage: Sendable, Equatable {
        /// `sms.vonage.apiKey`.
        public var apiKey: String
        /// `sms.vonage.apiSecret`. A secret.
        public var apiSecret: String
        /// `sms.vonage.from`: the sending number (digits) or alphanumeric sender id.
        public var from: String
        /// `sms.vonage.baseURL`: `https://rest.nexmo.com` unless a test points it elsewhere.
        public var baseURL: URL

        public init(apiKey: String, apiSecret: String, from: String, baseURL: URL = URL(string: "https://rest.nexmo.com")!) {
            self.apiKey = apiKey
            self.apiSecret = apiSecret
            self.from = from
            self.baseURL = baseURL
        }
    }

    /// The operator's own endpoint (MSG91, Fast2SMS, an in-house gateway behind a small adapter): a JSON POST signed
    /// with HMAC-SHA256 (``WebhookGateway``).
    public struct Webhook: Sendable, Equatable {
        /// `sms.webhook.url`.
        public var url: URL
        /// `sms.webhook.secret`: the HMAC key, at least 32 characters. A secret.
        public var secret: String

        public init(url: URL, secret: String) {
            self.url = url
            self.secret = secret
        }
    }

    /// The gateway without its credentials, for the start-up banner.
    public var redacted: String {
        switch self {
        case .twilio(let twilio):
            if let service = twilio.verifyServiceSID { return "Twilio Verify service \(service), account \(twilio.accountSID)" }
            let sender = twilio.messagingServiceSID.map { "messaging service \($0)" } ?? "from \(twilio.from ?? "?")"
            return "Twilio account \(twilio.accountSID), \(sender)\(twilio.whatsappFrom.map { ", WhatsApp from \($0)" } ?? "")"
        case .vonage(let vonage): return "Vonage key \(vonage.apiKey), from \(vonage.from)"
        case .webhook(let webhook): return "signed webhook \(webhook.url.scheme ?? "")://\(webhook.url.host ?? "")\(webhook.url.path)"
        }
    }
}
