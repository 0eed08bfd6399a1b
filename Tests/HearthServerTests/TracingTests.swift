import Configuration
import Foundation
import HTTPTypes
import HearthConfiguration
import HearthCore
import HearthTesting
import Hummingbird
import Logging
import ServiceLifecycle
import Synchronization
import Testing
import Tracing

@testable import HearthServer
@testable import HearthTelemetry

/// Traces over OTLP/HTTP to a collector on loopback: a live server with the provider sandbox signs a user in with
/// Apple and stops gracefully (which sends the last batch); the test reads what the collector received.
@Suite("Traces")
struct TracingTests {
    @Test("A sign-in with Apple: the request's server span, Apple's key fetch and the store's transactions under it, in the caller's trace")
    func signInWithApple() async throws {
        let traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
        let callerSpanID = "00f067aa0ba902b7"
        let collected = try await withCollector { port in
            var secrets: [String] = []
            var requestID: String?
            try await withFederated({ configuration in
                configuration.tracing.otlpEndpoint = "http://otel:collector-secret@127.0.0.1:\(port)"
                configuration.tracing.wireProtocol = .httpJSON
                configuration.tracing.serviceName = "hearth-tracing-test"
            }) { live, client in
                #expect(live.services.traceExporter != nil)
                let credential = try live.sandbox.signInCredential(for: .appleAlice, rawNonce: "a raw nonce that must stay secret")
                let idToken = try #require(credential.idToken)
                let body: [String: JSONValue] = [
                    "requestUri": .string("http://localhost"), "returnSecureToken": .bool(true), "postBody": .string(credential.postBody),
                ]
                let signedIn = try await client.post(
                    "/v1/accounts:signInWithIdp", json: JSONValue.object(body).jsonText,
                    headers: [HTTPField.Name("traceparent")!: "00-\(traceID)-\(callerSpanID)-01"])
                #expect(signedIn.status == .ok, "\(signedIn.text)")
                requestID = signedIn.headers[HTTPField.Name("X-Request-Id")!]
                secrets = [
                    idToken, "a raw nonce that must stay secret", try #require(signedIn.string("idToken")),
                    try #require(signedIn.string("refreshToken")),
                ]
                // A path no route matches: the span says NotFound, never the path.
                let missing = try await client.raw("/v1/users/alice@example.com:secret-path", method: .get)
                #expect(missing.status == .notFound)
            }
            return (secrets, requestID)
        }
        let (secrets, requestID) = collected.value
        let requests = collected.requests
        #expect(!requests.isEmpty)
        for request in requests {
            #expect(request.path == "/v1/traces")
            #expect(request.contentType == "application/json")
            #expect(request.authorization == "Basic " + Data("otel:collector-secret".utf8).base64EncodedString())
        }
        let raw = requests.map { String(decoding: $0.body, as: UTF8.self) }.joined(separator: "\n")
        for secret in secrets { #expect(!raw.contains(secret), "a span carries a secret") }
        #expect(!raw.contains("alice@example.com"))
        #expect(!raw.contains("secret-path"))

        let spans = try requests.flatMap { try ReceivedSpan.all(in: $0.body) }
        #expect(spans.allSatisfy { $0.serviceName == "hearth-tracing-test" })
        let server = try #require(spans.first { $0.name == "POST /v1/accounts:signInWithIdp" }, "\(spans.map(\.name))")
        #expect(server.kind == ReceivedSpan.serverKind)
        #expect(server.traceID == traceID)
        #expect(server.parentSpanID == callerSpanID)
        #expect(server.attributes["http.request.method"] == "POST")
        #expect(server.attributes["http.route"] == "/v1/accounts:signInWithIdp")
        #expect(server.attributes["http.response.status_code"] == "200")
        #expect(server.attributes["hearth.request_id"] == requestID)
        #expect(server.statusCode != ReceivedSpan.errorStatus)

        let trace = spans.filter { $0.traceID == traceID }
        let byID = Dictionary(trace.map { ($0.spanID, $0) }, uniquingKeysWith: { first, _ in first })
        func isUnderServer(_ span: ReceivedSpan) -> Bool {
            var parent = span.parentSpanID
            while let id = parent, let next = byID[id] {
                if next.spanID == server.spanID { return true }
                parent = next.parentSpanID
            }
            return false
        }
        let apple = trace.filter { $0.attributes["hearth.provider"] == "Apple" }
        #expect(!apple.isEmpty, "no span of a call to Apple: \(trace.map(\.name))")
        for span in apple {
            #expect(span.kind == ReceivedSpan.clientKind)
            #expect(span.name == "GET Apple")
            #expect(span.attributes["server.address"] == "127.0.0.1")
            #expect(span.attributes["http.response.status_code"] == "200")
            #expect(isUnderServer(span))
        }
        let database = trace.filter { $0.name == "db.read" || $0.name == "db.write" }
        #expect(database.contains { $0.name == "db.write" }, "\(trace.map(\.name))")
        for span in database {
            #expect(span.kind == ReceivedSpan.clientKind)
            #expect(span.attributes["db.system.name"] == (TestDatabase.backend == .postgres ? "postgresql" : "sqlite"))
            #expect(isUnderServer(span))
        }
        // Every span of the caller's trace is the server span or under it.
        for span in trace where span.spanID != server.spanID { #expect(isUnderServer(span), "\(span.name)") }

        let notFound = try #require(spans.first { $0.name == "GET NotFound" }, "\(spans.map(\.name))")
        #expect(notFound.attributes["http.route"] == "NotFound")
        #expect(notFound.attributes["http.response.status_code"] == "404")
        #expect(notFound.traceID != traceID)
        #expect(notFound.parentSpanID == nil)
    }

    @Test(
        "A malformed traceparent starts a new trace, silently: the request's headers never reach the log",
        arguments: [
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01", "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
            "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7", "garbage", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-",
        ])
    func malformedTraceparent(traceparent: String) async throws {
        let logs = CapturedLogs()
        let collected = try await withCollector { port in
            let live = try await LiveHearth.start(
                logger: logs.logger(), providers: { _ in },
                { configuration in
                    configuration.tracing.otlpEndpoint = "http://127.0.0.1:\(port)"
                    configuration.tracing.wireProtocol = .httpJSON
                })
            do {
                let client = FirebaseTestClient(baseURL: live.baseURL)
                let answer = try await client.raw(
                    "/v1/accounts:lookup", method: .post, body: Data(#"{"idToken":"id-token-in-the-body"}"#.utf8),
                    headers: [
                        .traceparent: traceparent, .authorization: "Bearer secret-in-a-header", .cookie: "session=secret-in-a-cookie",
                        .contentType: "application/json",
                    ])
                #expect(answer.status == .unauthorized)
                try await live.stop()
            } catch {
                try? await live.stop()
                throw error
            }
        }
        #expect(!logs.text.contains("secret-in-a-"))
        #expect(!logs.text.contains("Failed to extract"))
        let spans = try collected.requests.flatMap { try ReceivedSpan.all(in: $0.body) }
        let lookup = try #require(spans.first { $0.name == "POST /v1/accounts:lookup" }, "\(spans.map(\.name))")
        #expect(lookup.parentSpanID == nil)
        #expect(lookup.attributes["http.response.status_code"] == "401")
        let raw = collected.requests.map { String(decoding: $0.body, as: UTF8.self) }.joined()
        #expect(!raw.contains("secret-in-a-") && !raw.contains("id-token-in-the-body"))
    }

    @Test("Without tracing.otlpEndpoint nothing is traced and nothing is sent")
    func off() async throws {
        let collected = try await withCollector { port in
            try await withFederated { live, client in
                #expect(live.services.traceExporter == nil)
                #expect(live.services.metrics.telemetry.tracer is NoOpTracer)
                let credential = try live.sandbox.signInCredential(for: .appleAlice)
                let signedIn = try await client.signInWithIdp(credential.postBody)
                #expect(signedIn.status == .ok)
            }
        }
        #expect(collected.requests.isEmpty)
    }

    @Test("The collector's URL: /v1/traces appended once, credentials taken out for Basic authorization")
    func endpoint() throws {
        var tracing = ServerConfiguration.Tracing()
        #expect(tracing.tracesURL == nil)
        #expect(!tracing.enabled)
        for (endpoint, traces) in [
            ("http://collector:4318", "http://collector:4318/v1/traces"),
            ("https://otlp.example.com/", "https://otlp.example.com/v1/traces"),
            ("https://otlp.example.com/otlp//", "https://otlp.example.com/otlp/v1/traces"),
            ("http://collector:4318/v1/traces", "http://collector:4318/v1/traces"),
            ("https://user:p%40ss@otlp.example.com/otlp", "https://otlp.example.com/otlp/v1/traces"),
        ] {
            tracing.otlpEndpoint = endpoint
            #expect(tracing.tracesURL == traces)
        }
        let configuration = try read(["tracing.otlpEndpoint": "https://user:p%40ss@otlp.example.com/otlp"])
        #expect(configuration.tracing.otlpEndpoint == "https://user:p%40ss@otlp.example.com/otlp")
        #expect(configuration.tracing.serviceName == "hearth")
        #expect(configuration.tracing.wireProtocol == .httpProtobuf)
        #expect(configuration.tracing.sampleRatio == 1)
        #expect(!"\(configuration)".contains("p%40ss"))
        let export = try #require(try TraceExport.make(configuration.tracing.exportSettings, logger: .init(label: "test")))
        #expect(!(export.tracer is NoOpTracer))
        #expect(
            try TraceExport.make(configuration.tracing.exportSettings, logger: .init(label: "test"), environment: ["OTEL_SDK_DISABLED": "TRUE"])
                == nil)

        let full = try read([
            "tracing.otlpEndpoint": "http://127.0.0.1:4318", "tracing.serviceName": "auth-eu", "tracing.protocol": "http/json",
            "tracing.sampleRatio": "0.25",
        ])
        #expect(full.tracing.serviceName == "auth-eu")
        #expect(full.tracing.wireProtocol == .httpJSON)
        #expect(full.tracing.sampleRatio == 0.25)
    }

    @Test(
        "Invalid tracing settings stop start-up with a message that names the key, and never quote the endpoint's password",
        arguments: [
            ("tracing.otlpEndpoint", "ftp://collector:4318"),
            ("tracing.otlpEndpoint", "collector:4318"),
            ("tracing.otlpEndpoint", "http://otel:hunter2@collector:4318/?token=x"),
            ("tracing.otlpEndpoint", "http://otel:hunter2@/v1/traces"),
            ("tracing.otlpEndpoint", "http://collector:4318/#top"),
            ("tracing.protocol", "grpc"),
            ("tracing.protocol", "http/xml"),
            ("tracing.sampleRatio", "1.5"),
            ("tracing.sampleRatio", "-0.1"),
            ("tracing.sampleRatio", "half"),
            ("tracing.sampleRatio", "nan"),
            ("tracing.serviceName", "hearth\nfake-line"),
            ("tracing.serviceName", String(repeating: "h", count: 256)),
        ])
    func invalid(key: String, value: String) throws {
        let error = try #require(throws: ConfigurationError.self) { try read([key: value]) }
        #expect(error.key == key)
        #expect(error.description.contains(key))
        #expect(!error.description.contains("hunter2"))
    }

    @Test("The settings are known, and read from HEARTH_TRACING_* variables")
    func environment() throws {
        for key in ["tracing.otlpEndpoint", "tracing.serviceName", "tracing.protocol", "tracing.sampleRatio"] {
            #expect(KnownSettings.keys.contains(key), "\(key)")
        }
        #expect(KnownSettings.environmentName(of: "tracing.otlpEndpoint") == "HEARTH_TRACING_OTLP_ENDPOINT")
        let variables = [
            "TRACING_OTLP_ENDPOINT": "http://otel:secret@collector:4318", "TRACING_PROTOCOL": "http/json", "TRACING_SAMPLE_RATIO": "0.5",
            "TRACING_SERVICE_NAME": "auth-eu",
        ]
        let configuration = try ServerConfiguration(reader: ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: variables)))
        #expect(configuration.tracing.tracesURL == "http://collector:4318/v1/traces")
        #expect(configuration.tracing.authorization == "Basic " + Data("otel:secret".utf8).base64EncodedString())
        #expect(configuration.tracing.wireProtocol == .httpJSON)
        #expect(configuration.tracing.sampleRatio == 0.5)
        #expect(configuration.tracing.serviceName == "auth-eu")
    }

