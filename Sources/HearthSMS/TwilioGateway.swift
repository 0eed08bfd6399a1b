import AsyncHTTPClient
import Foundation
import HearthCore
import HearthFormEncoding

/// Twilio Programmable Messaging: `POST {baseURL}/2010-04-01/Accounts/{AccountSid}/Messages.json`, a form with `To`,
/// `From` (or `MessagingServiceSid`) and `Body`, HTTP Basic authentication with the account SID (or an API key SID)
/// and the auth token (or the key's secret). WhatsApp goes the same way with `whatsapp:` addresses. Twilio answers
/// 201 with the message's `sid`; an error is JSON with Twilio's `code` and `message`.
public struct TwilioGateway: SMSGateway {
    public let settings: SMSGatewaySettings.Twilio
    let http: GatewayHTTP
    public var name: String { "twilio" }

    public init(settings: SMSGatewaySettings.Twilio, httpClient: HTTPClient, timeout: Double = 15) {
        self.settings = settings
        self.http = GatewayHTTP(client: httpClient, timeout: timeout)
    }

    /// The form Twilio is sent for `message`.
    func form(for message: OutgoingSMS) throws -> [(String, String)] {
        var form: [(String, String)]
        switch message.channel {
        case .sms:
            form = [("To", message.recipient)]
            if let service = settings.messagingServiceSID {
                form.append(("MessagingServiceSid", service))
            } else if let from = settings.from {
                form.append(("From", from))
            } else {
                throw SMSDeliveryFailure("Twilio: no sender (sms.twilio.from or sms.twilio.messagingServiceSID)", permanent: true)
            }
        case .whatsapp:
            guard let from = settings.whatsappFrom else {
                throw SMSDeliveryFailure("Twilio: no WhatsApp sender (sms.twilio.whatsappFrom)", permanent: true)
            }
            form = [("To", "whatsapp:\(message.recipient)"), ("From", "whatsapp:\(from)")]
        }
        form.append(("Body", message.body))
        return form
    }

    public func send(_ message: OutgoingSMS) async throws -> String? {
        let url = settings.baseURL.appendingPathComponent("2010-04-01/Accounts/\(settings.accountSID)/Messages.json")
        let user = settings.apiKeySID ?? settings.accountSID
        let credentials = Data("\(user):\(settings.authToken)".utf8).base64EncodedString()
        let answer = try await http.post(
            url,
            headers: [("Authorization", "Basic \(credentials)"), ("Content-Type", "application/x-www-form-urlencoded")],
            body: Data(FormEncoding.encode(try form(for: message)).utf8), gateway: "Twilio")
        struct Reply: Decodable {
            let sid: String?
            let code: Int?
            let message: String?
        }
        let reply = try? JSONDecoder().decode(Reply.self, from: answer.body)
        if answer.isSuccess {
            guard let sid = reply?.sid, !sid.isEmpty else {
                throw SMSDeliveryFailure("Twilio answered HTTP \(answer.status) without a message sid", permanent: false)
            }
            return sid
        }
        let detail = reply.map { "\($0.code.map(String.init) ?? "-") \(GatewayHTTP.excerpt($0.message ?? ""))" } ?? "no JSON error"
        // 429 and 5xx are Twilio's to get over (20429: too many requests); the rest is the request's fault or the
        // account's (21211 invalid To, 21408 region not enabled, 21610 unsubscribed, 20003 authentication).
        let retry = answer.status == 429 || answer.status >= 500 || reply?.code == 20429
        throw SMSDeliveryFailure("Twilio answered HTTP \(answer.status): \(detail)", permanent: !retry)
    }
}
