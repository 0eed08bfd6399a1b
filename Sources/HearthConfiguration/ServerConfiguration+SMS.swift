import Foundation
import HearthCore
import HearthMessages
import HearthSMS

extension ServerConfiguration {
    /// Phone sign-in's SMS and their delivery: `sms.*` in docs/configuration.md.
    public struct SMS: Sendable {
        /// `sms.gateway` (`twilio`, `vonage`, `webhook`) and its `sms.<gateway>.*` account. Unset: no SMS leaves;
        /// development mode keeps codes in its outbox (`/sandbox/sms`), production mode signs in test numbers only.
        public var gateway: SMSGatewaySettings?
        /// `sms.appName`: the name the message gives the app. Unset: `email.appName`, else the project id.
        public var appName: String?
        /// `sms.androidAppHash`: the app's 11-character SMS Retriever hash, which then ends every message.
        public var androidAppHash: String?
        /// `sms.webOTPDomain`: the web app's host, for the WebOTP line `@host #code` that then ends every message.
        public var webOTPDomain: String?
        /// `sms.whatsapp.regions`: regions (ISO 3166 codes, or `*` for all) whose numbers get their code by WhatsApp
        /// (Twilio with `sms.twilio.whatsappFrom` only).
        public var whatsappRegions: Set<String> = []
        /// `sms.delivery.timeoutSeconds`: how long one request to the gateway may take.
        public var timeout: TimeInterval = 15
        /// `sms.delivery.maxAttempts`: attempts before a message is given up (it is given up anyway once its code
        /// expires).
        public var maxAttempts = 5
        /// `sms.appVerification.*`: what a client must show before a code is sent to a number that is not a test number.
        public var appVerification = AppVerification.none
        public init() {}
    }

    /// The app verification of `accounts:sendVerificationCode` (HearthSMS builds its verifier).
    public typealias AppVerification = AppVerificationSettings

    /// Where codes go, for the start-up banner: the gateway without its credentials, or why none leave.
    public var smsDescription: String {
        guard let gateway = sms.gateway else {
            return mode == .development
                ? "kept in the outbox at /sandbox/sms; set sms.gateway to send"
                : "not sent: sms.gateway is not set (only test phone numbers sign in)"
        }
        return gateway.description
    }

    /// The message's texts as configured.
    public var smsText: SMSText {
        SMSText(appName: sms.appName ?? email.appName ?? projectID, androidAppHash: sms.androidAppHash, webOTPDomain: sms.webOTPDomain)
    }

