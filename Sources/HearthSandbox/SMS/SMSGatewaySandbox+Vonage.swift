import Foundation
import HearthFormEncoding
import Hummingbird

extension SMSGatewaySandbox {
    /// Vonage's answer for one message: HTTP 200 whatever happened, the outcome in `status`.
    static func vonageAnswer(status: String, to: String? = nil, messageID: String? = nil, errorText: String? = nil) -> Response {
        var message: [String: SandboxJSON] = ["status": .string(status)]
        if let to { message["to"] = .string(to) }
        if let messageID {
            message["message-id"] = .string(messageID)
            message["remaining-balance"] = .string("15.53590000")
            message["message-price"] = .string("0.03330000")
            message["network"] = .string("40490")
        }
        if let errorText { message["error-text"] = .string(errorText) }
        return SandboxHTTP.json(.object(["message-count": .string("1"), "messages": .array([.object(message)])]))
    }

    /// `POST /sms/json`.
    func vonageMessage(_ request: Request) async -> Response {
        if let status = arrive(.vonage) {
            // A fault status of 200 means Vonage's own "throttled" (status 1); others are HTTP statuses.
            return status == 200
                ? Self.vonageAnswer(status: "1", errorText: "Throughput Rate Exceeded - please wait [ 30 ] and retry")
                : SandboxHTTP.text("Internal Server Error", status: .init(code: status))
        }
        let text = await SandboxHTTP.bodyText(request)
        guard SandboxHTTP.isForm(request), let text, let pairs = FormEncoding.pairs(text) else {
            return Self.vonageAnswer(status: "2", errorText: "Missing api_key")
        }
        let form = FormEncoding.firstValues(pairs)
        for field in ["api_key", "api_secret", "from", "to", "text"] where (form[field] ?? "").isEmpty {
            return Self.vonageAnswer(status: "2", errorText: "Missing \(field)")
        }
        guard form["api_key"] == vonage.apiKey, form["api_secret"] == vonage.apiSecret else {
            return Self.vonageAnswer(status: "4", errorText: "Bad Credentials")
        }
        let to = form["to"] ?? ""
        guard Self.isE164("+" + to) else { return Self.vonageAnswer(status: "3", errorText: "Invalid to address") }
        let body = form["text"] ?? ""
        let unicode = form["type"] == "unicode"
        // Text outside GSM-7 sent as `text` arrives garbled on the phone: the stand-in refuses it.
        guard unicode || body.unicodeScalars.allSatisfy({ $0.isASCII }) else {
            return Self.vonageAnswer(status: "3", errorText: "Invalid Message: non-GSM text needs type=unicode")
        }
        let reference = form["client-ref"]
        guard (reference?.count ?? 0) <= 100 else { return Self.vonageAnswer(status: "3", errorText: "Invalid client-ref") }
        let id = SandboxRandom.hex(bytes: 8).uppercased()
        keep(
            Message(
                gateway: .vonage, to: "+" + to, from: form["from"] ?? "", body: body, channel: "sms", id: id, reference: reference, unicode: unicode))
        return Self.vonageAnswer(status: "0", to: to, messageID: id)
    }
}
