import Foundation
import HearthFormEncoding
import Hummingbird
import Synchronization

extension SMSGatewaySandbox {
    /// Twilio Verify's limits: a verification lives 10 minutes, allows 5 checks, and a number gets at most 5 sends in
    /// 10 minutes.
    static let verificationLifetime: TimeInterval = 600
    static let verifyChecks = 5
    static let verifySends = 5

    /// The form of an authenticated request to the account's Verify service, or the error Twilio would answer.
    func verifyForm(_ request: Request, service: String) async -> Result<[String: String], TwilioRefusal> {
        let accepted = [(twilio.accountSID, twilio.authToken), (twilio.apiKeySID, twilio.apiKeySecret)]
        guard let (user, password) = SandboxHTTP.basicCredentials(request), accepted.contains(where: { $0 == (user, password) }) else {
            return .failure(TwilioRefusal(status: 401, code: 20003, message: "Authenticate"))
        }
        guard service == twilio.verifyServiceSID else {
            return .failure(TwilioRefusal(status: 404, code: 20404, message: "The requested resource /Services/\(service) was not found"))
        }
        guard SandboxHTTP.isForm(request), let text = await SandboxHTTP.bodyText(request), let pairs = FormEncoding.pairs(text) else {
            return .failure(TwilioRefusal(status: 400, code: 60200, message: "Invalid parameter"))
        }
        let form = FormEncoding.firstValues(pairs)
        guard let to = form["To"], Self.isE164(to) else {
            return .failure(TwilioRefusal(status: 400, code: 60200, message: "Invalid parameter `To`: \(form["To"] ?? "")"))
        }
        return .success(form)
    }

    struct TwilioRefusal: Error {
        let status: Int
        let code: Int
        let message: String
        var response: Response { SMSGatewaySandbox.twilioError(status, code: code, message) }
    }

    /// `POST /v2/Services/{ServiceSid}/Verifications`: sends a code (the same one again while it is pending).
    func twilioVerification(_ request: Request, service: String) async -> Response {
        await withVerifyForm(request, service: service) { form in self.startVerification(form, service: service) }
    }

    /// Counts the request, then answers the pending fault, Twilio's refusal of the request, or `body`'s answer to its form.
    func withVerifyForm(_ request: Request, service: String, _ body: ([String: String]) -> Response) async -> Response {
        if let status = arrive(.twilioVerify) { return Self.twilioError(status, code: 20500, "Internal Server Error") }
        switch await verifyForm(request, service: service) {
        case .success(let form): return body(form)
        case .failure(let refusal): return refusal.response
        }
    }

    func startVerification(_ form: [String: String], service: String) -> Response {
        let to = form["To"] ?? ""
        let channel = form["Channel"] ?? ""
        guard ["sms", "whatsapp", "call"].contains(channel) else {
            return Self.twilioError(400, code: 60200, "Invalid parameter `Channel`: \(channel)")
        }
        let now = clock()
        let outcome: (code: String, sid: String)? = state.withLock { state in
            let recent = (state.verifySends[to] ?? []).filter { now.timeIntervalSince($0) < Self.verificationLifetime }
            guard recent.count < Self.verifySends else { return nil }
            state.verifySends[to] = recent + [now]
            var pending =
                state.verifications[to].flatMap { $0.expiresAt > now ? $0 : nil }
                ?? PendingVerification(code: SandboxRandom.digits(6), expiresAt: now.addingTimeInterval(Self.verificationLifetime), checks: 0)
            pending.expiresAt = max(pending.expiresAt, now)
            state.verifications[to] = pending
            let sid = "VE" + SandboxRandom.hex(bytes: 16)
            let body = "Your verification code is: \(pending.code)" + (form["Locale"].map { " [\($0)]" } ?? "")
            state.messages.append(
                Message(gateway: .twilioVerify, to: to, from: "", body: body, channel: channel, id: sid, reference: nil, unicode: true))
            return (pending.code, sid)
        }
        guard let outcome else { return Self.twilioError(429, code: 60203, "Max send attempts reached") }
        return SandboxHTTP.json(
            .object([
                "sid": .string(outcome.sid), "service_sid": .string(service), "account_sid": .string(twilio.accountSID), "to": .string(to),
                "channel": .string(channel), "status": .string("pending"), "valid": .bool(false),
            ]), status: .created)
    }

    /// `POST /v2/Services/{ServiceSid}/VerificationCheck`: `approved` for the pending code, once.
    func twilioVerificationCheck(_ request: Request, service: String) async -> Response {
        await withVerifyForm(request, service: service) { form in self.checkVerification(form, service: service) }
    }

    func checkVerification(_ form: [String: String], service: String) -> Response {
        let to = form["To"] ?? ""
        guard let code = form["Code"], !code.isEmpty else { return Self.twilioError(400, code: 60200, "Invalid parameter `Code`") }
        let now = clock()
        enum Outcome { case missing, exhausted, approved, pending }
        let outcome: Outcome = state.withLock { state in
            guard var pending = state.verifications[to], pending.expiresAt > now else {
                state.verifications[to] = nil
                return .missing
            }
            guard pending.checks < Self.verifyChecks else { return .exhausted }
            if pending.code == code {
                state.verifications[to] = nil
                return .approved
            }
            pending.checks += 1
            state.verifications[to] = pending
            return .pending
        }
        switch outcome {
        case .missing: return Self.twilioError(404, code: 20404, "The requested resource /Services/\(service)/VerificationCheck was not found")
        case .exhausted: return Self.twilioError(429, code: 60202, "Max check attempts reached")
        case .approved, .pending:
            let approved = outcome == .approved
            return SandboxHTTP.json(
                .object([
                    "sid": .string("VE" + SandboxRandom.hex(bytes: 16)), "service_sid": .string(service), "to": .string(to),
                    "status": .string(approved ? "approved" : "pending"), "valid": .bool(approved),
                ]))
        }
    }
}
