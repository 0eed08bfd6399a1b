import Configuration
import Crypto
import Foundation
import HTTPTypes
import HearthCore
import HearthTesting
import HearthWire
import Hummingbird
import Logging
import Testing

@testable import HearthConfiguration
@testable import HearthServer

/// The access log over real HTTP: one line per request with the route template, status, duration, client
/// address, API-key id, uid and request id; the request id in the answer; `log.format: json`.
@Suite("Access log")
struct AccessLogTests {
    /// The access lines of a capture.
    static func accessLines(_ logs: CapturedLogs) -> [String] {
        logs.text.split(separator: "\n").map(String.init).filter { $0.hasPrefix("info request ") }
    }

    @Test("One line per request: route template, status, uid, API-key id, request id; never the path or the body")
    func linePerRequest() async throws {
        let logs = CapturedLogs()
        let live = try await LiveHearth.start(logger: logs.logger())
        do {
            let client = FirebaseTestClient(baseURL: live.baseURL)
            let password = "Access-Log-Passw0rd"
            let created = try await client.signUp(email: "grace@example.com", password: password)
            let uid = try #require(created.localId)
            let lookup = try await client.lookup(try #require(created.idToken))
            #expect(lookup.status == .ok)
            let requestID = try #require(lookup.headers[HTTPField.Name("X-Request-Id")!])
            #expect(!requestID.isEmpty)
            let wrong = try await client.signIn(email: "grace@example.com", password: "not-\(password)")
            #expect(wrong.status == .badRequest)
            #expect(wrong.headers[HTTPField.Name("X-Request-Id")!] != nil)
            let missing = try await client.raw("/v1/users/grace@example.com/secret-path", method: .get)
            #expect(missing.status == .notFound)
            let admin = try await client.raw(
                "/v1/projects/demo-hearth/accounts:lookup", method: .post, body: Data(#"{"localId":["\#(uid)"]}"#.utf8),
                headers: [.authorization: "Bearer owner", .contentType: "application/json"])
            #expect(admin.status == .ok)
            try await live.stop()

            let lines = Self.accessLines(logs)
            #expect(lines.count == 5, "\(lines)")
            let keyID = "\"key_id\": key-" + sha256Prefix("test-api-key")
            let signUp = try #require(lines.first { $0.contains("\"route\": /v1/accounts:signUp") })
            #expect(signUp.contains("\"status\": 200") && signUp.contains("\"method\": POST") && signUp.contains(keyID))
            #expect(signUp.contains("\"uid\": \(uid)"))
            #expect(signUp.contains("\"client\": 127.0.0.1"))
            #expect(signUp.contains("\"duration_ms\": "))
            let lookupLine = try #require(lines.first { $0.contains("\"route\": /v1/accounts:lookup") })
            #expect(lookupLine.contains("\"uid\": \(uid)") && lookupLine.contains("\"hb.request.id\": \(requestID)"))
            let failed = try #require(lines.first { $0.contains("\"route\": /v1/accounts:signInWithPassword") })
            #expect(failed.contains("\"status\": 400") && !failed.contains("\"uid\""))
            let notFound = try #require(lines.first { $0.contains("\"status\": 404") })
            #expect(notFound.contains("\"route\": NotFound"))
            let adminLine = try #require(lines.first { $0.contains("\"caller\": admin") })
            #expect(
                adminLine.contains("\"route\": /v1/projects/{project}/accounts:lookup")
                    || adminLine.contains("\"route\": /v1/projects/:project/accounts:lookup"))

            let text = logs.text
            #expect(!text.contains(password))
            #expect(!text.contains("grace@example.com"))
            #expect(!text.contains("secret-path"))
            #expect(!text.contains(try #require(created.idToken)))
            #expect(!text.contains(try #require(created.refreshToken)))
            #expect(!text.contains("test-api-key"))
        } catch {
            try? await live.stop()
            throw error
        }
    }

    @Test("The client address honours abuse.trustedProxies: X-Forwarded-For only from a trusted peer")
    func clientAddress() async throws {
        for trusted in [false, true] {
            let logs = CapturedLogs()
            let live = try await LiveHearth.start(logger: logs.logger(), providers: { _ in }) { configuration in
                if trusted { configuration.abuse.trustedProxies = ["127.0.0.1/32"] }
            }
            do {
                let client = FirebaseTestClient(baseURL: live.baseURL)
                let answer = try await client.raw(
                    "/v1/accounts:signUp", method: .post, body: Data("{}".utf8),
                    headers: [.contentType: "application/json", HTTPField.Name("X-Forwarded-For")!: "203.0.113.7, 198.51.100.2\n"])
                #expect(answer.status == .ok || answer.status == .badRequest)
                try await live.stop()
                let line = try #require(Self.accessLines(logs).first)
                #expect(line.contains(trusted ? "\"client\": 198.51.100.2" : "\"client\": 127.0.0.1"), "\(line)")
            } catch {
                try? await live.stop()
                throw error
            }
        }
    }

    @Test("log.accessLog: false writes no access lines but still sends the request id")
    func switchedOff() async throws {
        let logs = CapturedLogs()
        let live = try await LiveHearth.start(logger: logs.logger(), providers: { _ in }) { $0.log.accessLog = false }
        do {
            let answer = try await FirebaseTestClient(baseURL: live.baseURL).post("/v1/accounts:signUp", [:])
            #expect(answer.headers[HTTPField.Name("X-Request-Id")!] != nil)
            try await live.stop()
            #expect(Self.accessLines(logs).isEmpty)
        } catch {
            try? await live.stop()
            throw error
        }
    }

    @Test("log.* settings: format text or json, a level, the access log switch; anything else names the key")
    func settings() throws {
        func read(_ values: [AbsoluteConfigKey: ConfigValue]) throws -> ServerConfiguration {
            try ServerConfiguration(reader: ConfigReader(provider: InMemoryProvider(values: values)))
        }
        let defaults = try read([:])
        #expect(defaults.log.format == .text && defaults.log.level == .info && defaults.log.accessLog)
        let set = try read([
            "log.format": .init(.string("JSON"), isSecret: false), "log.level": .init(.string("debug"), isSecret: false),
            "log.accessLog": .init(.bool(false), isSecret: false),
        ])
        #expect(set.log.format == .json && set.log.level == .debug && !set.log.accessLog)
        for (key, value) in [("log.format", "xml"), ("log.level", "loud")] {
            #expect {
                try read([AbsoluteConfigKey(ConfigKey(key)): .init(.string(value), isSecret: false)])
            } throws: { error in
                (error as? ConfigurationError)?.key == key
            }
        }
    }

