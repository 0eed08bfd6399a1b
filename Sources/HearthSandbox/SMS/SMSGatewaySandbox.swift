import Crypto
import Foundation
import HearthFormEncoding
import Hummingbird
import Synchronization

/// Offline stand-ins for the SMS gateways Hearth sends phone sign-in's codes through: Twilio's Messages API (SMS and
/// WhatsApp), Vonage's SMS API, and a receiver of Hearth's signed webhook. Each is strict about what a real one refuses
/// (authentication, missing or malformed fields) and answers in its format; the messages it accepts are kept for tests
/// to read the codes from (``messages``, or `GET <prefix>/messages`).
///
/// ```swift
/// let gateways = SMSGatewaySandbox()
/// gateways.addRoutes(to: router.group("/sms-sandbox"))
/// // sms.twilio.baseURL = http://127.0.0.1:PORT/sms-sandbox/twilio, accountSID and authToken from gateways.twilio
/// ```
///
/// ``failNext(_:status:count:)`` makes a gateway refuse its next requests, to test retries and giving up.
public final class SMSGatewaySandbox: Sendable {
    /// What a developer copies from Twilio's console.
    public struct TwilioAccount: Sendable {
        public let accountSID: String
        public let authToken: String
        /// An API key of the account, and its secret (the other way Twilio authenticates).
        public let apiKeySID: String
        public let apiKeySecret: String
        /// A number the account may send SMS from, a WhatsApp sender, and a messaging service.
        public let from: String
        public let whatsappFrom: String
        public let messagingServiceSID: String
        /// A Twilio Verify service of the account.
        public let verifyServiceSID: String
    }

    public struct VonageAccount: Sendable {
        public let apiKey: String
        public let apiSecret: String
        public let from: String
    }

    /// A message a gateway accepted.
    public struct Message: Sendable, Equatable {
        public let gateway: Gateway
        /// E.164, without a `whatsapp:` prefix.
        public let to: String
        public let from: String
        public let body: String
        public let channel: String
        /// The gateway's id for it (Twilio's `SM…` sid, Vonage's message id, the webhook receiver's own).
        public let id: String
        /// Hearth's id for it (Vonage's `client-ref`, the webhook's `id`).
        public let reference: String?
        /// Vonage: whether it was sent as `type=unicode`.
        public let unicode: Bool
    }

    public enum Gateway: String, Sendable, CaseIterable {
        case twilio, twilioVerify, vonage, webhook
    }

    public let twilio: TwilioAccount
    public let vonage: VonageAccount
    /// The webhook receiver's shared secret.
    public let webhookSecret: String
    let clock: @Sendable () -> Date

    struct State {
        var messages: [Message] = []
        var faults: [Gateway: (status: Int, count: Int)] = [:]
        var requests: [Gateway: Int] = [:]
        var webhookIDs: [String: String] = [:]
        /// Twilio Verify's pending verifications by number.
        var verifications: [String: PendingVerification] = [:]
        /// Twilio Verify's sends by number, for its limit.
        var verifySends: [String: [Date]] = [:]
    }

    struct PendingVerification {
        var code: String
        var expiresAt: Date
        var checks: Int
    }
    let state = Mutex(State())

    public init(clock: @escaping @Sendable () -> Date = { Date() }) {
        twilio = TwilioAccount(
            accountSID: "AC" + SandboxRandom.hex(bytes: 16), authToken: SandboxRandom.hex(bytes: 16), apiKeySID: "SK" + SandboxRandom.hex(bytes: 16),
            apiKeySecret: SandboxRandom.alphanumeric(32), from: "+15005550006", whatsappFrom: "+14155238886",
            messagingServiceSID: "MG" + SandboxRandom.hex(bytes: 16), verifyServiceSID: "VA" + SandboxRandom.hex(bytes: 16))
        vonage = VonageAccount(apiKey: SandboxRandom.hex(bytes: 4), apiSecret: SandboxRandom.alphanumeric(16), from: "Hearth")
        webhookSecret = SandboxRandom.base64URL(bytes: 32)
        self.clock = clock
    }

    /// The messages accepted so far, oldest first.
    public var messages: [Message] { state.withLock { $0.messages } }

    /// How many requests `gateway` has received (accepted or not).
    public func requestCount(_ gateway: Gateway) -> Int { state.withLock { $0.requests[gateway] ?? 0 } }

    /// The newest code (the first run of 6 ASCII digits) sent to `phoneNumber`.
    public func lastCode(to phoneNumber: String) -> String? {
        guard let body = messages.last(where: { $0.to == phoneNumber })?.body else { return nil }
        return body.firstMatch(of: /[0-9]{6}/).map { String($0.output) }
    }

    /// Makes `gateway` answer its next `count` requests with `status` (in its own error format), without keeping them.
    public func failNext(_ gateway: Gateway, status: Int, count: Int = 1) {
        state.withLock { $0.faults[gateway] = (status, count) }
    }

    /// Counts a request to `gateway`; the fault status it must answer with, if one is pending.
    func arrive(_ gateway: Gateway) -> Int? {
        state.withLock { state in
            state.requests[gateway, default: 0] += 1
            guard let fault = state.faults[gateway], fault.count > 0 else { return nil }
            state.faults[gateway] = fault.count == 1 ? nil : (fault.status, fault.count - 1)
            return fault.status
        }
    }

    func keep(_ message: Message) {
        state.withLock { $0.messages.append(message) }
    }

    /// Adds `/twilio/…`, `/twilio-verify/…`, `/vonage/…`, `/webhook` and `/messages` to `group`.
    public func addRoutes<Context: RequestContext>(to group: RouterGroup<Context>) {
        group.post("/twilio/2010-04-01/Accounts/:account/Messages.json") { request, context in
            await self.twilioMessage(request, account: context.parameters.get("account") ?? "")
        }
        group.post("/twilio-verify/v2/Services/:service/Verifications") { request, context in
            await self.twilioVerification(request, service: context.parameters.get("service") ?? "")
        }
        group.post("/twilio-verify/v2/Services/:service/VerificationCheck") { request, context in
            await self.twilioVerificationCheck(request, service: context.parameters.get("service") ?? "")
        }
        group.post("/vonage/sms/json") { request, _ in await self.vonageMessage(request) }
        group.post("/webhook") { request, _ in await self.webhookMessage(request) }
        group.get("/messages") { _, _ in
            SandboxHTTP.json(
                .object([
                    "messages": .array(
                        self.messages.map { message in
                            .object([
                                "gateway": .string(message.gateway.rawValue), "to": .string(message.to), "from": .string(message.from),
                                "body": .string(message.body), "channel": .string(message.channel), "id": .string(message.id),
                            ])
                        })
                ]))
        }
    }

    /// Whether `text` is E.164: `+`, then 8 to 15 digits not starting with 0.
    static func isE164(_ text: some StringProtocol) -> Bool {
        guard text.first == "+" else { return false }
        let digits = text.dropFirst()
        return (8...15).contains(digits.count) && digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber) && digits.first != "0"
    }
}