    @Test("swift-otel's diagnostics never show the values of the settings they report, which can hold credentials")
    func diagnosticsRedacted() {
        let logs = CapturedLogs()
        var logger = OTelDiagnosticsHandler.logger(over: logs.logger())
        logger.logLevel = .info
        logger[metadataKey: "environment_key"] = "OTEL_EXPORTER_OTLP_HEADERS"
        logger[metadataKey: "environment_value"] = "x-api-key=hunter2"
        logger[metadataKey: "previous_value"] = "Authorization=Basic b3RlbDpodW50ZXIy"
        logger.info("Configuration updated from environment", metadata: ["new_value": "x-api-key=hunter2"])
        #expect(logs.text.contains("Configuration updated from environment"))
        #expect(logs.text.contains("OTEL_EXPORTER_OTLP_HEADERS"))
        #expect(!logs.text.contains("hunter2"))
        #expect(!logs.text.contains("b3RlbDpodW50ZXIy"))
        logger.debug("below the level")
        #expect(!logs.text.contains("below the level"))
    }

    private func read(_ values: [String: String]) throws -> ServerConfiguration {
        var entries: [AbsoluteConfigKey: ConfigValue] = [:]
        for (key, value) in values { entries[AbsoluteConfigKey(ConfigKey(key))] = ConfigValue(.string(value), isSecret: false) }
        return try ServerConfiguration(reader: ConfigReader(provider: InMemoryProvider(values: entries)))
    }
}

