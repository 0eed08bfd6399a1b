import Foundation
import HearthMail
import HearthTesting
import NIOCore
import NIOPosix
import Testing

/// The client against a real mail server (aiosmtpd through ``SMTPSink``) on loopback.
@Suite struct SMTPClientTests {
    static let password = "S3cret-Pa55-!@#"

    func message(
        subject: String = "Reset your password", text: String = "Open https://hearth.example/reset?oobCode=abc123 to reset.",
        html: String = "<p><a href=\"https://hearth.example/reset?oobCode=abc123\">Reset</a></p>"
    ) -> MailMessage {
        MailMessage(
            from: MailAddress("no-reply@hearth.example", name: "Hearth"), to: MailAddress("ada@example.com", name: "Ada"),
            replyTo: MailAddress("support@hearth.example"), subject: subject, textBody: text, htmlBody: html,
            messageID: "\(UUID().uuidString)@hearth.example")
    }

    @Test func plainRelayDeliversTheMessage() async throws {
        let sink = try await SMTPSink.start()
        defer { sink.shutdown() }
        let message = message()
        try await SMTPClient(configuration: sink.configuration()).send(message)
        let received = try await sink.waitForMessages(count: 1)[0]
        #expect(received.mailFrom == "no-reply@hearth.example")
        #expect(received.rcptTos == ["ada@example.com"])
        #expect(!received.tls && !received.authenticated)
        #expect(received.header("From") == "Hearth <no-reply@hearth.example>")
        #expect(received.header("To") == "Ada <ada@example.com>")
        #expect(received.header("Reply-To") == "support@hearth.example")
        #expect(received.subject == "Reset your password")
        #expect(received.header("Message-ID") == "<\(message.messageID)>")
        #expect(received.header("Auto-Submitted") == "auto-generated")
        #expect(received.header("MIME-Version") == "1.0")
        #expect(received.header("Date")?.hasSuffix("+0000") == true)
        #expect(received.contentType == "multipart/alternative")
        #expect(received.defects.isEmpty)
        #expect(received.textBody == message.textBody)
        #expect(received.htmlBody == message.htmlBody)
    }

    @Test(
        "STARTTLS with AUTH PLAIN, implicit TLS with AUTH LOGIN",
        arguments: [(SMTPSink.Security.startTLS, "PLAIN"), (SMTPSink.Security.implicitTLS, "LOGIN")])
    func encryptedWithAuth(security: SMTPSink.Security, mechanism: String) async throws {
        let sink = try await SMTPSink.start(security: security, username: "hearth", password: Self.password, authMechanisms: [mechanism])
        defer { sink.shutdown() }
        try await SMTPClient(configuration: sink.configuration()).send(message())
        let received = try await sink.waitForMessages(count: 1)[0]
        #expect(received.tls)
        #expect(received.authenticated)
        #expect(received.authenticatedUser == "hearth")
    }

