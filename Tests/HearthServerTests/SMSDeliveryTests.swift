import Configuration
import Foundation
import HTTPTypes
import HearthConfiguration
import HearthCore
import HearthSMS
import HearthSandbox
import HearthServer
import HearthTesting
import HearthWire
import Testing

/// Phone sign-in's codes leaving through each gateway's stand-in (Twilio SMS and WhatsApp, Vonage, the signed webhook)
/// over real HTTP, from the SMS queue in the database: in the request's language, retried while the gateway is down,
/// given up when it refuses for good, kept across a restart, and never in the log.
@Suite("SMS delivery through gateways")
struct SMSDeliveryTests {
    /// Runs `body` with the stand-ins listening on loopback at `base`, on the servers' clock (the webhook's receiver
    /// refuses a signature more than 5 minutes off its own).
    static func withGateways(clock: ManualClock, _ body: @Sendable (SMSGatewaySandbox, URL) async throws -> Void) async throws {
        let sandbox = SMSGatewaySandbox(clock: { clock.now })
        try await withLoopbackRouter({ sandbox.addRoutes(to: $0.group("/gateways")) }) { base in
            try await body(sandbox, base.appendingPathComponent("gateways"))
        }
    }

    static func twilio(_ sandbox: SMSGatewaySandbox, _ base: URL) -> SMSGatewaySettings {
        .twilio(
            .init(
                accountSID: sandbox.twilio.accountSID, authToken: sandbox.twilio.authToken, from: sandbox.twilio.from,
                whatsappFrom: sandbox.twilio.whatsappFrom, baseURL: base.appendingPathComponent("twilio")))
    }

