import Foundation
import HearthCore
import HearthServer
import HearthTesting
import Logging
import Testing

/// Collects every log line in memory.
final class CapturedLogs: @unchecked Sendable {
    private let lines = LockedBox<[String]>([])
    var text: String { lines.withLock { $0.joined(separator: "\n") } }

    func logger() -> Logger {
        var logger = Logger(label: "hearth.capture") { _ in CaptureHandler(sink: self) }
        logger.logLevel = .trace
        return logger
    }

    fileprivate func append(_ line: String) { lines.withLock { $0.append(line) } }
}

private struct CaptureHandler: LogHandler {
    let sink: CapturedLogs
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String, file: String, function: String, line: UInt) {
        let all = self.metadata.merging(metadata ?? [:]) { $1 }
        sink.append("\(level) \(message) \(all)")
    }
}

@Suite("Secrets stay out of logs")
struct LogRedactionTests {
    @Test("passwords, refresh tokens and private keys never reach the log, even at trace level")
    func redaction() async throws {
        let logs = CapturedLogs()
        let hearth = try await TestHearth.make(logger: logs.logger())
        defer { hearth.removeFiles() }
        let password = "Sup3r-Secret-Passw0rd"
        let created = try await hearth.withClient { client in
            let created = try await client.signUp(email: "ada@example.com", password: password)
            _ = try await client.signIn(email: "ada@example.com", password: password)
            _ = try await client.signIn(email: "ada@example.com", password: "wrong-\(password)")
            _ = try await client.refresh(created.refreshToken!)
            return created
        }
        let keys = try await hearth.services.store.signingKeys()
        try await hearth.close()
        let text = logs.text
        #expect(!text.isEmpty)
        #expect(!text.contains(password))
        #expect(!text.contains(created.refreshToken!))
        #expect(!text.contains(created.idToken!))
        for key in keys {
            #expect(!text.contains(key.privateKeyPEM.split(separator: "\n")[1]))
        }
    }
}

@Suite("E-mail secrets stay out of logs", .serialized)
struct MailLogRedactionTests {
    @Test("production mode, logged at trace level: the SMTP password, the key-encryption key, action links and codes never reach the log")
    func mailRedaction() async throws {
        let password = "smtp-Secret-42"
        let keyEncryptionKey = KeyEncryptionKey.generate().base64
        let sink = try await SMTPSink.start(security: .startTLS, username: "hearth", password: password)
        defer { sink.shutdown() }
        let logs = CapturedLogs()
        let live = try await LiveHearth.start(logger: logs.logger(), providers: { _ in }) { configuration in
            configuration.mode = .production
            configuration.apiKeys = ["test-api-key"]
            configuration.secrets.key = keyEncryptionKey
            configuration.email.smtpURL = "smtp://hearth:\(password)@127.0.0.1:\(sink.port)"
            configuration.email.smtpCAFile = sink.certificateFile
            configuration.email.from = "no-reply@hearth.example"
        }
        do {
            let client = FirebaseTestClient(baseURL: live.baseURL)
            _ = try await client.signUp(email: "ada@example.com")
            let body: [String: JSONValue] = ["requestType": .string("PASSWORD_RESET"), "email": .string("ada@example.com")]
            #expect(try await client.post("/v1/accounts:sendOobCode", body).status == .ok)
            let message = try #require(try await sink.waitForMessages(count: 1).first)
            let code = try #require(
                message.textBody.flatMap { text in
                    URLComponents(string: text.split(whereSeparator: \.isWhitespace).map(String.init).first { $0.contains("oobCode=") } ?? "")?
                        .queryItems?.first { $0.name == "oobCode" }?.value
                })
            await sink.stop()
            #expect(try await client.post("/v1/accounts:sendOobCode", body).status == .ok)
            _ = try await MailDeliveryTests.eventually {
                try await live.services.store.recentMails(limit: 1).first.flatMap { $0.lastError == nil ? nil : $0 }
            }
            try await live.stop()
            let text = logs.text
            #expect(text.contains("Mail delivery failed"))
            #expect(!text.contains(password))
            #expect(!text.contains(keyEncryptionKey))
            #expect(!text.contains(code))
            #expect(!text.contains("oobCode"))
        } catch {
            try? await live.stop()
            throw error
        }
    }
}
