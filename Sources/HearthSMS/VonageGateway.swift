import AsyncHTTPClient
import Foundation
import HearthCore
import HearthFormEncoding

/// Vonage's SMS API: `POST {baseURL}/sms/json`, a form with `api_key`, `api_secret`, `from`, `to` (the number's
/// digits without `+`), `text` and, for text outside GSM-7, `type=unicode`; `client-ref` carries the message's id.
/// Vonage answers 200 with one `messages` entry whose `status` is `"0"` and `message-id` set on success, or a
/// non-zero status and `error-text`.
public struct VonageGateway: SMSGateway {
    public let settings: SMSGatewaySettings.Vonage
    let http: GatewayHTTP
    public var name: String { "vonage" }

    public init(settings: SMSGatewaySettings.Vonage, httpClient: HTTPClient, timeout: Double = 15) {
        self.settings = settings
        self.http = GatewayHTTP(client: httpClient, timeout: timeout)
    }

    /// Statuses worth another attempt: 1 throttled, 5 internal error.
    static let retriedStatuses: Set<String> = ["1", "5"]

    func form(for message: OutgoingSMS) throws -> [(String, String)] {
        guard message.channel == .sms else { throw SMSDeliveryFailure("Vonage: the SMS API sends SMS only", permanent: true) }
        var form = [
            ("api_key", settings.apiKey), ("api_secret", settings.apiSecret), ("from", settings.from),
            ("to", String(message.recipient.drop { $0 == "+" })), ("text", message.body), ("client-ref", String(message.id.prefix(100))),
        ]
        if !GSM7.encodes(message.body) { form.append(("type", "unicode")) }
        return form
    }

    public func send(_ message: OutgoingSMS) async throws -> String? {
        let answer = try await http.post(
            settings.baseURL.appendingPathComponent("sms/json"), headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: Data(FormEncoding.encode(try form(for: message)).utf8), gateway: "Vonage")
        guard answer.isSuccess else {
            throw SMSDeliveryFailure("Vonage answered HTTP \(answer.status)", permanent: answer.status < 500 && answer.status != 429)
        }
        struct Reply: Decodable {
            struct Message: Decodable {
                let status: String?
                let messageID: String?
                let errorText: String?
                enum CodingKeys: String, CodingKey {
                    case status
                    case messageID = "message-id"
                    case errorText = "error-text"
                }
            }
            let messages: [Message]?
        }
        guard let reply = try? JSONDecoder().decode(Reply.self, from: answer.body), let first = reply.messages?.first, let status = first.status
        else { throw SMSDeliveryFailure("Vonage answered HTTP \(answer.status) without a message status", permanent: false) }
        guard status == "0" else {
            throw SMSDeliveryFailure(
                "Vonage status \(GatewayHTTP.excerpt(status)): \(GatewayHTTP.excerpt(first.errorText ?? ""))",
                permanent: !Self.retriedStatuses.contains(status))
        }
        return first.messageID
    }
}

/// The GSM 03.38 default alphabet and its extension table: text made only of these goes as GSM-7 (160 characters a
/// part); anything else needs UCS-2 (`type=unicode`, 70 a part).
enum GSM7 {
    static let characters = Set(
        "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà"
            + "^{}\\[~]|€")

    static func encodes(_ text: String) -> Bool { text.allSatisfy { characters.contains($0) } }
}