    /// Sends a code to `number` in `language` and returns the sessionInfo.
    static func send(_ client: FirebaseTestClient, _ number: String, language: String? = nil) async throws -> String {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let language { headers[HTTPField.Name("X-Firebase-Locale")!] = language }
        let result = try await client.post("/v1/accounts:sendVerificationCode", json: #"{"phoneNumber":"\#(number)"}"#, headers: headers)
        try #require(result.status == .ok, "\(String(decoding: result.body, as: UTF8.self))")
        return try result.decode(SendVerificationCodeResponse.self).sessionInfo
    }

    /// The message `sandbox` got for `number`, waited for (real time, up to a minute).
    static func arrived(_ sandbox: SMSGatewaySandbox, _ number: String, count: Int = 1) async throws -> SMSGatewaySandbox.Message {
        try await MailDeliveryTests.eventually {
            let messages = sandbox.messages.filter { $0.to == number }
            return messages.count >= count ? messages.last : nil
        }
    }

    static func signIn(_ client: FirebaseTestClient, sessionInfo: String, code: String) async throws -> SignInWithPhoneNumberResponse {
        let result = try await client.post("/v1/accounts:signInWithPhoneNumber", ["sessionInfo": .string(sessionInfo), "code": .string(code)])
        try #require(result.status == .ok, "\(String(decoding: result.body, as: UTF8.self))")
        return try result.decode(SignInWithPhoneNumberResponse.self)
    }

    @Test(
        "Twilio (SMS, and WhatsApp for Indonesia), Vonage and the webhook each carry the code in the request's language; it signs in; no code in the log"
    )
    func eachGateway() async throws {
        let clock = ManualClock()
        try await Self.withGateways(clock: clock) { sandbox, base in
            let gateways: [(SMSGatewaySettings, String, String?, String)] = [
                (Self.twilio(sandbox, base), "+919876543210", "hi-IN", "के लिए आपका सत्यापन कोड है"),
                (Self.twilio(sandbox, base), "+6281234567890", "id", "adalah kode verifikasi Anda untuk Notes"),
                (
                    .vonage(
                        .init(
                            apiKey: sandbox.vonage.apiKey, apiSecret: sandbox.vonage.apiSecret, from: "Notes",
                            baseURL: base.appendingPathComponent("vonage"))),
                    "+8801712345678", "bn", "যাচাইকরণ কোড"
                ),
                (
                    .webhook(.init(url: base.appendingPathComponent("webhook"), secret: sandbox.webhookSecret)), "+15551234567", nil,
                    "is your verification code for Notes."
                ),
            ]
            for (index, (gateway, number, language, phrase)) in gateways.enumerated() {
                let logs = CapturedLogs()
                let live = try await LiveHearth.start(clock: clock, logger: logs.logger(), providers: { _ in }) {
                    $0.sms.gateway = gateway
                    $0.sms.appName = "Notes"
                    $0.sms.whatsappRegions = ["ID"]
                    $0.sms.webOTPDomain = index == 3 ? "notes.example.com" : nil
                }
                do {
                    let client = FirebaseTestClient(baseURL: live.baseURL)
                    let sessionInfo = try await Self.send(client, number, language: language)
                    let message = try await Self.arrived(sandbox, number)
                    #expect(message.body.contains(phrase), "\(message.body)")
                    #expect(message.channel == (number.hasPrefix("+62") ? "whatsapp" : "sms"))
                    let code = try #require(sandbox.lastCode(to: number))
                    if index == 3 { #expect(message.body.hasSuffix("\n\n@notes.example.com #\(code)")) }
                    let signedIn = try await Self.signIn(client, sessionInfo: sessionInfo, code: code)
                    #expect(signedIn.phoneNumber == number && signedIn.isNewUser == true)
                    // The development outbox is not used when a gateway is configured.
                    let listing = try await client.raw("/emulator/v1/projects/\(live.projectID)/verificationCodes", method: .get)
                    #expect(String(decoding: listing.body, as: UTF8.self).contains(code) == false)
                    let sent = try #require(try await live.services.store.recentSMS(limit: 1).first)
                    #expect(sent.sentAt != nil && sent.body.isEmpty && sent.gatewayMessageID == message.id)
                    try await live.stop()
                } catch {
                    try? await live.stop()
                    throw error
                }
                let numbers = logs.text.split(whereSeparator: { !$0.isNumber }).map(String.init)
                #expect(logs.text.contains("Sent an SMS"))
                #expect(!numbers.contains(sandbox.lastCode(to: number) ?? "-"))
                // Nor the gateways' credentials.
                for secret in [sandbox.twilio.authToken, sandbox.vonage.apiSecret, sandbox.webhookSecret] {
                    #expect(!logs.text.contains(secret))
                }
            }
        }
    }

    @Test("the gateway down: retried with back-off until it answers; refused for good: given up at once; a code that expired first: never sent")
    func retriesAndGivingUp() async throws {
        let clock = ManualClock()
        try await Self.withGateways(clock: clock) { sandbox, base in
            try await withLiveHearth(clock: clock, { $0.sms.gateway = Self.twilio(sandbox, base) }) { live in
                let client = FirebaseTestClient(baseURL: live.baseURL)
                sandbox.failNext(.twilio, status: 503, count: 2)
                let sessionInfo = try await Self.send(client, "+919876543210")
                let failed = try await MailDeliveryTests.eventually {
                    try await live.services.store.recentSMS(limit: 1).first.flatMap { $0.lastError == nil ? nil : $0 }
                }
                #expect(failed.lastError == "Twilio answered HTTP 503: 20500 Internal Server Error" && failed.sentAt == nil)
                let waiting = try await MetricsTests.scrape(client).samples
                #expect(MetricsTests.value(waiting, "hearth_queue_waiting", ["queue": "sms"]) == 1)
                #expect(MetricsTests.value(waiting, "hearth_queue_waiting", ["queue": "mail"]) == 0)
                live.clock.advance(by: 6)
                // The second attempt's failure recorded: its retry 10 s on (while it is in flight, the claim says 30 s).
                _ = try await MailDeliveryTests.eventually {
                    try await live.services.store.recentSMS(limit: 1).first.flatMap {
                        $0.attempts == 2 && $0.nextAttemptAt <= live.clock.now.addingTimeInterval(10) ? $0 : nil
                    }
                }
                live.clock.advance(by: 11)
                let message = try await Self.arrived(sandbox, "+919876543210")
                _ = try await Self.signIn(client, sessionInfo: sessionInfo, code: try #require(sandbox.lastCode(to: message.to)))
                #expect(sandbox.requestCount(.twilio) == 3)

                // A number Twilio refuses (a permanent 400): one attempt, given up, the code dropped.
                sandbox.failNext(.twilio, status: 400)
                _ = try await Self.send(client, "+919876543211")
                let givenUp = try await MailDeliveryTests.eventually {
                    try await live.services.store.recentSMS(limit: 1).first.flatMap { $0.failedAt == nil ? nil : $0 }
                }
                #expect(givenUp.body.isEmpty && givenUp.attempts == 1)
                #expect(try await live.services.store.countWaitingSMS() == 0)

                // Down longer than the code lives: given up when the code has expired, never sent late.
                sandbox.failNext(.twilio, status: 503, count: 100)
                _ = try await Self.send(client, "+919876543212")
                _ = try await MailDeliveryTests.eventually {
                    try await live.services.store.recentSMS(limit: 1).first.flatMap { $0.lastError == nil ? nil : $0 }
                }
                live.clock.advance(by: 301)
                let expired = try await MailDeliveryTests.eventually {
                    try await live.services.store.recentSMS(limit: 1).first.flatMap { $0.failedAt == nil ? nil : $0 }
                }
                #expect(expired.lastError == "the code expired before it could be sent")
                #expect(sandbox.messages.filter { $0.to == "+919876543212" }.isEmpty)
            }
        }
    }

    @Test("Hearth stops between queueing and sending: after the restart each waiting code is sent once, and still signs in")
    func restartBetweenQueueingAndSending() async throws {
        let clock = ManualClock()
        try await Self.withGateways(clock: clock) { sandbox, base in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-sms-restart-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let configure: @Sendable (inout ServerConfiguration) -> Void = {
                $0.dataDirectory = directory.path
                $0.sms.gateway = Self.twilio(sandbox, base)
            }
            // First life: the gateway is down, so the codes wait in the queue.
            sandbox.failNext(.twilio, status: 503, count: 1_000)
            let sessions = try await withLiveHearth(clock: clock, configure) { live in
                let client = FirebaseTestClient(baseURL: live.baseURL)
                let sessions = [try await Self.send(client, "+919876543220"), try await Self.send(client, "+919876543221")]
                _ = try await MailDeliveryTests.eventually {
                    // Both first attempts failed and recorded (not merely claimed, which a stop could leave behind).
                    try await live.services.store.recentSMS(limit: 2).allSatisfy { $0.attempts == 1 && $0.lastError != nil } ? true : nil
                }
                return sessions
            }
            sandbox.failNext(.twilio, status: 503, count: 0)
            // Second life: the gateway is back; the retries come due.
            try await withLiveHearth(clock: clock, configure) { live in
                clock.advance(by: 6)
                let first = try await Self.arrived(sandbox, "+919876543220")
                let second = try await Self.arrived(sandbox, "+919876543221")
                try await Task.sleep(for: .seconds(3))
                #expect(sandbox.messages.count == 2)
                #expect(try await live.services.store.countWaitingSMS() == 0)
                let client = FirebaseTestClient(baseURL: live.baseURL)
                for (sessionInfo, message) in zip(sessions, [first, second]) {
                    _ = try await Self.signIn(client, sessionInfo: sessionInfo, code: try #require(sandbox.lastCode(to: message.to)))
                }
            }
        }
    }

    @Test("Twilio Verify owns the code: it arrives and signs in once; wrong, reused, raced and exhausted codes fail as Firebase's do")
    func twilioVerify() async throws {
        let clock = ManualClock()
        try await Self.withGateways(clock: clock) { sandbox, base in
            var settings = SMSGatewaySettings.Twilio(
                accountSID: sandbox.twilio.accountSID, authToken: sandbox.twilio.authToken, baseURL: base.appendingPathComponent("twilio"))
            settings.verifyServiceSID = sandbox.twilio.verifyServiceSID
            settings.verifyBaseURL = base.appendingPathComponent("twilio-verify")
            try await withLiveHearth(
                clock: clock,
                {
                    $0.sms.gateway = .twilio(settings)
                    $0.sms.whatsappRegions = ["ID"]
                    $0.signIn.testPhoneNumbers = ["+16505551234": "123456"]
                }
            ) { live in
                let client = FirebaseTestClient(baseURL: live.baseURL)
                let number = "+919876543210"
                let sessionInfo = try await Self.send(client, number, language: "hi-IN")
                let message = try #require(sandbox.messages.last)
                #expect(message.gateway == .twilioVerify && message.to == number && message.channel == "sms" && message.body.hasSuffix("[hi]"))
                let code = try #require(sandbox.lastCode(to: number))
                let wrong = code == "000000" ? "111111" : "000000"
                func attempt(_ code: String, _ session: String = sessionInfo) async throws -> WireResult {
                    try await client.post("/v1/accounts:signInWithPhoneNumber", ["sessionInfo": .string(session), "code": .string(code)])
                }
                #expect(try await attempt(wrong).errorMessage == "INVALID_CODE")
                #expect(try await attempt("12a456").errorMessage == "INVALID_CODE")
                // Twenty requests with the right code at once: one signs in.
                let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                    for _ in 0..<20 { group.addTask { try await attempt(code).status } }
                    return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
                }
                #expect(statuses.filter { $0 == .ok }.count == 1)
                #expect(try await attempt(code).errorMessage == "SESSION_EXPIRED")
                #expect(try await live.services.store.recentSMS(limit: 1).isEmpty)

                // Five wrong codes void the session; WhatsApp for Indonesia; a test number keeps its fixed code.
                let second = try await Self.send(client, "+6281234567890")
                #expect(sandbox.messages.last?.channel == "whatsapp")
                for _ in 0..<5 { #expect(try await attempt(wrong, second).errorMessage == "INVALID_CODE") }
                #expect(try await attempt(try #require(sandbox.lastCode(to: "+6281234567890")), second).errorMessage == "SESSION_EXPIRED")
                let test = try await Self.send(client, "+16505551234")
                #expect(try await attempt("123456", test).status == .ok)

                // Twilio refuses the number; Twilio is down.
                sandbox.failNext(.twilioVerify, status: 503)
                let down = try await client.post("/v1/accounts:sendVerificationCode", ["phoneNumber": .string("+919876543211")])
                #expect(down.status == .serviceUnavailable)
                for _ in 0..<5 { _ = try await Self.send(client, "+919876543212") }
                let limited = try await client.post("/v1/accounts:sendVerificationCode", ["phoneNumber": .string("+919876543212")])
                #expect(limited.errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER")
            }
        }
    }

    @Test("the configuration: sms.gateway and each gateway's keys, refused with the key named and without echoing a secret")
    func configuration() throws {
        func read(_ values: [String: ConfigValue], mode: ServerConfiguration.Mode = .development) throws -> ServerConfiguration {
            var all: [AbsoluteConfigKey: ConfigValue] = [:]
            for (key, value) in values { all[AbsoluteConfigKey(key.split(separator: ".").map(String.init))] = value }
            return try ServerConfiguration(reader: ConfigReader(provider: InMemoryProvider(values: all)), defaultMode: mode)
        }
        func text(_ value: String, secret: Bool = false) -> ConfigValue { ConfigValue(.string(value), isSecret: secret) }
        let account = "AC" + String(repeating: "ab", count: 16)
        let twilio = try read([
            "sms.gateway": text("twilio"), "sms.twilio.accountSID": text(account), "sms.twilio.authToken": text("token-secret-7", secret: true),
            "sms.twilio.from": text("+15005550006"), "sms.whatsapp.regions": ConfigValue(.stringArray(["IN"]), isSecret: false),
            "sms.twilio.whatsappFrom": text("+14155238886"), "sms.androidAppHash": text("FA+9qCX9VSu"),
        ])
        guard case .twilio(let settings)? = twilio.sms.gateway else {
            Issue.record("no Twilio gateway read")
            return
        }
        #expect(
            settings.accountSID == account && settings.authToken == "token-secret-7" && settings.baseURL.absoluteString == "https://api.twilio.com")
        #expect(twilio.sms.whatsappRegions == ["IN"] && twilio.smsDescription.contains(account) && !twilio.smsDescription.contains("token-secret-7"))
        #expect(twilio.smsText.verification(code: "123456", languageCode: nil).text.hasSuffix("\n\nFA+9qCX9VSu"))

        let refusals: [([String: ConfigValue], String)] = [
            (["sms.gateway": text("carrier-pigeon")], "sms.gateway"),
            (["sms.gateway": text("twilio"), "sms.twilio.authToken": text("token-secret-7")], "sms.twilio.accountSID"),
            (
                ["sms.gateway": text("twilio"), "sms.twilio.accountSID": text("ACnope"), "sms.twilio.authToken": text("token-secret-7")],
                "sms.twilio.accountSID"
            ),
            (
                ["sms.gateway": text("twilio"), "sms.twilio.accountSID": text(account), "sms.twilio.authToken": text("token-secret-7")],
                "sms.twilio.from"
            ),
            (["sms.gateway": text("vonage"), "sms.vonage.apiKey": text("k"), "sms.vonage.from": text("X")], "sms.vonage.apiSecret"),
            (
                [
                    "sms.gateway": text("webhook"), "sms.webhook.url": text("https://sms.example.com/send"),
                    "sms.webhook.secret": text("short-secret-7"),
                ], "sms.webhook.secret"
            ),
            (
                ["sms.gateway": text("webhook"), "sms.webhook.url": text("ftp://x/"), "sms.webhook.secret": text(String(repeating: "s", count: 32))],
                "sms.webhook.url"
            ),
            (
                [
                    "sms.gateway": text("webhook"), "sms.webhook.url": text("https://u:token-secret-7@x/"),
                    "sms.webhook.secret": text(String(repeating: "s", count: 32)),
                ], "sms.webhook.url"
            ),
            (["sms.whatsapp.regions": ConfigValue(.stringArray(["IN"]), isSecret: false)], "sms.whatsapp.regions"),
            (["sms.androidAppHash": text("short")], "sms.androidAppHash"),
            (["sms.androidAppHash": text("FA+9qCX9VSu"), "sms.webOTPDomain": text("notes.example.com")], "sms.webOTPDomain"),
            (["sms.appName": text("Notes\u{7}")], "sms.appName"),
        ]
        for (values, key) in refusals {
            let error = #expect(throws: ConfigurationError.self) { try read(values) }
            #expect(error?.key == key, "\(values.keys.sorted())")
            #expect("\(error.map { "\($0)" } ?? "")".contains("token-secret-7") == false)
        }
    }
}
