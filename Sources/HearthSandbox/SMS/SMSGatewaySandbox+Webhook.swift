import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import Synchronization

extension SMSGatewaySandbox {
    /// The receiver of Hearth's signed SMS webhook, written as an operator would from the format Hearth documents:
    /// `Hearth-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`, at most 5 minutes
    /// old; a repeated `id` is the same message (answered again, kept once).
    func webhookMessage(_ request: Request) async -> Response {
        if let status = arrive(.webhook) { return SandboxHTTP.text("refused", status: .init(code: status)) }
        guard let buffer = try? await request.body.collect(upTo: SandboxHTTP.maximumBodySize) else {
            return SandboxHTTP.text("body too large", status: .contentTooLarge)
        }
        let body = Data(buffer.readableBytesView)
        guard let header = HTTPField.Name("Hearth-Signature").flatMap({ request.headers[$0] }), verifies(header, body: body) else {
            return SandboxHTTP.text("bad signature", status: .unauthorized)
        }
        guard (request.headers[.contentType] ?? "").hasPrefix("application/json"), let json = SandboxJSON(jsonData: body),
            let id = json["id"]?.stringValue, let to = json["to"]?.stringValue, Self.isE164(to),
            let text = json["body"]?.stringValue, !text.isEmpty, let channel = json["channel"]?.stringValue,
            json["purpose"]?.stringValue != nil, json["languageCode"]?.stringValue != nil,
            let expiresAt = json["expiresAt"]?.stringValue.flatMap({ ISO8601DateFormatter().date(from: $0) }),
            HTTPField.Name("Idempotency-Key").flatMap({ request.headers[$0] }) == id
        else { return SandboxHTTP.text("malformed message", status: .badRequest) }
        guard expiresAt > clock() else { return SandboxHTTP.text("expired", status: .unprocessableContent) }
        let gatewayID: String = state.withLock { state in
            if let known = state.webhookIDs[id] { return known }
            let fresh = "wh-" + SandboxRandom.hex(bytes: 8)
            state.webhookIDs[id] = fresh
            state.messages.append(Message(gateway: .webhook, to: to, from: "", body: text, channel: channel, id: fresh, reference: id, unicode: true))
            return fresh
        }
        return SandboxHTTP.json(.object(["id": .string(gatewayID)]))
    }

    /// Whether `header` is a valid signature of `body` made in the last 5 minutes (or up to 5 minutes ahead).
    func verifies(_ header: String, body: Data) -> Bool {
        var timestamp: Int?
        var signatures: [Data] = []
        for part in header.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { return false }
            if pair[0] == "t" { timestamp = Int(pair[1]) }
            if pair[0] == "v1", let bytes = Data(hexString: pair[1]) { signatures.append(bytes) }
        }
        guard let timestamp, abs(clock().timeIntervalSince1970 - Double(timestamp)) <= 300 else { return false }
        var signed = Data("\(timestamp).".utf8)
        signed.append(body)
        let key = SymmetricKey(data: Data(webhookSecret.utf8))
        return signatures.contains { HMAC<SHA256>.isValidAuthenticationCode($0, authenticating: signed, using: key) }
    }
}