    @Test("LineLogHandler, json: one JSON object per line, metadata kept in shape, control characters escaped")
    func jsonLines() throws {
        let lines = LockedBox<[String]>([])
        var logger = Logger(label: "hearth") { label in LineLogHandler(label: label, format: .json) { line in lines.withLock { $0.append(line) } } }
        logger.logLevel = .debug
        logger[metadataKey: "hb.request.id"] = "abc"
        logger.info("request\nforged line", metadata: ["route": "/v1/accounts:lookup", "list": ["a", "b"], "nested": ["k": "v"]])
        logger.trace("not written")
        let written = lines.withLock { $0 }
        #expect(written.count == 1)
        let line = try #require(written.first)
        #expect(line.hasSuffix("\n") && line.dropLast().allSatisfy { $0 != "\n" })
        let object = try #require(JSONValue.object(fromJSON: String(line.dropLast())))
        #expect(object["level"] == .string("info"))
        #expect(object["label"] == .string("hearth"))
        #expect(object["message"] == .string("request\nforged line"))
        guard case .string(let time)? = object["time"] else {
            Issue.record("no time")
            return
        }
        #expect(time.hasSuffix("Z") && time.contains("T"))
        guard case .object(let metadata)? = object["metadata"] else {
            Issue.record("no metadata")
            return
        }
        #expect(metadata["hb.request.id"] == .string("abc"))
        #expect(metadata["route"] == .string("/v1/accounts:lookup"))
        #expect(metadata["list"] == .array([.string("a"), .string("b")]))
        #expect(metadata["nested"] == .object(["k": .string("v")]))
    }

    @Test("LineLogHandler, text: swift-log's layout in UTC, metadata sorted; JSON times with milliseconds")
    func textLines() throws {
        let lines = LockedBox<[String]>([])
        var logger = Logger(label: "hearth") { label in LineLogHandler(label: label, format: .text) { line in lines.withLock { $0.append(line) } } }
        logger[metadataKey: "route"] = "/v1/token"
        logger.info("request", metadata: ["a": "1"])
        let line = try #require(lines.withLock { $0 }.first)
        let pattern = #/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000 info hearth : a=1 route=/v1/token \[HearthServerTests\] request\n$/#
        #expect(line.wholeMatch(of: pattern) != nil, "\(line)")
        #expect(LogTimestamp.milliseconds(Date(timeIntervalSince1970: 1_764_205_323.4567)) == "2025-11-27T01:02:03.456Z")
        #expect(LogTimestamp.milliseconds(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
        // The second's text is kept for the lines that follow in it, and made anew for another second.
        #expect(LogTimestamp.seconds(Date(timeIntervalSince1970: 1_764_205_323.9)) == "2025-11-27T01:02:03+0000")
        #expect(LogTimestamp.seconds(Date(timeIntervalSince1970: 1_764_205_323.1)) == "2025-11-27T01:02:03+0000")
        #expect(LogTimestamp.seconds(Date(timeIntervalSince1970: 1_764_205_324)) == "2025-11-27T01:02:04+0000")
        #expect(LogTimestamp.milliseconds(Date(timeIntervalSince1970: 1_764_205_324.25)) == "2025-11-27T01:02:04.250Z")
    }

