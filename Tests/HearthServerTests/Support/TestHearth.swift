import AsyncHTTPClient
import Foundation
import HTTPTypes
import HearthConfiguration
import HearthCore
import HearthServer
import HearthTesting
import HearthWire
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import NIOHTTP1
import Testing

/// A Hearth server on a fresh temporary data directory with a clock the test moves by hand.
/// The SQLite file is real; scrypt runs at a cheap cost so tests stay fast. With
/// `HEARTH_TEST_DATABASE=postgres` the data lives in a database of its own in the shared throwaway
/// PostgreSQL cluster instead, tied to the data directory (``TestDatabase``): making a server again on
/// the same `directory` finds the same data, as it does on SQLite.
struct TestHearth: Sendable {
    let services: HearthServices
    let clock: ManualClock
    let directory: URL
    let configuration: ServerConfiguration

    /// The key-encryption key of production-mode test servers that configure none (development mode
    /// makes one in the data directory).
    static let productionKey = KeyEncryptionKey.generate()

    static func make(
        directory: URL? = nil, clock: ManualClock = ManualClock(), logger: Logger = Logger(label: "hearth.test"),
        _ configure: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> TestHearth {
        let directory = directory ?? FileManager.default.temporaryDirectory.appendingPathComponent("hearth-test-\(UUID().uuidString)")
        var configuration = ServerConfiguration()
        configuration.dataDirectory = directory.path
        configuration.scryptLogN = 4
        configuration.port = 0
        configuration.sandboxEnabled = false
        // Hundreds of test servers share one PostgreSQL cluster at once: small pools.
        configuration.databaseMaxConnections = 4
        configure(&configuration)
        if configuration.mode == .production, configuration.secrets.key == nil, configuration.secrets.keyFile == nil {
            configuration.secrets.key = Self.productionKey.base64
        }
        if configuration.databaseURL == nil, configuration.sqlitePath == nil {
            configuration.databaseURL = try await TestDatabase.url(forDataDirectory: configuration.dataDirectory)
        }
        let services = try await HearthServices.open(
            configuration: configuration, httpClient: LiveHearth.httpClient, clock: clock.wallClock, logger: logger)
        return TestHearth(services: services, clock: clock, directory: directory, configuration: configuration)
    }

    /// Runs `body` against the router in-process (no socket, no background services).
    func withClient<T: Sendable>(_ body: @Sendable (FirebaseTestClient) async throws -> T) async throws -> T {
        let app = Application(router: buildRouter(services: services))
        return try await app.test(.router) { client in try await body(FirebaseTestClient(client: client)) }
    }

    func close() async throws {
        try await services.store.close()
    }

    /// Removes the data directory. (A PostgreSQL database goes with the test cluster at exit.)
    func removeFiles() {
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Opens a server, runs the test with a client, closes and removes everything.
func withHearth(
    _ configure: (inout ServerConfiguration) -> Void = { _ in },
    _ body: @Sendable (TestHearth, FirebaseTestClient) async throws -> Void
) async throws {
    let hearth = try await TestHearth.make(configure)
    defer { hearth.removeFiles() }
    do {
        try await hearth.withClient { client in try await body(hearth, client) }
        try await hearth.close()
    } catch {
        try? await hearth.close()
        throw error
    }
}

/// A response as a test reads it.
struct WireResult: Sendable {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let body: Data

    var json: [String: JSONValue] {
        guard case .object(let object)? = try? JSONDecoder().decode(JSONValue.self, from: body) else { return [:] }
        return object
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(T.self, from: body)
    }

    /// The Firebase error message, e.g. `EMAIL_EXISTS` or `WEAK_PASSWORD : Password should be at least 6 characters`.
    var errorMessage: String? { (try? decode(WireErrorResponse.self))?.error.message }

    subscript(key: String) -> JSONValue? { json[key] }

    func string(_ key: String) -> String? {
        if case .string(let value)? = json[key] { return value }
        return nil
    }
}

/// Speaks Identity Toolkit JSON to the server under test.
struct FirebaseTestClient: Sendable {
    /// Sends one request (path with query, method, headers, body) and returns the answer.
    typealias Transport = @Sendable (String, HTTPRequest.Method, HTTPFields, Data?) async throws -> WireResult
    let transport: Transport
    var apiKey: String? = "test-api-key"

    /// Through Hummingbird's test client (in-process router or `.live`).
    init(client: any TestClientProtocol) {
        transport = { uri, method, headers, body in
            let response = try await client.execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(bytes: $0) })
            return WireResult(status: response.status, headers: response.headers, body: Data(response.body.readableBytesView))
        }
    }

    /// Over a real socket to a server at `baseURL` (e.g. a ``LiveHearth``), with AsyncHTTPClient.
    init(baseURL: String) {
        transport = { uri, method, headers, body in
            var request = HTTPClientRequest(url: baseURL + uri)
            request.method = HTTPMethod(rawValue: method.rawValue)
            for field in headers { request.headers.add(name: field.name.rawName, value: field.value) }
            if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
            // A hang guard, not a timing check: the full suite runs ~50 suites at once on two cores.
            let response = try await Self.patientClient.execute(request, timeout: .seconds(300))
            var fields = HTTPFields()
            for (name, value) in response.headers {
                if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
            }
            let collected = try await response.body.collect(upTo: 16 << 20)
            return WireResult(status: HTTPResponse.Status(code: Int(response.status.code)), headers: fields, body: Data(collected.readableBytesView))
        }
    }

    /// An HTTP client whose read time-out (300 s) outlasts what a loaded test machine takes to answer; the shared
    /// client's is 90 s. It lives as long as the test process.
    static let patientClient = HTTPClient(
        eventLoopGroupProvider: .singleton,
        configuration: HTTPClient.Configuration(timeout: HTTPClient.Configuration.Timeout(connect: .seconds(90), read: .seconds(300))))

    func post(_ path: String, json: String, headers: HTTPFields = [:]) async throws -> WireResult {
        try await raw(path, method: .post, body: Data(json.utf8), headers: headers.merging([.contentType: "application/json"]))
    }

    func post(_ path: String, _ object: [String: JSONValue]) async throws -> WireResult {
        try await post(path, json: JSONValue.object(object).jsonText)
    }

    func raw(_ path: String, method: HTTPRequest.Method, body: Data? = nil, headers: HTTPFields = [:]) async throws -> WireResult {
        var uri = path
        if let apiKey, !path.contains("key=") { uri += (path.contains("?") ? "&" : "?") + "key=\(apiKey)" }
        return try await transport(uri, method, headers, body)
    }

    // MARK: Flows

    func signUpAnonymously() async throws -> SignUpResponse {
        let result = try await post("/v1/accounts:signUp", ["returnSecureToken": .bool(true)])
        try #require(result.status == .ok, "\(String(decoding: result.body, as: UTF8.self))")
        return try result.decode(SignUpResponse.self)
    }

    func signUp(email: String, password: String = "correct horse", idToken: String? = nil) async throws -> SignUpResponse {
        var body: [String: JSONValue] = ["email": .string(email), "password": .string(password), "returnSecureToken": .bool(true)]
        if let idToken { body["idToken"] = .string(idToken) }
        let result = try await post("/v1/accounts:signUp", body)
        try #require(result.status == .ok, "\(String(decoding: result.body, as: UTF8.self))")
        return try result.decode(SignUpResponse.self)
    }

    func signIn(email: String, password: String = "correct horse") async throws -> WireResult {
        try await post("/v1/accounts:signInWithPassword", ["email": .string(email), "password": .string(password), "returnSecureToken": .bool(true)])
    }

    func lookup(_ idToken: String) async throws -> WireResult {
        try await post("/v1/accounts:lookup", ["idToken": .string(idToken)])
    }

    func refresh(_ refreshToken: String) async throws -> WireResult {
        try await post("/v1/token", ["grant_type": .string("refresh_token"), "refresh_token": .string(refreshToken)])
    }
}

extension HTTPFields {
    func merging(_ other: HTTPFields) -> HTTPFields {
        var result = self
        for field in other where result[field.name] == nil { result.append(field) }
        return result
    }
}

/// Decodes a JWT's payload without checking anything, to read claims in assertions.
func jwtClaims(_ token: String) -> [String: JSONValue] {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3 else { return [:] }
    var text = String(parts[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while text.count % 4 != 0 { text += "=" }
    guard let data = Data(base64Encoded: text), case .object(let object)? = try? JSONDecoder().decode(JSONValue.self, from: data) else { return [:] }
    return object
}

func jwtHeader(_ token: String) -> [String: JSONValue] {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3 else { return [:] }
    var text = String(parts[0]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while text.count % 4 != 0 { text += "=" }
    guard let data = Data(base64Encoded: text), case .object(let object)? = try? JSONDecoder().decode(JSONValue.self, from: data) else { return [:] }
    return object
}
