import Foundation
import HearthCore
import HearthServer
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