    @Test func startTLSTrustsTheSystemRootsPlusTheGivenFile() async throws {
        let sink = try await SMTPSink.start(security: .startTLS)
        defer { sink.shutdown() }
        var configuration = sink.configuration()
        configuration.trustRoots = .systemAnd(certificateFile: try #require(sink.certificateFile))
        try await SMTPClient(configuration: configuration).send(message())
        #expect(try await sink.waitForMessages(count: 1)[0].tls)
    }

    @Test func anUntrustedCertificateFailsTheHandshake() async throws {
        let sink = try await SMTPSink.start(security: .implicitTLS)
        defer { sink.shutdown() }
        var configuration = sink.configuration()
        configuration.trustRoots = .system
        let error = await #expect(throws: SMTPError.self) { try await SMTPClient(configuration: configuration).send(message()) }
        #expect(error?.code == .tlsFailed, "\(String(describing: error))")
        #expect(error?.isPermanent == true)
        #expect(try sink.messages().isEmpty)
    }

    @Test(arguments: ["PLAIN", "LOGIN"])
    func aWrongPasswordIsAPermanentErrorWithTheCode(mechanism: String) async throws {
        let sink = try await SMTPSink.start(security: .startTLS, username: "hearth", password: Self.password, authMechanisms: [mechanism])
        defer { sink.shutdown() }
        let wrong = "Wr0ng-Pa55-unique"
        let client = SMTPClient(configuration: sink.configuration(password: wrong))
        let error = await #expect(throws: SMTPError.self) { try await client.send(message()) }
        #expect(error?.code == .rejected)
        #expect(error?.replyCode == 535)
        #expect(error?.isPermanent == true)
        #expect(error?.context.hasPrefix("AUTH \(mechanism)") == true)
        for text in [error.map { "\($0)" } ?? "", error.map { String(reflecting: $0) } ?? ""] {
            #expect(!text.contains(wrong) && !text.contains(Self.password), "\(text)")
            #expect(!text.contains(Data("\0hearth\0\(wrong)".utf8).base64EncodedString()))
        }
        #expect(try sink.messages().isEmpty)
    }

    @Test func startTLSRequiredButNotOffered() async throws {
        let sink = try await SMTPSink.start()
        defer { sink.shutdown() }
        var configuration = sink.configuration()
        configuration.security = .startTLS
        let error = await #expect(throws: SMTPError.self) { try await SMTPClient(configuration: configuration).send(message()) }
        #expect(error?.code == .startTLSNotOffered)
        #expect(error?.isPermanent == true)
        #expect(try sink.messages().isEmpty)
    }

    @Test func credentialsButNoAuthOffered() async throws {
        let sink = try await SMTPSink.start(security: .startTLS)
        defer { sink.shutdown() }
        let client = SMTPClient(configuration: sink.configuration(username: "hearth", password: Self.password))
        let error = await #expect(throws: SMTPError.self) { try await client.send(message()) }
        #expect(error?.code == .authenticationNotOffered)
        #expect(error.map { "\($0)".contains(Self.password) } == false)
    }

    @Test func credentialsOverPlainTCPToAnotherHostAreRefusedBeforeConnecting() async throws {
        // A documentation address (RFC 5737): were a connection tried, it would time out instead.
        let configuration = SMTPConfiguration(
            host: "192.0.2.1", port: 25, security: .none, username: "hearth", password: Self.password, timeout: .seconds(2))
        let error = await #expect(throws: SMTPError.self) { try await SMTPClient(configuration: configuration).send(message()) }
        #expect(error?.code == .insecureCredentials)
        #expect(error?.isPermanent == true)
        #expect(error.map { "\($0)".contains(Self.password) } == false)
    }

    @Test func aRejectionWith451IsTransientAndTheRetrySucceeds() async throws {
        let sink = try await SMTPSink.start(rejectFirst: 1)
        defer { sink.shutdown() }
        let client = SMTPClient(configuration: sink.configuration())
        let message = message()
        let error = await #expect(throws: SMTPError.self) { try await client.send(message) }
        #expect(error?.code == .rejected)
        #expect(error?.replyCode == 451)
        #expect(error?.isPermanent == false)
        #expect(error?.replyText?.contains("Try again later") == true)
        #expect(error.map { "\($0)".contains("oobCode") } == false)
        try await client.send(message)
        #expect(try await sink.waitForMessages(count: 1).count == 1)
    }

    @Test func aServerThatIsDownIsATransientErrorUntilItIsBack() async throws {
        let sink = try await SMTPSink.start()
        defer { sink.shutdown() }
        let client = SMTPClient(configuration: sink.configuration())
        await sink.stop()
        let error = await #expect(throws: SMTPError.self) { try await client.send(message()) }
        #expect(error?.code == .connectionFailed)
        #expect(error?.isPermanent == false)
        try await sink.restart()
        try await client.send(message())
        #expect(try await sink.waitForMessages(count: 1).count == 1)
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        // A bare TCP listener: it accepts the connection and never writes a byte.
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in channel.eventLoop.makeSucceededVoidFuture() }
            .bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(server.localAddress?.port)
        let client = SMTPClient(configuration: SMTPConfiguration(host: "127.0.0.1", port: port, security: .none, timeout: .seconds(1)))
        let error = await #expect(throws: SMTPError.self) { try await client.send(message()) }
        try await server.close()
        #expect(error?.code == .timeout)
        #expect(error?.isPermanent == false)
        #expect(error?.context.contains("greeting") == true)
    }

    @Test func nonASCIISubjectsAndBodiesRoundTrip() async throws {
        let sink = try await SMTPSink.start(security: .startTLS)
        defer { sink.shutdown() }
        let client = SMTPClient(configuration: sink.configuration())
        let subjects = [
            "पासवर्ड रीसेट करें",
            "আপনার পাসওয়ার্ড রিসেট করুন — হার্থ অ্যাকাউন্টের জন্য একটি নতুন পাসওয়ার্ড বেছে নিন",
            "🔐 Reset 👨‍👩‍👧‍👦 your password — पासवर्ड রিসেট",
        ]
        let text = "नमस्ते,\nअपना पासवर्ड रीसेट करने के लिए: https://hearth.example/reset?oobCode=xyz\r\nধন্যবাদ 🙏 " + String(repeating: "é", count: 90)
        let html = "<p lang=\"hi\">पासवर्ड रीसेट करें: <a href=\"https://hearth.example/reset?oobCode=xyz&amp;lang=bn\">রিসেট</a> 🔐</p>"
        for subject in subjects {
            try await client.send(message(subject: subject, text: text, html: html))
        }
        let received = try await sink.waitForMessages(count: subjects.count)
        #expect(received.map(\.subject) == subjects)
        for message in received {
            #expect(message.defects.isEmpty)
            #expect(message.textBody == text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n"))
            #expect(message.htmlBody == html)
            for line in message.rawText.components(separatedBy: "\r\n") {
                #expect(line.utf8.count <= 76, "\(line)")
            }
        }
    }

