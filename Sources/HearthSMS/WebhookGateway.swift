import AsyncHTTPClient
import Crypto
import Foundation
import HearthCore

/// The operator's own gateway: a JSON POST to `sms.webhook.url`, signed so the receiver knows it came from Hearth.
///
/// The body is `{"id", "to", "body", "channel", "purpose", "languageCode", "expiresAt"}` (`to` in E.164, `expiresAt`
/// in ISO 8601). The `Hearth-Signature` header is `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`: a
/// receiver recomputes it over the raw body, compares in constant time, refuses a `t` more than 5 minutes away, and
/// treats a repeated `id` (also in `Idempotency-Key`) as the same message. A 2xx answer is sent (a JSON `id` in it is
/// kept as the gateway's id); 408, 425, 429 and 5xx are retried; any other answer gives the message up.
public struct WebhookGateway: SMSGateway {
    public let settings: SMSGatewaySettings.Webhook
    let http: GatewayHTTP
    let clock: WallClock
    public var name: String { "webhook" }

    public init(settings: SMSGatewaySettings.Webhook, httpClient: HTTPClient, clock: WallClock = .system, timeout: Double = 15) {
        self.settings = settings
        self.http = GatewayHTTP(client: httpClient, timeout: timeout)
        self.clock = clock
    }

    struct Payload: Encodable {
        let id: String
        let to: String
        let body: String
        let channel: String
        let purpose: String
        let languageCode: String
        let expiresAt: String
    }

    /// The body sent for `message`.
    static func body(for message: OutgoingSMS) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(
            Payload(
                id: message.id, to: message.recipient, body: message.body, channel: message.channel.rawValue, purpose: message.purpose,
                languageCode: message.languageCode, expiresAt: ISO8601DateFormatter().string(from: message.expiresAt)))
    }

    /// `t=<timestamp>,v1=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>`.
    public static func signature(body: Data, timestamp: Int, secret: String) -> String {
        var signed = Data("\(timestamp).".utf8)
        signed.append(body)
        let mac = HMAC<SHA256>.authenticationCode(for: signed, using: SymmetricKey(data: Data(secret.utf8)))
        return "t=\(timestamp),v1=\(HexDigits.lowercase(Array(mac)))"
    }

    public func send(_ message: OutgoingSMS) async throws -> String? {
        let body = try Self.body(for: message)
        let timestamp = Int(clock.now.timeIntervalSince1970)
        let answer = try await http.post(
            settings.url,
            headers: [
                ("Content-Type", "application/json"), ("Idempotency-Key", message.id),
                ("Hearth-Signature", Self.signature(body: body, timestamp: timestamp, secret: settings.secret)),
            ], body: body, gateway: "webhook")
        guard answer.isSuccess else {
            let retry = [408, 425, 429].contains(answer.status) || answer.status >= 500
            throw SMSDeliveryFailure("webhook answered HTTP \(answer.status)", permanent: !retry)
        }
        struct Reply: Decodable { let id: String? }
        return (try? JSONDecoder().decode(Reply.self, from: answer.body))?.id
    }
}

extension SMSGatewaySettings {
    /// The gateway the SMS queue sends through; `nil` for Twilio Verify, which sends the codes itself (``verification(whatsappRegions:httpClient:timeout:)``).
    public func queueGateway(httpClient: HTTPClient, clock: WallClock = .system, timeout: Double = 15) -> (any SMSGateway)? {
        if case .twilio(let twilio) = self, twilio.verifyServiceSID != nil { return nil }
        return gateway(httpClient: httpClient, clock: clock, timeout: timeout)
    }

    /// Twilio Verify, when these are Twilio's settings with a Verify service.
    public func verification(whatsappRegions: Set<String>, httpClient: HTTPClient, timeout: Double = 15) -> TwilioVerify? {
        guard case .twilio(let twilio) = self, twilio.verifyServiceSID != nil else { return nil }
        return TwilioVerify(settings: twilio, whatsappRegions: whatsappRegions, httpClient: httpClient, timeout: timeout)
    }

    /// The gateway these settings describe.
    public func gateway(httpClient: HTTPClient, clock: WallClock = .system, timeout: Double = 15) -> any SMSGateway {
        switch self {
        case .twilio(let settings): TwilioGateway(settings: settings, httpClient: httpClient, timeout: timeout)
        case .vonage(let settings): VonageGateway(settings: settings, httpClient: httpClient, timeout: timeout)
        case .webhook(let settings): WebhookGateway(settings: settings, httpClient: httpClient, clock: clock, timeout: timeout)
        }
    }
}
