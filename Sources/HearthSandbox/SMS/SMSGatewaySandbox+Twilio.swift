import Foundation
import HearthFormEncoding
import Hummingbird

extension SMSGatewaySandbox {
    /// Twilio's error body: `{"code", "message", "more_info", "status"}`.
    static func twilioError(_ status: Int, code: Int, _ message: String) -> Response {
        SandboxHTTP.json(
            .object([
                "code": .int(code), "message": .string(message), "more_info": .string("https://www.twilio.com/docs/errors/\(code)"),
                "status": .int(status),
            ]), status: .init(code: status))
    }

    /// `POST /2010-04-01/Accounts/{AccountSid}/Messages.json`.
    func twilioMessage(_ request: Request, account: String) async -> Response {
        if let status = arrive(.twilio) {
            return Self.twilioError(status, code: status == 429 ? 20429 : 20500, status == 429 ? "Too Many Requests" : "Internal Server Error")
        }
        let accepted = [(twilio.accountSID, twilio.authToken), (twilio.apiKeySID, twilio.apiKeySecret)]
        guard let (user, password) = SandboxHTTP.basicCredentials(request), accepted.contains(where: { $0 == (user, password) }) else {
            return Self.twilioError(401, code: 20003, "Authenticate")
        }
        guard account == twilio.accountSID else {
            return Self.twilioError(404, code: 20404, "The requested resource /2010-04-01/Accounts/\(account)/Messages.json was not found")
        }
        guard SandboxHTTP.isForm(request), let text = await SandboxHTTP.bodyText(request), let pairs = FormEncoding.pairs(text) else {
            return Self.twilioError(400, code: 21604, "A 'To' phone number is required.")
        }
        let form = FormEncoding.firstValues(pairs)
        guard let to = form["To"], !to.isEmpty else { return Self.twilioError(400, code: 21604, "A 'To' phone number is required.") }
        let whatsapp = to.hasPrefix("whatsapp:")
        let number = whatsapp ? String(to.dropFirst("whatsapp:".count)) : to
        guard Self.isE164(number) else { return Self.twilioError(400, code: 21211, "Invalid 'To' Phone Number: \(number)") }
        let sender: String
        if let service = form["MessagingServiceSid"], !whatsapp {
            guard service == twilio.messagingServiceSID else {
                return Self.twilioError(400, code: 21701, "The Messaging Service Sid \(service) is invalid.")
            }
            sender = twilio.from
        } else if let from = form["From"], !from.isEmpty {
            guard from == (whatsapp ? "whatsapp:\(twilio.whatsappFrom)" : twilio.from) else {
                return whatsapp
                    ? Self.twilioError(400, code: 63007, "Twilio could not find a Channel with the specified From address")
                    : Self.twilioError(400, code: 21606, "The From phone number \(from) is not a valid message-capable Twilio phone number.")
            }
            sender = whatsapp ? twilio.whatsappFrom : from
        } else {
            return Self.twilioError(400, code: 21603, "A 'From' phone number is required.")
        }
        guard let body = form["Body"], !body.isEmpty else { return Self.twilioError(400, code: 21602, "Message body is required.") }
        guard body.count <= 1600 else {
            return Self.twilioError(400, code: 21617, "The concatenated message body exceeds the 1600 character limit.")
        }
        let sid = "SM" + SandboxRandom.hex(bytes: 16)
        keep(
            Message(
                gateway: .twilio, to: number, from: sender, body: body, channel: whatsapp ? "whatsapp" : "sms", id: sid, reference: nil,
                unicode: false))
        return SandboxHTTP.json(
            .object([
                "sid": .string(sid), "account_sid": .string(twilio.accountSID), "to": .string(to),
                "from": .string(whatsapp ? "whatsapp:\(sender)" : sender), "body": .string(body), "status": .string("queued"),
                "messaging_service_sid": form["MessagingServiceSid"].map(SandboxJSON.string) ?? .null, "error_code": .null,
                "error_message": .null, "direction": .string("outbound-api"), "api_version": .string("2010-04-01"),
                "uri": .string("/2010-04-01/Accounts/\(twilio.accountSID)/Messages/\(sid).json"),
            ]), status: .created)
    }
}
