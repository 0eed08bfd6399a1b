import Foundation
import HTTPTypes
import HearthConfiguration
import HearthCore
import HearthServer
import HearthTesting
import HearthWire
import Testing

/// Mails leaving through a real mail server on loopback (aiosmtpd, `SMTPSink`): what arrives, a server that is
/// down, and a Hearth that stops between queueing a mail and sending it.
@Suite("Mail delivery through SMTP", .serialized)
struct MailDeliveryTests {
    /// The settings of a server that mails through `sink`.
    static func mailing(through sink: SMTPSink, _ configuration: inout ServerConfiguration) {
        let password = (sink.password ?? "").addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let credentials = sink.username.map { "\($0):\(password)@" } ?? ""
        let scheme = sink.security == .implicitTLS ? "smtps" : "smtp"
        let query = sink.security == .none ? "?starttls=off" : ""
        configuration.email.smtpURL = "\(scheme)://\(credentials)127.0.0.1:\(sink.port)\(query)"
        configuration.email.smtpCAFile = sink.certificateFile
        configuration.email.from = "Hearth Test <no-reply@hearth.example>"
        configuration.email.replyTo = "help@hearth.example"
        configuration.email.appName = "Notes"
    }

    @Test("a reset mail over STARTTLS with AUTH, in Bengali; its link opened in Chromium resets the password, which then signs in")
    func resetThroughMailAndBrowser() async throws {
        let sink = try await SMTPSink.start(security: .startTLS, username: "hearth", password: "mail secret")
        defer { sink.shutdown() }
        try await withLiveHearth({ Self.mailing(through: sink, &$0) }) { live in
            let client = FirebaseTestClient(baseURL: live.baseURL)
            _ = try await client.signUp(email: "ada@example.com", password: "old password")
            let sent = try await client.post(
                "/v1/accounts:sendOobCode", json: #"{"requestType":"PASSWORD_RESET","email":"ada@example.com"}"#,
                headers: [HTTPField.Name("X-Firebase-Locale")!: "bn"])
            #expect(sent.status == .ok)
            let message = try #require(try await sink.waitForMessages(count: 1).first)
            #expect(message.tls && message.authenticated && message.authenticatedUser == "hearth")
            #expect(message.rcptTos == ["ada@example.com"] && message.mailFrom == "no-reply@hearth.example")
            #expect(message.header("From")?.contains("no-reply@hearth.example") == true)
            #expect(message.header("Reply-To") == "help@hearth.example")
            #expect(message.header("Message-ID")?.hasSuffix("@hearth.example>") == true)
            #expect(message.defects.isEmpty, "\(message.defects)")
            let subject = try #require(message.subject)
            #expect(subject.unicodeScalars.contains { (0x0980...0x09FF).contains($0.value) }, "a Bengali subject: \(subject)")
            let text = try #require(message.textBody)
            let html = try #require(message.htmlBody)
            let link = try #require(text.split(whereSeparator: \.isWhitespace).map(String.init).first { $0.contains("oobCode=") })
            #expect(link.hasPrefix("\(live.baseURL)/__/auth/action?mode=resetPassword&oobCode="))
            #expect(html.contains(link.replacingOccurrences(of: "&", with: "&amp;")))
            #expect(text.contains("Notes"))

            // Sent: the queue keeps no copy of the link.
            let queued = try await Self.eventually {
                try await live.services.store.recentMails(limit: 1).first.flatMap { $0.sentAt == nil ? nil : $0 }
            }
            #expect(queued.textBody.isEmpty && queued.htmlBody.isEmpty)

            try await HeadlessBrowser.with { browser in
                let page = try await browser.newPage()
                _ = try await page.navigate(to: try #require(URL(string: link)))
                #expect(try await page.evaluate("document.documentElement.lang") == .string("bn"))
                try await page.fill("#new-password", with: "from the mail")
                try await page.fill("#confirm-password", with: "from the mail")
                _ = try await page.clickAndWaitForNavigation("button[type=submit]")
                #expect(page.status == 200)
                #expect(page.consoleErrors.isEmpty, "\(page.consoleErrors)")
            }
            #expect(try await client.signIn(email: "ada@example.com", password: "from the mail").status == .ok)
            #expect(try await client.signIn(email: "ada@example.com", password: "old password").errorMessage == "INVALID_PASSWORD")
        }
    }

    @Test("implicit TLS (smtps://): a verification mail arrives")
    func implicitTLS() async throws {
        let sink = try await SMTPSink.start(security: .implicitTLS, username: "hearth", password: "p@ss/word:1")
        defer { sink.shutdown() }
        try await withLiveHearth({ configuration in
            Self.mailing(through: sink, &configuration)
            // Reserved characters of the password percent-encoded in the URL.
            configuration.email.smtpURL = "smtps://hearth:p%40ss%2Fword%3A1@127.0.0.1:\(sink.port)"
        }) { live in
            let client = FirebaseTestClient(baseURL: live.baseURL)
            let ada = try await client.signUp(email: "ada@example.com")
            let sent = try await client.post(
                "/v1/accounts:sendOobCode", ["requestType": .string("VERIFY_EMAIL"), "idToken": .string(ada.idToken ?? "")])
            #expect(sent.status == .ok)
            let message = try #require(try await sink.waitForMessages(count: 1).first)
            #expect(message.tls && message.authenticated)
            #expect(message.textBody?.contains("mode=verifyEmail") == true)
        }
    }

    @Test("the mail server is down: the request still answers, the failure is recorded without the link, and the mail goes once it is back")
    func serverDown() async throws {
        let sink = try await SMTPSink.start(security: .none)
        defer { sink.shutdown() }
        await sink.stop()
        try await withLiveHearth({ Self.mailing(through: sink, &$0) }) { live in
            let client = FirebaseTestClient(baseURL: live.baseURL)
            _ = try await client.signUp(email: "ada@example.com")
            let sent = try await client.post(
                "/v1/accounts:sendOobCode", ["requestType": .string("PASSWORD_RESET"), "email": .string("ada@example.com")])
            #expect(sent.status == .ok)
            // The first attempt fails and is recorded, without the link.
            let failed = try await Self.eventually {
                try await live.services.store.recentMails(limit: 1).first.flatMap { $0.lastError == nil ? nil : $0 }
            }
            #expect(failed.attempts == 1 && failed.sentAt == nil && failed.failedAt == nil)
            #expect(!(failed.lastError ?? "").contains("oobCode"))
            #expect(!failed.textBody.isEmpty, "kept for the next attempt")

            try await sink.restart()
            // The retry waits 30 s of the server's clock.
            live.clock.advance(by: 31)
            let messages = try await sink.waitForMessages(count: 1)
            #expect(messages.count == 1)
            let sentMail = try await Self.eventually {
                try await live.services.store.recentMails(limit: 1).first.flatMap { $0.sentAt == nil ? nil : $0 }
            }
            #expect(sentMail.attempts == 2)
            // Counted once the delivery pass that marked it sent returns: a moment after the store says so.
            let metrics = try await Self.eventually {
                let text = String(decoding: live.services.metrics.telemetry.exposition(), as: UTF8.self)
                return text.contains("hearth_mails_sent_total") ? text : nil
            }
            #expect(metrics.contains(#"hearth_mails_queued_total{purpose="PASSWORD_RESET"} 1"#))
            #expect(metrics.contains(#"hearth_mails_failed_total{purpose="PASSWORD_RESET",outcome="retry"} 1"#))
            #expect(metrics.contains(#"hearth_mails_sent_total{purpose="PASSWORD_RESET"} 1"#))
            // Nothing more goes out.
            live.clock.advance(by: 3_600)
            try await Task.sleep(for: .seconds(6))
            #expect(try sink.messages().count == 1)
        }
    }

    @Test("a mail server that refuses the mail for good (550): given up at once, bodies dropped")
    func permanentFailure() async throws {
        let sink = try await SMTPSink.start(security: .startTLS, username: "hearth", password: "right")
        defer { sink.shutdown() }
        try await withLiveHearth({ configuration in
            Self.mailing(through: sink, &configuration)
            configuration.email.smtpURL = "smtp://hearth:wrong@127.0.0.1:\(sink.port)"
        }) { live in
            let client = FirebaseTestClient(baseURL: live.baseURL)
            _ = try await client.signUp(email: "ada@example.com")
            #expect(
                try await client.post("/v1/accounts:sendOobCode", ["requestType": .string("PASSWORD_RESET"), "email": .string("ada@example.com")])
                    .status == .ok)
            let given = try await Self.eventually {
                try await live.services.store.recentMails(limit: 1).first.flatMap { $0.failedAt == nil ? nil : $0 }
            }
            #expect(given.attempts == 1 && given.textBody.isEmpty && (given.lastError ?? "").contains("535"))
            #expect(!(given.lastError ?? "").contains("wrong"))
            #expect(try sink.messages().isEmpty)
            // Counted once the delivery pass that gave up returns: a moment after the store says so.
            let metrics = try await Self.eventually {
                let text = String(decoding: live.services.metrics.telemetry.exposition(), as: UTF8.self)
                return text.contains("hearth_mails_failed_total") ? text : nil
            }
            #expect(metrics.contains(#"hearth_mails_failed_total{purpose="PASSWORD_RESET",outcome="gave_up"} 1"#))
            #expect(!metrics.contains("hearth_mails_sent_total{"))
        }
    }