/// One POST the collector received.
struct CollectedExport: Sendable {
    var path: String
    var contentType: String?
    var authorization: String?
    var body: Data
}

/// What `withCollector`'s body returned, and the exports received until the collector stopped.
struct Collected<Value: Sendable>: Sendable {
    var value: Value
    var requests: [CollectedExport]
}

/// A minimal OTLP/HTTP collector on 127.0.0.1: it keeps every POST and answers 200 with an empty JSON object
/// (OTLP's full success). Runs `body` with its port.
func withCollector<Value: Sendable>(_ body: (_ port: Int) async throws -> Value) async throws -> Collected<Value> {
    let received = CollectedExports()
    let router = Router()
    router.post("/**") { request, _ -> Response in
        let bytes = try await request.body.collect(upTo: 16 << 20)
        let export = CollectedExport(
            path: request.uri.path, contentType: request.headers[.contentType], authorization: request.headers[.authorization],
            body: Data(bytes.readableBytesView))
        received.exports.withLock { $0.append(export) }
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: "{}")))
    }
    let (ports, listening) = AsyncStream.makeStream(of: Int.self)
    let app = Application(
        router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
        onServerRunning: { channel in
            listening.yield(channel.localAddress?.port ?? 0)
            listening.finish()
        })
    let group = ServiceGroup(configuration: .init(services: [app], logger: Logger(label: "otlp-collector")))
    let running = Task { try await group.run() }
    var iterator = ports.makeAsyncIterator()
    do {
        let port = try #require(await iterator.next())
        let value = try await body(port)
        await group.triggerGracefulShutdown()
        try await running.value
        return Collected(value: value, requests: received.exports.withLock { $0 })
    } catch {
        await group.triggerGracefulShutdown()
        _ = await running.result
        throw error
    }
}