    @Test("LineLogHandler: a key given twice takes the event's value over the provider's over the logger's")
    func metadataPrecedence() throws {
        let lines = LockedBox<[String]>([])
        var logger = Logger(label: "hearth") { label in
            var handler = LineLogHandler(label: label, format: .text) { line in lines.withLock { $0.append(line) } }
            handler.metadataProvider = Logger.MetadataProvider { ["b": "provider", "c": "provider"] }
            return handler
        }
        logger[metadataKey: "a"] = "logger"
        logger[metadataKey: "b"] = "logger"
        logger[metadataKey: "c"] = "logger"
        logger.info("one", metadata: ["c": "event", "d": .stringConvertible(42)])
        logger.info("two")
        let written = lines.withLock { $0 }
        #expect(written.count == 2)
        #expect(written.first?.contains(" : a=logger b=provider c=event d=42 [") == true, "\(written)")
        #expect(written.last?.contains(" : a=logger b=provider c=provider [") == true, "\(written)")
    }

    @Test("LogOutput: lines from many threads arrive whole and each once; more than its capacity is written, not dropped")
    func bufferedOutput() async throws {
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        let output = LogOutput(fileDescriptor: descriptors[1])
        let readEnd = descriptors[0]
        let reader = Task.detached { () -> Data in
            var data = Data()
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(readEnd, &buffer, buffer.count)
                if count <= 0 { return data }
                data.append(contentsOf: buffer[0..<count])
            }
        }
        let filler = String(repeating: "x", count: 200)
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<8 {
                group.addTask { for index in 0..<2_000 { output.write("\(writer) \(index) \(filler)\n") } }
            }
        }
        output.flush()
        close(descriptors[1])
        let lines = String(decoding: await reader.value, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 16_000)
        #expect(Set(lines).count == 16_000)
        #expect(lines.allSatisfy { $0.hasSuffix(filler) })
        // Each writer's lines in the order it wrote them.
        for writer in 0..<8 {
            let own = lines.filter { $0.hasPrefix("\(writer) ") }.map { Int($0.split(separator: " ")[1])! }
            #expect(own == Array(0..<2_000))
        }
        close(descriptors[0])
    }

    @Test("Durations in the access log: milliseconds with three decimals")
    func durations() {
        #expect(LogDuration.milliseconds(.microseconds(12_345)) == "12.345")
        #expect(LogDuration.milliseconds(.nanoseconds(999)) == "0.000")
        #expect(LogDuration.milliseconds(.seconds(2)) == "2000.000")
        #expect(LogDuration.milliseconds(.microseconds(1_005)) == "1.005")
    }

    @Test("hearth serve with log.format json writes JSON lines, access lines among them")
    func serveWritesJSON() async throws {
        let server = try await HearthProcess.start(environment: ["HEARTH_LOG_FORMAT": "json"], arguments: ["--log-level", "info"])
        defer { server.stop() }
        let client = FirebaseTestClient(baseURL: "http://127.0.0.1:\(server.port)")
        #expect(try await client.post("/v1/accounts:signUp", [:]).status == .ok)
        var access: [String: JSONValue]?
        for _ in 0..<100 where access == nil {
            let objects = server.log.split(separator: "\n").compactMap { JSONValue.object(fromJSON: String($0)) }
            access = objects.first { $0["message"] == .string("request") }
            if access == nil { try await Task.sleep(for: .milliseconds(50)) }
        }
        let line = try #require(access)
        guard case .object(let metadata)? = line["metadata"] else {
            Issue.record("no metadata in \(line)")
            return
        }
        #expect(metadata["route"] == .string("/v1/accounts:signUp"))
        #expect(metadata["status"] == .string("200"))
        #expect(metadata["uid"] != nil)
    }
}

/// `key-` ids are the first 8 hex digits of the key's SHA-256.
func sha256Prefix(_ text: String) -> String {
    SHA256.hash(data: Data(text.utf8)).prefix(4).map { String(format: "%02x", $0) }.joined()
}
