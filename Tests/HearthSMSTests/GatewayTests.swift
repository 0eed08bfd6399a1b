import AsyncHTTPClient
import Crypto
import Foundation
import HearthCore
import HearthSandbox
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import HearthSMS

/// Each gateway's request format against the sandbox's stand-in over real HTTP on loopback: what a real gateway
/// accepts goes, what it refuses is a permanent failure or one to retry, as the gateway's documentation says.
@Suite("SMS gateways against their stand-ins")
struct GatewayTests {
    /// A running stand-in and an HTTP client.
    struct Harness: Sendable {
        let sandbox: SMSGatewaySandbox
        let base: URL
        let http: HTTPClient

        func twilio(_ adjust: (inout SMSGatewaySettings.Twilio) -> Void = { _ in }) -> TwilioGateway {
            var settings = SMSGatewaySettings.Twilio(
                accountSID: sandbox.twilio.accountSID, authToken: sandbox.twilio.authToken, from: sandbox.twilio.from,
                whatsappFrom: sandbox.twilio.whatsappFrom, baseURL: base.appendingPathComponent("twilio"))
            adjust(&settings)
            return TwilioGateway(settings: settings, httpClient: http, timeout: 5)
        }

        func vonage(secret: String? = nil) -> VonageGateway {
            VonageGateway(
                settings: .init(
                    apiKey: sandbox.vonage.apiKey, apiSecret: secret ?? sandbox.vonage.apiSecret, from: sandbox.vonage.from,
                    baseURL: base.appendingPathComponent("vonage")), httpClient: http, timeout: 5)
        }

        func webhook(secret: String? = nil, path: String = "webhook", clock: WallClock = .system, timeout: Double = 5) -> WebhookGateway {
            WebhookGateway(
                settings: .init(url: base.appendingPathComponent(path), secret: secret ?? sandbox.webhookSecret), httpClient: http, clock: clock,
                timeout: timeout)
        }
    }