private final class CollectedExports: Sendable {
    let exports = Mutex<[CollectedExport]>([])
}

/// A span as OTLP's JSON encoding carries it (swift-otel writes ids in base64, which is read here as hex too).
struct ReceivedSpan {
    static let serverKind = 2
    static let clientKind = 3
    static let errorStatus = 2

    var serviceName: String?
    var traceID: String
    var spanID: String
    var parentSpanID: String?
    var name: String
    var kind: Int
    var statusCode: Int
    /// Every attribute as text (OTLP's JSON writes 64-bit integers as strings).
    var attributes: [String: String]

    static func all(in body: Data) throws -> [ReceivedSpan] {
        let root = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        var spans: [ReceivedSpan] = []
        for resourceSpans in root["resourceSpans"] as? [[String: Any]] ?? [] {
            let resource = attributes((resourceSpans["resource"] as? [String: Any])?["attributes"])
            for scopeSpans in resourceSpans["scopeSpans"] as? [[String: Any]] ?? [] {
                for span in scopeSpans["spans"] as? [[String: Any]] ?? [] {
                    let parent = (span["parentSpanId"] as? String).map(hex).flatMap { $0.isEmpty ? nil : $0 }
                    spans.append(
                        ReceivedSpan(
                            serviceName: resource["service.name"], traceID: hex(span["traceId"] as? String ?? ""),
                            spanID: hex(span["spanId"] as? String ?? ""), parentSpanID: parent, name: span["name"] as? String ?? "",
                            kind: span["kind"] as? Int ?? 0, statusCode: (span["status"] as? [String: Any])?["code"] as? Int ?? 0,
                            attributes: attributes(span["attributes"])))
                }
            }
        }
        return spans
    }

    private static func attributes(_ list: Any?) -> [String: String] {
        var result: [String: String] = [:]
        for attribute in list as? [[String: Any]] ?? [] {
            guard let key = attribute["key"] as? String, let value = attribute["value"] as? [String: Any], let (_, text) = value.first
            else { continue }
            result[key] = "\(text)"
        }
        return result
    }

    /// An id as lower-case hex, from hex (OTLP's JSON) or base64 (protobuf's JSON mapping of bytes).
    private static func hex(_ text: String) -> String {
        if text.count % 2 == 0, text.allSatisfy(\.isHexDigit), text.count == 32 || text.count == 16 { return text.lowercased() }
        guard let data = Data(base64Encoded: text) else { return text }
        return data.map { String(format: "%02x", $0) }.joined()
    }
}