    @Test("Hearth stops between queueing and sending, and a replica dies holding a claim: after the restart each mail is sent once")
    func crashBetweenQueueingAndSending() async throws {
        let sink = try await SMTPSink.start(security: .none)
        defer { sink.shutdown() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-mail-crash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = ManualClock()
        // First life: no mail server configured, so the mails wait in the queue; one is claimed by a "replica"
        // that dies before sending it.
        try await withLiveHearth(clock: clock, { $0.dataDirectory = directory.path }) { live in
            let client = FirebaseTestClient(baseURL: live.baseURL)
            _ = try await client.signUp(email: "ada@example.com")
            _ = try await client.signUp(email: "bob@example.com")
            for email in ["ada@example.com", "bob@example.com"] {
                #expect(
                    try await client.post("/v1/accounts:sendOobCode", ["requestType": .string("PASSWORD_RESET"), "email": .string(email)]).status
                        == .ok)
            }
            let claimed = try await live.services.store.claimDueMails(now: clock.now, claimUntil: clock.now.addingTimeInterval(120), limit: 1)
            #expect(claimed.count == 1)
        }
        // Second life, with the mail server: the unclaimed mail goes at once, the claimed one when its claim runs out.
        try await withLiveHearth(
            clock: clock,
            { configuration in
                configuration.dataDirectory = directory.path
                Self.mailing(through: sink, &configuration)
            }
        ) { live in
            _ = try await sink.waitForMessages(count: 1)
            clock.advance(by: 121)
            let messages = try await sink.waitForMessages(count: 2)
            #expect(Set(messages.flatMap(\.rcptTos)) == ["ada@example.com", "bob@example.com"])
            try await Task.sleep(for: .seconds(6))
            #expect(try sink.messages().count == 2)
            #expect(try await live.services.store.countWaitingMails() == 0)
        }
    }

    /// Polls `read` (real time, up to a minute) until it gives a value.
    static func eventually<T>(_ read: () async throws -> T?) async throws -> T {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if let value = try await read() { return value }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw HarnessError("nothing came within a minute")
    }
}