    @Test func bodyLinesStartingWithADotSurvive() async throws {
        let sink = try await SMTPSink.start()
        defer { sink.shutdown() }
        let text = ".\n.hidden line\n..two dots\nlast line\n."
        let html = ".<p>dot</p>\n.\n"
        try await SMTPClient(configuration: sink.configuration()).send(message(text: text, html: html))
        let received = try await sink.waitForMessages(count: 1)[0]
        #expect(received.textBody == text.replacingOccurrences(of: "\n", with: "\r\n"))
        #expect(received.htmlBody == html.replacingOccurrences(of: "\n", with: "\r\n"))
        #expect(received.rawText.contains("\r\n.hidden line\r\n..two dots\r\n"))
    }

    @Test func headerInjectionNeverReachesTheServer() async throws {
        let sink = try await SMTPSink.start()
        defer { sink.shutdown() }
        var message = message()
        message.subject = "Reset\r\nBcc: victim@example.com"
        let error = await #expect(throws: SMTPError.self) { try await SMTPClient(configuration: sink.configuration()).send(message) }
        #expect(error?.code == .invalidMessage)
        #expect(try sink.messages().isEmpty)
    }
}

/// Misbehaving servers, scripted: each answers the commands it knows with canned bytes.
@Suite struct SMTPClientMisbehavingServerTests {
    /// Writes `greeting`, then for each line received the reply of the first key it starts with (`500` else).
    final class ScriptedServer: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        let greeting: String
        let replies: [(String, String)]
        private var received = ""

        init(greeting: String, replies: [(String, String)]) {
            self.greeting = greeting
            self.replies = replies
        }

        func channelActive(context: ChannelHandlerContext) {
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: greeting)), promise: nil)
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            received += String(buffer: unwrapInboundIn(data))
            while let end = received.range(of: "\r\n") {
                let line = String(received[..<end.lowerBound])
                received.removeSubrange(..<end.upperBound)
                let reply = replies.first { line.hasPrefix($0.0) }?.1 ?? "500 unknown\r\n"
                context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: reply)), promise: nil)
            }
        }
    }

    func send(greeting: String, replies: [(String, String)], security: SMTPConfiguration.Security = .none) async throws -> SMTPError? {
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ScriptedServer(greeting: greeting, replies: replies))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(server.localAddress?.port)
        let client = SMTPClient(configuration: SMTPConfiguration(host: "127.0.0.1", port: port, security: security, timeout: .seconds(5)))
        let message = MailMessage(
            from: MailAddress("no-reply@hearth.example"), to: MailAddress("ada@example.com"), subject: "Hi", textBody: "Hi",
            htmlBody: "<p>Hi</p>", messageID: "1@hearth.example")
        let error = await #expect(throws: SMTPError.self) { try await client.send(message) }
        try await server.close()
        return error
    }

    @Test func repliesInjectedWithTheSTARTTLSAnswerAreRefused() async throws {
        let error = try await send(
            greeting: "220 scripted\r\n",
            replies: [("EHLO", "250-scripted\r\n250 STARTTLS\r\n"), ("STARTTLS", "220 go ahead\r\n250 injected\r\n")],
            security: .startTLS)
        #expect(error?.code == .protocolViolation)
    }

    @Test func aGreetingOtherThan220IsRejected() async throws {
        let error = try await send(greeting: "554 no service here\r\n", replies: [])
        #expect(error?.code == .rejected)
        #expect(error?.replyCode == 554)
        #expect(error?.isPermanent == true)
        #expect(error?.replyText == "no service here")
    }

    @Test func garbageIsAProtocolViolation() async throws {
        let error = try await send(greeting: "HTTP/1.1 400 Bad Request\r\n\r\n", replies: [])
        #expect(error?.code == .protocolViolation)
        #expect(error?.isPermanent == false)
    }

    @Test func longMultiLineRepliesAreReadAndTheirTextShortened() async throws {
        let long = String(repeating: "x", count: 1000)
        let error = try await send(
            greeting: "220-first\r\n220-second\r\n220 third\r\n",
            replies: [("EHLO", "250-scripted\r\n250 8BITMIME\r\n"), ("MAIL", "550-\(long)\r\n550 \u{1b}[31mno\r\n")])
        #expect(error?.code == .rejected)
        #expect(error?.replyCode == 550)
        #expect(error?.context == "MAIL FROM")
        #expect((error?.replyText?.count ?? 0) <= SMTPError.replyTextLimit + 1)
        #expect(error?.replyText?.contains("\u{1b}") == false)
    }

    @Test func aServerThatHangsUpIsTransient() async throws {
        let error = try await send(greeting: "220 scripted\r\n", replies: [("EHLO", "421 closing\r\n")])
        #expect(error?.code == .rejected)
        #expect(error?.replyCode == 421)
        #expect(error?.isPermanent == false)
    }
}
