import Configuration
import Foundation
import HTTPTypes
import HearthConfiguration
import HearthCore
import HearthServer
import HearthTelemetry
import HearthTesting
import HearthWire
import NIOCore
import NIOPosix
import Testing

@testable import HearthComposition

/// `/metrics` over real HTTP: who may read it, what the series count after real traffic, that no label ever
/// holds a uid, an e-mail address or a token, `metrics.enabled: false`, and the second listener of
/// `metrics.listen`.
@Suite("Metrics")
struct MetricsTests {
    static let owner: HTTPFields = [.authorization: "Bearer owner"]

    /// One sample of the text format: `name{label="value",…} value`.
    struct Sample: Equatable {
        var name: String
        var labels: [String: String]
        var value: Double
    }

    /// The samples of a scrape (comments skipped). Label values are read with the format's escapes.
    static func samples(_ text: String) -> [Sample] {
        text.split(separator: "\n").compactMap { line -> Sample? in
            guard !line.hasPrefix("#"), let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else {
                return nil
            }
            let series = line[..<space]
            guard let open = series.firstIndex(of: "{") else { return Sample(name: String(series), labels: [:], value: value) }
            var labels: [String: String] = [:]
            var rest = series[series.index(after: open)..<series.index(before: series.endIndex)]
            while let equals = rest.firstIndex(of: "=") {
                let name = String(rest[..<equals]).trimmingCharacters(in: CharacterSet(charactersIn: ","))
                var index = rest.index(equals, offsetBy: 2)
                var text = ""
                while index < rest.endIndex, rest[index] != "\"" {
                    if rest[index] == "\\", rest.index(after: index) < rest.endIndex {
                        index = rest.index(after: index)
                        text.append(rest[index] == "n" ? "\n" : rest[index])
                    } else {
                        text.append(rest[index])
                    }
                    index = rest.index(after: index)
                }
                labels[name] = text
                rest = index < rest.endIndex ? rest[rest.index(after: index)...] : ""
            }
            return Sample(name: String(series[..<open]), labels: labels, value: value)
        }
    }

    static func value(_ samples: [Sample], _ name: String, _ labels: [String: String] = [:]) -> Double? {
        samples.first { sample in sample.name == name && labels.allSatisfy { key, value in sample.labels[key] == value } }?.value
    }

    static func scrape(_ client: FirebaseTestClient) async throws -> (text: String, samples: [Sample]) {
        let result = try await client.raw("/metrics", method: .get, headers: owner)
        #expect(result.status == .ok, "\(result.text)")
        #expect(result.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
        return (result.text, samples(result.text))
    }