    static func run(_ body: @Sendable (Harness) async throws -> Void) async throws {
        let sandbox = SMSGatewaySandbox()
        let router = Router()
        sandbox.addRoutes(to: router.group("/gateways"))
        // An endpoint that answers too late, for the deadline.
        router.post("/gateways/slow") { _, _ -> String in
            try await Task.sleep(for: .seconds(6))
            return "late"
        }
        var logger = Logger(label: "sms-gateway-tests")
        logger.logLevel = .warning
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)), logger: logger)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let http = HTTPClient(eventLoopGroupProvider: .singleton)
            do {
                try await body(Harness(sandbox: sandbox, base: URL(string: "http://127.0.0.1:\(port)/gateways")!, http: http))
            } catch {
                try? await http.shutdown()
                throw error
            }
            try await http.shutdown()
        }
    }

    static func message(_ to: String = "+919876543210", body: String = "123456 is your verification code for Example.", channel: SMSChannel = .sms)
        -> OutgoingSMS
    {
        OutgoingSMS(
            id: QueueID.make(), recipient: to, body: body, channel: channel, purpose: OutgoingSMS.verificationPurpose, languageCode: "en",
            createdAt: Date(), expiresAt: Date().addingTimeInterval(300))
    }

    static func failure(_ body: () async throws -> String?) async -> SMSDeliveryFailure? {
        do {
            _ = try await body()
            return nil
        } catch {
            return error as? SMSDeliveryFailure
        }
    }

    @Test("Twilio: SMS from the number, from a messaging service, with an API key, and WhatsApp; the sid comes back")
    func twilio() async throws {
        try await Self.run { harness in
            let sandbox = harness.sandbox
            let sid = try await harness.twilio().send(Self.message())
            #expect(sid?.hasPrefix("SM") == true && sid?.count == 34)
            let viaService = try await harness.twilio {
                $0.from = nil
                $0.messagingServiceSID = sandbox.twilio.messagingServiceSID
            }.send(Self.message("+6281234567890"))
            let viaKey = try await harness.twilio {
                $0.apiKeySID = sandbox.twilio.apiKeySID
                $0.authToken = sandbox.twilio.apiKeySecret
            }
            .send(Self.message("+8801712345678", body: "৪৫৬ 456789 হল Example-এর জন্য আপনার যাচাইকরণ কোড।"))
            let whatsapp = try await harness.twilio().send(Self.message("+919812345678", channel: .whatsapp))
            let messages = sandbox.messages
            #expect(messages.map(\.id) == [sid, viaService, viaKey, whatsapp].compactMap { $0 })
            #expect(messages.map(\.to) == ["+919876543210", "+6281234567890", "+8801712345678", "+919812345678"])
            #expect(messages.map(\.channel) == ["sms", "sms", "sms", "whatsapp"])
            #expect(messages[2].body == "৪৫৬ 456789 হল Example-এর জন্য আপনার যাচাইকরণ কোড।")
            #expect(messages[3].from == sandbox.twilio.whatsappFrom)
            #expect(sandbox.lastCode(to: "+919876543210") == "123456")
        }
    }

    @Test("Twilio refusals: wrong credentials, another account, a bad number, another sender are permanent; 429 and 503 are retried")
    func twilioRefusals() async throws {
        try await Self.run { harness in
            let wrongToken = await Self.failure {
                try await harness.twilio { $0.authToken = "0123456789abcdef0123456789abcdef" }.send(Self.message())
            }
            #expect(wrongToken?.permanent == true)
            #expect(wrongToken?.message == "Twilio answered HTTP 401: 20003 Authenticate")
            #expect(wrongToken?.message.contains("0123456789abcdef") == false)
            let otherAccount = await Self.failure {
                try await harness.twilio { $0.accountSID = "AC" + String(repeating: "0", count: 32) }.send(Self.message())
            }
            #expect(otherAccount?.permanent == true && otherAccount?.message.hasPrefix("Twilio answered HTTP 401") == true)
            let badNumber = await Self.failure { try await harness.twilio().send(Self.message("+0123")) }
            #expect(badNumber?.permanent == true && badNumber?.message.hasPrefix("Twilio answered HTTP 400: 21211") == true)
            let otherSender = await Self.failure { try await harness.twilio { $0.from = "+15005550001" }.send(Self.message()) }
            #expect(otherSender?.permanent == true && otherSender?.message.hasPrefix("Twilio answered HTTP 400: 21606") == true)
            let noWhatsApp = await Self.failure { try await harness.twilio { $0.whatsappFrom = nil }.send(Self.message(channel: .whatsapp)) }
            #expect(noWhatsApp?.permanent == true)
            harness.sandbox.failNext(.twilio, status: 429)
            let throttled = await Self.failure { try await harness.twilio().send(Self.message()) }
            #expect(throttled?.permanent == false && throttled?.message == "Twilio answered HTTP 429: 20429 Too Many Requests")
            harness.sandbox.failNext(.twilio, status: 503)
            #expect(await Self.failure { try await harness.twilio().send(Self.message()) }?.permanent == false)
            #expect(harness.sandbox.messages.isEmpty)
        }
    }

    @Test("Vonage: digits without +, client-ref, unicode for Hindi; refusals by status: 4 permanent, 1 retried, HTTP 500 retried")
    func vonage() async throws {
        try await Self.run { harness in
            let english = Self.message()
            let id = try await harness.vonage().send(english)
            let hindi = try await harness.vonage().send(Self.message("+919812345678", body: "654321 Example के लिए आपका सत्यापन कोड है।"))
            let messages = harness.sandbox.messages
            #expect(messages.map(\.id) == [id, hindi].compactMap { $0 })
            #expect(messages.map(\.to) == ["+919876543210", "+919812345678"])
            #expect(messages.map(\.unicode) == [false, true])
            #expect(messages.first?.reference == english.id)
            #expect(messages.last?.body == "654321 Example के लिए आपका सत्यापन कोड है।")

            let credentials = await Self.failure { try await harness.vonage(secret: "not-the-secret").send(Self.message()) }
            #expect(credentials?.permanent == true && credentials?.message == "Vonage status 4: Bad Credentials")
            let whatsapp = await Self.failure { try await harness.vonage().send(Self.message(channel: .whatsapp)) }
            #expect(whatsapp?.permanent == true)
            harness.sandbox.failNext(.vonage, status: 200)
            let throttled = await Self.failure { try await harness.vonage().send(Self.message()) }
            #expect(throttled?.permanent == false && throttled?.message.hasPrefix("Vonage status 1:") == true)
            harness.sandbox.failNext(.vonage, status: 500)
            #expect(await Self.failure { try await harness.vonage().send(Self.message()) }?.permanent == false)
        }
    }

    @Test("webhook: signed JSON the receiver verifies; a repeat of one id is one message; a wrong secret or an old clock is refused for good")
    func webhook() async throws {
        try await Self.run { harness in
            let message = Self.message("+8801712345678", body: "789012 হল Example-এর জন্য আপনার যাচাইকরণ কোড।")
            let first = try await harness.webhook().send(message)
            let again = try await harness.webhook().send(message)
            #expect(first?.hasPrefix("wh-") == true && again == first)
            #expect(harness.sandbox.messages.count == 1)
            #expect(harness.sandbox.messages.first?.reference == message.id)
            #expect(harness.sandbox.lastCode(to: "+8801712345678") == "789012")

            let wrong = await Self.failure { try await harness.webhook(secret: String(repeating: "s", count: 43)).send(Self.message()) }
            #expect(wrong?.permanent == true && wrong?.message == "webhook answered HTTP 401")
            // A signature made ten minutes ago (a replayed request) is refused.
            let stale = await Self.failure {
                try await harness.webhook(clock: WallClock { Date().addingTimeInterval(-600) }).send(Self.message())
            }
            #expect(stale?.permanent == true && stale?.message == "webhook answered HTTP 401")
            harness.sandbox.failNext(.webhook, status: 503, count: 2)
            #expect(await Self.failure { try await harness.webhook().send(Self.message()) }?.permanent == false)
            #expect(await Self.failure { try await harness.webhook().send(Self.message()) }?.permanent == false)
            harness.sandbox.failNext(.webhook, status: 429)
            #expect(await Self.failure { try await harness.webhook().send(Self.message()) }?.permanent == false)
            #expect(harness.sandbox.messages.count == 1)
        }
    }

    @Test("the signature is HMAC-SHA256 over \"<t>.<body>\", checked here independently of Hearth's code")
    func signature() throws {
        let body = Data(#"{"id":"x"}"#.utf8)
        let header = WebhookGateway.signature(body: body, timestamp: 1_700_000_000, secret: "key")
        let mac = HMAC<SHA256>.authenticationCode(for: Data("1700000000.{\"id\":\"x\"}".utf8), using: SymmetricKey(data: Data("key".utf8)))
        #expect(header == "t=1700000000,v1=" + mac.map { String(format: "%02x", $0) }.joined())
        let payload = try #require(try JSONSerialization.jsonObject(with: WebhookGateway.body(for: Self.message())) as? [String: String])
        #expect(Set(payload.keys) == ["id", "to", "body", "channel", "purpose", "languageCode", "expiresAt"])
    }

    @Test("a gateway that does not answer in time is a failure to retry, named without the message")
    func deadline() async throws {
        try await Self.run { harness in
            let started = ContinuousClock.now
            let late = await Self.failure { try await harness.webhook(path: "slow", timeout: 1).send(Self.message(body: "SECRET 123456")) }
            #expect(late?.permanent == false)
            #expect(late?.message.contains("timed out") == true)
            #expect(late?.message.contains("123456") == false)
            #expect(ContinuousClock.now - started < .seconds(20))
        }
    }
}

