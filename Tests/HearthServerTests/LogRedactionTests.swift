import Foundation
import HTTPTypes
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

@Suite("Every endpoint keeps the secrets of its request out of the log")
struct EndpointLogRedactionTests {
    @Test("passwords, tokens, codes, hashes and client secrets sent to every endpoint never reach the log, even at trace level")
    func everyEndpoint() async throws {
        let logs = CapturedLogs()
        let live = try await LiveHearth.start(logger: logs.logger())
        // Each secret is distinct, so a hit names the endpoint that leaked it.
        var secrets: [String] = []
        func secret(_ name: String) -> String {
            let value = "S3cret-\(name)-\(UUID().uuidString.prefix(8))"
            secrets.append(value)
            return value
        }
        do {
            let client = FirebaseTestClient(baseURL: live.baseURL)
            let password = secret("password")
            let created = try await client.signUp(email: "lin@example.com", password: password)
            let idToken = try #require(created.idToken)
            let refreshToken = try #require(created.refreshToken)
            secrets += [idToken, refreshToken]
            let owner: HTTPFields = [.authorization: "Bearer owner", .contentType: "application/json"]
            let calls: [(String, [String: JSONValue])] = [
                ("/v1/accounts:signInWithPassword", ["email": .string("lin@example.com"), "password": .string(password)]),
                ("/v1/accounts:signInWithPassword", ["email": .string("lin@example.com"), "password": .string(secret("wrong-password"))]),
                ("/v1/accounts:lookup", ["idToken": .string(idToken)]),
                ("/v1/accounts:update", ["idToken": .string(idToken), "password": .string(secret("new-password"))]),
                ("/v1/accounts:sendOobCode", ["requestType": .string("PASSWORD_RESET"), "email": .string("lin@example.com")]),
                ("/v1/accounts:resetPassword", ["oobCode": .string(secret("oob")), "newPassword": .string(secret("reset-password"))]),
                ("/v1/accounts:update", ["oobCode": .string(secret("verify-oob"))]),
                ("/v1/accounts:signInWithEmailLink", ["email": .string("lin@example.com"), "oobCode": .string(secret("link-oob"))]),
                ("/v1/accounts:signInWithCustomToken", ["token": .string(secret("custom-token"))]),
                (
                    "/v1/accounts:signInWithIdp",
                    [
                        "requestUri": .string("http://localhost"),
                        "postBody": .string("providerId=google.com&id_token=\(secret("idp-id-token"))&access_token=\(secret("idp-access"))"),
                    ]
                ),
                (
                    "/v1/accounts:revokeToken",
                    ["providerId": .string("apple.com"), "tokenType": .string("CODE"), "token": .string(secret("apple-code"))]
                ),
                ("/v1/projects/demo-hearth:createSessionCookie", ["idToken": .string(secret("cookie-id-token"))]),
                ("/v1/token", ["grant_type": .string("refresh_token"), "refresh_token": .string(secret("refresh"))]),
                ("/v1/token", ["grant_type": .string("refresh_token"), "refresh_token": .string(refreshToken)]),
            ]
            for (path, body) in calls {
                let answer = try await client.post(path, body)
                #expect(answer.status.code < 500, "\(path): \(answer.status)")
            }
            // Imported hashes travel in base64: neither form may appear.
            let (signer, hash, salt) = (secret("signer"), secret("hash"), secret("salt"))
            let (signer64, hash64, salt64) = (
                Data(signer.utf8).base64EncodedString(), Data(hash.utf8).base64EncodedString(), Data(salt.utf8).base64EncodedString()
            )
            secrets += [signer64, hash64, salt64]
            let adminCalls: [(String, String)] = [
                (
                    "/v1/projects/demo-hearth/accounts:batchCreate",
                    #"{"hashAlgorithm":"HMAC_SHA256","signerKey":"\#(signer64)","users":[{"localId":"u1","email":"u1@example.com","passwordHash":"\#(hash64)","salt":"\#(salt64)"}]}"#
                ),
                ("/v1/projects/demo-hearth/accounts:update", #"{"localId":"\#(created.localId ?? "")","password":"\#(secret("admin-password"))"}"#),
            ]
            for (path, json) in adminCalls {
                let answer = try await client.raw(path, method: .post, body: Data(json.utf8), headers: owner)
                #expect(answer.status.code < 500, "\(path): \(answer.status)")
            }
            let idp = try await client.raw(
                "/v2/projects/demo-hearth/defaultSupportedIdpConfigs/github.com?updateMask=enabled,clientId,clientSecret", method: .patch,
                body: Data(#"{"enabled":true,"clientId":"gh-client","clientSecret":"\#(secret("client-secret"))"}"#.utf8), headers: owner)
            #expect(idp.status.code < 500)
            // Secrets in the query and in headers.
            _ = try await client.raw("/__/auth/action?mode=resetPassword&oobCode=\(secret("page-oob"))&apiKey=test-api-key", method: .get)
            _ = try await client.raw(
                "/v1/accounts:lookup", method: .post, body: Data("{}".utf8),
                headers: [.authorization: "Bearer \(secret("bearer"))", .contentType: "application/json"])
            try await live.stop()
        } catch {
            try? await live.stop()
            throw error
        }
        let text = logs.text
        #expect(text.contains("request"))
        for value in secrets {
            #expect(!text.contains(value), "the log holds \(value.prefix(24))…")
        }
    }
}