    @Test("Only an administrator reads /metrics on the main port: 401 with Google's messages otherwise")
    func administratorsOnly() async throws {
        try await withLiveHearth { live in
            var client = FirebaseTestClient(baseURL: live.baseURL)
            let missing = try await client.raw("/metrics", method: .get)
            #expect(missing.status == .unauthorized)
            #expect(
                missing.errorMessage
                    == "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project."
            )
            let wrong = try await client.raw("/metrics", method: .get, headers: [.authorization: "Bearer not-an-admin\u{0}"])
            #expect(wrong.status == .unauthorized)
            #expect(
                wrong.errorMessage
                    == "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project."
            )
            // An API key is not an administrator's credential.
            client.apiKey = "test-api-key"
            #expect(try await client.raw("/metrics?key=test-api-key", method: .get).status == .unauthorized)
            let post = try await client.raw("/metrics", method: .post, headers: Self.owner)
            #expect(post.status == .methodNotAllowed || post.status == .notFound)
            let (text, _) = try await Self.scrape(client)
            #expect(text.contains("# HELP hearth_http_requests_total "))
            #expect(text.contains("# TYPE hearth_http_request_duration_seconds histogram"))
        }
    }

    @Test("Production mode: an admin token reads /metrics; Bearer owner does not")
    func production() async throws {
        let token = String(repeating: "m3tr1cs!", count: 5)
        try await withHearth({ configuration in
            configuration.mode = .production
            configuration.projectID = "hearth-prod"
            configuration.apiKeys = ["production-api-key-0001"]
            configuration.adminTokens = [token]
        }) { _, client async throws in
            let owner = try await client.raw("/metrics", method: .get, headers: Self.owner)
            #expect(owner.status == .unauthorized)
            #expect(
                owner.errorMessage
                    == "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project."
            )
            let admin = try await client.raw("/metrics", method: .get, headers: [.authorization: "Bearer \(token)"])
            #expect(admin.status == .ok)
            #expect(admin.text.contains("hearth_build_info{version=\"\(HearthVersion.current)\""))
            #expect(!admin.text.contains(token))
        }
    }

    @Test("Requests, sign-ups, sign-ins, refreshes, ID-token checks, mails, the database and the signing key are counted")
    func seriesAfterTraffic() async throws {
        try await withLiveHearth({ $0.anonymousCleanup.enabled = true }) { live in
            let client = FirebaseTestClient(baseURL: live.baseURL)
            let anonymous = try await client.signUpAnonymously()
            let created = try await client.signUp(email: "ada@example.com", password: "Metrics-Passw0rd")
            #expect(try await client.signIn(email: "ada@example.com", password: "Metrics-Passw0rd").status == .ok)
            let wrong = try await client.signIn(email: "ada@example.com", password: "wrong password")
            #expect(wrong.status == .badRequest)
            #expect(try await client.refresh(try #require(anonymous.refreshToken)).status == .ok)
            #expect(try await client.refresh("not-a-refresh-token").errorMessage == "INVALID_REFRESH_TOKEN")
            #expect(try await client.lookup(try #require(created.idToken)).status == .ok)
            #expect(try await client.lookup("not.an.idtoken").errorMessage == "INVALID_ID_TOKEN")
            let reset = try await client.post("/v1/accounts:sendOobCode", json: #"{"requestType":"PASSWORD_RESET","email":"ada@example.com"}"#)
            #expect(reset.status == .ok)
            let google = try await client.signInWithIdp(try live.sandbox.signInCredential(for: .googleGmail).postBody)
            #expect(google.status == .ok, "\(google.text)")
            #expect(try await client.raw("/v1/users/ada@example.com", method: .get).status == .notFound)

            let (_, samples) = try await Self.scrape(client)
            func value(_ name: String, _ labels: [String: String] = [:]) -> Double? { Self.value(samples, name, labels) }
            #expect(value("hearth_http_requests_total", ["route": "/v1/accounts:signUp", "status": "200"]) == 2)
            #expect(value("hearth_http_requests_total", ["route": "/v1/accounts:signInWithPassword", "status": "400"]) == 1)
            #expect(value("hearth_http_requests_total", ["route": "NotFound", "status": "404"]) == 1)
            #expect(value("hearth_http_request_duration_seconds_count", ["route": "/v1/accounts:lookup"]) == 2)
            #expect(value("hearth_http_request_duration_seconds_bucket", ["route": "/v1/accounts:lookup", "le": "+Inf"]) == 2)
            #expect(value("hearth_sign_ups_total", ["provider": "anonymous", "result": "ok"]) == 1)
            #expect(value("hearth_sign_ups_total", ["provider": "password", "result": "ok"]) == 1)
            #expect(value("hearth_sign_ups_total", ["provider": "google.com", "result": "ok"]) == 1)
            #expect(value("hearth_sign_ins_total", ["provider": "password", "result": "ok"]) == 1)
            #expect(value("hearth_sign_ins_total", ["provider": "password", "result": "INVALID_PASSWORD"]) == 1)
            #expect(value("hearth_token_refreshes_total", ["result": "ok"]) == 1)
            #expect(value("hearth_token_refreshes_total", ["result": "INVALID_REFRESH_TOKEN"]) == 1)
            #expect(value("hearth_id_token_checks_total", ["result": "ok"]) == 1)
            #expect(value("hearth_id_token_checks_total", ["result": "INVALID_ID_TOKEN"]) == 1)
            #expect(value("hearth_mails_queued_total", ["purpose": "PASSWORD_RESET"]) == 1)
            #expect((value("hearth_provider_requests_total", ["provider": "google.com", "result": "ok"]) ?? 0) >= 1)
            #expect((value("hearth_provider_request_duration_seconds_count", ["provider": "google.com"]) ?? 0) >= 1)
            #expect(value("hearth_jwks_fetches_total", ["provider": "google.com", "result": "ok"]) == 1)
            #expect((value("hearth_db_transaction_duration_seconds_count", ["kind": "write"]) ?? 0) > 0)
            #expect((value("hearth_db_transaction_duration_seconds_count", ["kind": "read"]) ?? 0) > 0)
            let pools = samples.filter { $0.name == "hearth_db_connections_in_use" }.compactMap { $0.labels["pool"] }
            #expect(Set(pools) == ((TestDatabase.backend == .postgres) ? ["postgres"] : ["read", "write"]), "\(pools)")
            if !(TestDatabase.backend == .postgres) {
                #expect((value("hearth_sqlite_group_commit_batch_size_count") ?? 0) > 0)
            }
            #expect((value("hearth_signing_key_age_seconds") ?? -1) >= 0)
            #expect(value("hearth_start_time_seconds") == live.services.metrics.startedAt.timeIntervalSince1970)
            #expect(
                value(
                    "hearth_build_info", ["version": HearthVersion.current, "database": (TestDatabase.backend == .postgres) ? "postgres" : "sqlite"])
                    == 1)

            // The anonymous clean-up counts what it deletes.
            let cleanup = AnonymousCleanupService(services: live.services)
            _ = try await cleanup.runOnce()
            live.clock.advance(by: 31 * 86_400)
            #expect(try await cleanup.runOnce() == [anonymous.localId])
            #expect(Self.value(try await Self.scrape(client).samples, "hearth_anonymous_cleanup_deleted_total") == 1)
        }
    }

    @Test("No label holds a uid, an e-mail address, a token or a client's made-up provider id")
    func labelsStayBounded() async throws {
        try await withLiveHearth { live in
            let client = FirebaseTestClient(baseURL: live.baseURL)
            let created = try await client.signUp(email: "grace@example.com", password: "Label-Passw0rd")
            let uid = try #require(created.localId)
            _ = try await client.lookup(try #require(created.idToken))
            _ = try await client.refresh(try #require(created.refreshToken))
            let hostile = "evil\"provider\n{le=\"1\"}\u{0}"
            let made = try await client.signInWithIdp("providerId=\(formEncoded(hostile))&id_token=x")
            #expect(made.status == .badRequest)
            let unknownRoute = try await client.raw("/v1/accounts:\(uid)", method: .post, body: Data("{}".utf8))
            #expect(unknownRoute.status == .notFound)

            let (text, samples) = try await Self.scrape(client)
            let values = samples.flatMap { $0.labels.values }
            for secret in [uid, "grace@example.com", try #require(created.idToken), try #require(created.refreshToken), "evil", "Label-Passw0rd"] {
                #expect(!values.contains { $0.contains(secret) }, "\(secret) in a label")
                #expect(!text.contains(secret), "\(secret) in /metrics")
            }
            #expect(Self.value(samples, "hearth_sign_ins_total", ["provider": "other", "result": "INVALID_CREDENTIAL_OR_PROVIDER_ID"]) == 1)
            // Every series is in the catalogue, with its labels.
            let catalogue = Dictionary(uniqueKeysWithValues: MetricDescriptor.catalogue.map { ($0.name, $0) })
            for sample in samples {
                let base = ["_bucket", "_sum", "_count"].reduce(sample.name) { name, suffix in
                    name.hasSuffix(suffix) && catalogue[name] == nil ? String(name.dropLast(suffix.count)) : name
                }
                let descriptor = try #require(catalogue[base], "\(sample.name) is not in the catalogue")
                #expect(Set(sample.labels.keys).subtracting(["le"]) == Set(descriptor.labels), "\(sample.name) \(sample.labels)")
            }
        }
    }

    @Test("metrics.enabled: false serves no /metrics (404) and keeps nothing")
    func switchedOff() async throws {
        try await withLiveHearth({ $0.metrics.enabled = false }) { live in
            let client = FirebaseTestClient(baseURL: live.baseURL)
            _ = try await client.signUpAnonymously()
            let result = try await client.raw("/metrics", method: .get, headers: Self.owner)
            #expect(result.status == .notFound)
            #expect((try? result.decode(WireErrorResponse.self))?.error.status == "NOT_FOUND")
            #expect(live.services.metrics.telemetry.registry == nil)
            #expect(live.services.metrics.telemetry.exposition().isEmpty)
        }
    }

    @Test("metrics.listen: a second listener serves GET /metrics without a credential and nothing else")
    func secondListener() async throws {
        let port = try await Self.freeLoopbackPort()
        try await withLiveHearth({ $0.metrics.listen = .init(host: "127.0.0.1", port: port) }) { live in
            let main = FirebaseTestClient(baseURL: live.baseURL)
            _ = try await main.signUpAnonymously()
            let side = FirebaseTestClient(baseURL: "http://127.0.0.1:\(port)")
            let scraped = try await Self.eventuallyOK { try await side.raw("/metrics", method: .get) }
            #expect(scraped.text.contains("hearth_sign_ups_total{provider=\"anonymous\",result=\"ok\"} 1"))
            #expect(try await side.raw("/v1/accounts:signUp", method: .post, body: Data("{}".utf8)).status == .notFound)
            #expect([.methodNotAllowed, .notFound].contains(try await side.raw("/metrics", method: .post).status))
        }
    }

    @Test("metrics.listen, metrics.enabled, database.maxConnections and database.preparedStatements are validated, naming the key")
    func settings() throws {
        for bad in ["9464", "localhost", "http://127.0.0.1:9464", "127.0.0.1:99999", "127.0.0.1:port", "bad host:80", "[::1]:", "a\u{0}b:80"] {
            #expect(ServerConfiguration.ListenAddress(bad) == nil, "\(bad)")
        }
        #expect(ServerConfiguration.ListenAddress("127.0.0.1:9464") == .init(host: "127.0.0.1", port: 9464))
        #expect(ServerConfiguration.ListenAddress("[::1]:9464")?.description == "[::1]:9464")
        #expect(ServerConfiguration.ListenAddress("metrics.internal:9464")?.host == "metrics.internal")
        func read(_ values: [AbsoluteConfigKey: ConfigValue]) throws -> ServerConfiguration {
            try ServerConfiguration(reader: ConfigReader(provider: InMemoryProvider(values: values)))
        }
        #expect(try read([:]).metrics == ServerConfiguration.Metrics())
        #expect(throws: ConfigurationError.self) { try read(["metrics.listen": .init(.string("nonsense"), isSecret: false)]) }
        do {
            _ = try read(["metrics.listen": .init(.string("nonsense"), isSecret: false)])
        } catch let error as ConfigurationError {
            #expect(error.key == "metrics.listen")
        }
        let set = try read(["metrics.enabled": .init(.bool(false), isSecret: false), "metrics.listen": .init(.string("[::1]:9464"), isSecret: false)])
        #expect(!set.metrics.enabled && set.metrics.listen == .init(host: "::1", port: 9464))
        // The pool the alert on hearth_db_connections_waiting points at.
        #expect(try read([:]).databaseMaxConnections == 10)
        #expect(try read(["database.maxConnections": .init(.int(40), isSecret: false)]).databaseMaxConnections == 40)
        for bad in [1, 0, -5, 1_001] {
            do {
                _ = try read(["database.maxConnections": .init(.int(bad), isSecret: false)])
                Issue.record("accepted database.maxConnections \(bad)")
            } catch let error as ConfigurationError {
                #expect(error.key == "database.maxConnections")
            }
        }
        // Prepared statements on PostgreSQL: on unless turned off, and reach the store's options.
        #expect(try read([:]).databasePreparedStatements)
        let unprepared = try read(["database.preparedStatements": .init(.bool(false), isSecret: false)])
        #expect(!unprepared.databasePreparedStatements)
        #expect(!HearthServices.postgresOptions(unprepared).preparedStatements)
        #expect(throws: ConfigurationError.self) { try read(["database.preparedStatements": .init(.string("sometimes"), isSecret: false)]) }
    }

    /// A port free on loopback now (bound and released).
    static func freeLoopbackPort() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(channel.localAddress?.port)
        try await channel.close()
        return port
    }

    @Test("docs/metrics.md lists exactly the catalogue's series, each with its type and labels")
    func documented() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/metrics.md"), encoding: .utf8)
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("| `hearth_") }
        var documented: [String: String] = [:]
        for row in rows {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            documented[cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = row.description
        }
        #expect(Set(documented.keys) == Set(MetricDescriptor.catalogue.map(\.name)))
        for descriptor in MetricDescriptor.catalogue {
            let row = try #require(documented[descriptor.name])
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(cells[1] == descriptor.kind.rawValue, "\(descriptor.name)")
            let labels = cells[2].split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " `")) }
            #expect(labels == descriptor.labels, "\(descriptor.name)")
        }
    }

    /// Retries until the listener answers 200 (the second listener starts beside the main one).
    static func eventuallyOK(_ call: () async throws -> WireResult) async throws -> WireResult {
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            if let result = try? await call(), result.status == .ok { return result }
            guard ContinuousClock.now < deadline else { throw HarnessError("the metrics listener never answered") }
            try await Task.sleep(for: .milliseconds(100))
        }
    }
}