/// Gateways and their settings print no credential, whichever way they are printed.
@Suite struct GatewayRedactionTests {
    @Test("description, debugDescription, dump and reflection of every gateway and setting hold no secret")
    func redaction() throws {
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        defer { try? http.syncShutdown() }
        let secret = "s3cret-" + UUID().uuidString
        var twilio = SMSGatewaySettings.Twilio(accountSID: "AC" + String(repeating: "0", count: 32), authToken: secret, from: "+15005550006")
        twilio.verifyServiceSID = "VA" + String(repeating: "1", count: 32)
        let vonage = SMSGatewaySettings.Vonage(apiKey: "k", apiSecret: secret, from: "X")
        let webhook = SMSGatewaySettings.Webhook(url: URL(string: "https://sms.example.com/send")!, secret: secret)
        let values: [Any] = [
            twilio, vonage, webhook, SMSGatewaySettings.twilio(twilio), SMSGatewaySettings.vonage(vonage), SMSGatewaySettings.webhook(webhook),
            TwilioGateway(settings: twilio, httpClient: http), VonageGateway(settings: vonage, httpClient: http),
            WebhookGateway(settings: webhook, httpClient: http), TwilioVerify(settings: twilio, httpClient: http),
            SiteVerifyCaptcha(service: .turnstile, siteKey: "0x4AAA", secret: secret, httpClient: http),
            AppVerificationSettings.captcha(service: .recaptcha, siteKey: "6L", secret: secret, verifyURL: nil, minimumScore: nil),
        ]
        for value in values {
            var dumped = ""
            dump(value, to: &dumped)
            let printed = [String(describing: value), String(reflecting: value), dumped, "\(value)"]
            #expect(printed.allSatisfy { !$0.contains(secret) }, "\(type(of: value))")
        }
    }
}