    /// Reads `sms.*`. Every key is read whatever the others say (``KnownSettings`` learns the keys by reading).
    static func readSMS(_ r: ConfigValues, mode: Mode) throws -> SMS {
        var sms = SMS()
        let twilio = (
            accountSID: try r.string("sms.twilio.accountSID"), apiKeySID: try r.string("sms.twilio.apiKeySID"),
            authToken: try r.string("sms.twilio.authToken", isSecret: true), from: try r.string("sms.twilio.from"),
            messagingServiceSID: try r.string("sms.twilio.messagingServiceSID"), whatsappFrom: try r.string("sms.twilio.whatsappFrom"),
            baseURL: try gatewayURL(r, "sms.twilio.baseURL"), verifyServiceSID: try r.string("sms.twilio.verifyServiceSID"),
            verifyBaseURL: try gatewayURL(r, "sms.twilio.verifyBaseURL")
        )
        let vonage = (
            apiKey: try r.string("sms.vonage.apiKey"), apiSecret: try r.string("sms.vonage.apiSecret", isSecret: true),
            from: try r.string("sms.vonage.from"), baseURL: try gatewayURL(r, "sms.vonage.baseURL")
        )
        let webhook = (url: try gatewayURL(r, "sms.webhook.url"), secret: try r.string("sms.webhook.secret", isSecret: true))
        func required(_ value: String?, _ key: String, _ example: String) throws -> String {
            guard let value, !value.isEmpty else { throw ConfigurationError(key: key, problem: "needed with this sms.gateway, e.g. \(example)") }
            guard !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw ConfigurationError(key: key, problem: "must not contain control characters")
            }
            return value
        }
        switch try r.string("sms.gateway") {
        case nil: break
        case "twilio":
            let accountSID = try required(twilio.accountSID, "sms.twilio.accountSID", "AC…")
            guard accountSID.hasPrefix("AC"), accountSID.count == 34, accountSID.dropFirst(2).allSatisfy(\.isHexDigit)
            else { throw ConfigurationError(key: "sms.twilio.accountSID", problem: "expected AC and 32 hexadecimal digits") }
            if let service = twilio.verifyServiceSID,
                !(service.hasPrefix("VA") && service.count == 34 && service.dropFirst(2).allSatisfy(\.isHexDigit))
            {
                throw ConfigurationError(key: "sms.twilio.verifyServiceSID", problem: "expected VA and 32 hexadecimal digits")
            }
            if twilio.from == nil, twilio.messagingServiceSID == nil, twilio.whatsappFrom == nil, twilio.verifyServiceSID == nil {
                throw ConfigurationError(
                    key: "sms.twilio.from",
                    problem: "set sms.twilio.from, sms.twilio.messagingServiceSID, sms.twilio.whatsappFrom or sms.twilio.verifyServiceSID")
            }
            for (key, number) in [("sms.twilio.whatsappFrom", twilio.whatsappFrom)] where number != nil && PhoneNumber.validated(number!) != number {
                throw ConfigurationError(key: key, problem: "expected a number in E.164, e.g. +14155238886")
            }
            var settings = SMSGatewaySettings.Twilio(
                accountSID: accountSID, apiKeySID: twilio.apiKeySID,
                authToken: try required(twilio.authToken, "sms.twilio.authToken", "the auth token"),
                from: twilio.from, messagingServiceSID: twilio.messagingServiceSID, whatsappFrom: twilio.whatsappFrom)
            if let url = twilio.baseURL { settings.baseURL = url }
            settings.verifyServiceSID = twilio.verifyServiceSID
            if let url = twilio.verifyBaseURL { settings.verifyBaseURL = url }
            sms.gateway = .twilio(settings)
        case "vonage":
            var settings = SMSGatewaySettings.Vonage(
                apiKey: try required(vonage.apiKey, "sms.vonage.apiKey", "a1b2c3d4"),
                apiSecret: try required(vonage.apiSecret, "sms.vonage.apiSecret", "the API secret"),
                from: try required(vonage.from, "sms.vonage.from", "Example or 447700900000"))
            if let url = vonage.baseURL { settings.baseURL = url }
            sms.gateway = .vonage(settings)
        case "webhook":
            guard let url = webhook.url else { throw ConfigurationError(key: "sms.webhook.url", problem: "needed with sms.gateway: webhook") }
            let secret = try required(webhook.secret, "sms.webhook.secret", "32 random characters")
            guard secret.count >= 32 else { throw ConfigurationError(key: "sms.webhook.secret", problem: "at least 32 characters") }
            sms.gateway = .webhook(SMSGatewaySettings.Webhook(url: url, secret: secret))
        case let other?:
            throw ConfigurationError(key: "sms.gateway", problem: "\(other) is not a gateway; expected twilio, vonage or webhook")
        }
        sms.appName = try r.string("sms.appName")
        if let name = sms.appName,
            name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) || name.count > SMSText.maximumAppNameLength
        {
            throw ConfigurationError(key: "sms.appName", problem: "at most \(SMSText.maximumAppNameLength) characters, no control characters")
        }
        sms.androidAppHash = try r.string("sms.androidAppHash")
        if let hash = sms.androidAppHash, !SMSText.isAppHash(hash) {
            throw ConfigurationError(key: "sms.androidAppHash", problem: "expected the 11-character hash Android's AppSignatureHelper prints")
        }
        sms.webOTPDomain = try r.string("sms.webOTPDomain")
        if let domain = sms.webOTPDomain, !isHostName(domain) {
            throw ConfigurationError(key: "sms.webOTPDomain", problem: "\(domain) is not a host name (no scheme, port or path)")
        }
        if sms.androidAppHash != nil, sms.webOTPDomain != nil {
            throw ConfigurationError(
                key: "sms.webOTPDomain",
                problem: "an SMS ends with either the SMS Retriever hash or the WebOTP line: set one of sms.androidAppHash and sms.webOTPDomain")
        }
        sms.whatsappRegions = Set(try r.stringArray("sms.whatsapp.regions") ?? [])
        for region in sms.whatsappRegions where region != "*" && !(region.utf8.count == 2 && region.utf8.allSatisfy { $0 >= 0x41 && $0 <= 0x5A }) {
            throw ConfigurationError(key: "sms.whatsapp.regions", problem: "\(region) is not a region code (ISO 3166, e.g. IN) or *")
        }
        if !sms.whatsappRegions.isEmpty {
            guard case .twilio(let settings) = sms.gateway, settings.whatsappFrom != nil else {
                throw ConfigurationError(
                    key: "sms.whatsapp.regions", problem: "WhatsApp goes through sms.gateway: twilio with sms.twilio.whatsappFrom")
            }
        }
        sms.appVerification = try readAppVerification(r, mode: mode)
        sms.timeout = TimeInterval(try r.int("sms.delivery.timeoutSeconds", in: 1...120) ?? Int(sms.timeout))
        sms.maxAttempts = try r.int("sms.delivery.maxAttempts", in: 1...20) ?? sms.maxAttempts
        return sms
    }

    /// `sms.appVerification.kind` (`none`, `proofOfWork`, `recaptcha`, `hcaptcha`, `turnstile`) and its keys. Unset:
    /// none in development mode, a proof of work in production.
    static func readAppVerification(_ r: ConfigValues, mode: Mode) throws -> AppVerification {
        let difficulty = try r.int("sms.appVerification.proofOfWorkDifficulty", in: 8...32) ?? 20
        let siteKey = try r.string("sms.appVerification.siteKey")
        let secret = try r.string("sms.appVerification.secret", isSecret: true)
        let verifyURL = try gatewayURL(r, "sms.appVerification.verifyURL")
        let minimumScore = try r.int("sms.appVerification.minimumScorePercent", in: 0...100).map { Double($0) / 100 }
        switch try r.string("sms.appVerification.kind") {
        case nil: return mode == .production ? .proofOfWork(difficulty: difficulty) : .none
        case "none": return .none
        case "proofOfWork": return .proofOfWork(difficulty: difficulty)
        case let kind?:
            guard let service = SiteVerifyCaptcha.Service(rawValue: kind) else {
                throw ConfigurationError(
                    key: "sms.appVerification.kind", problem: "\(kind) is not one of none, proofOfWork, recaptcha, hcaptcha, turnstile")
            }
            guard let siteKey, !siteKey.isEmpty else {
                throw ConfigurationError(key: "sms.appVerification.siteKey", problem: "needed with sms.appVerification.kind: \(kind)")
            }
            guard let secret, !secret.isEmpty else {
                throw ConfigurationError(key: "sms.appVerification.secret", problem: "needed with sms.appVerification.kind: \(kind)")
            }
            return .captcha(service: service, siteKey: siteKey, secret: secret, verifyURL: verifyURL, minimumScore: minimumScore)
        }
    }

    /// An http(s) URL without query, fragment or credentials, for a gateway's address.
    private static func gatewayURL(_ r: ConfigValues, _ key: String) throws -> URL? {
        guard let text = try r.string(key) else { return nil }
        guard let parsed = URLComponents(string: text), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""), parsed.host?.isEmpty == false,
            parsed.query == nil, parsed.fragment == nil, parsed.user == nil, parsed.password == nil, let url = parsed.url
        else { throw ConfigurationError(key: key, problem: "expected an http(s) URL without query, fragment or credentials") }
        return url
    }
}
