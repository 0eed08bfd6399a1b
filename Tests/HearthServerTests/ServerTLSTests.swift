import AsyncHTTPClient
import Foundation
import HearthCore
import HearthPostgresLauncher
import HearthTesting
import NIOCore
import NIOSSL
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `hearth serve` with `server.tls.*`: HTTPS on loopback with certificates `openssl` makes for the test, and
/// a new certificate taken on SIGHUP without a restart.
@Suite("Direct TLS and its reload on SIGHUP", .serialized)
struct ServerTLSTests {
    /// A self-signed certificate for 127.0.0.1 and its key, as PEM files in `directory`.
    struct Pair {
        let certificate: URL
        let key: URL
    }

    static func makePair(_ name: String, in directory: URL) async throws -> Pair {
        let pair = Pair(certificate: directory.appendingPathComponent("\(name).crt"), key: directory.appendingPathComponent("\(name).key"))
        let log = directory.appendingPathComponent("\(name).openssl.log")
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl") else {
            throw HarnessError("these tests need /usr/bin/openssl (Debian: apt-get install openssl)")
        }
        let child = try ChildProcess.start(
            [
                "/usr/bin/openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", pair.key.path, "-out", pair.certificate.path, "-days", "2", "-subj", "/CN=hearth-test-\(name)",
                "-addext", "subjectAltName=IP:127.0.0.1",
            ], output: log)
        let status = try await child.wait(timeout: 60)
        guard status == 0 else {
            throw HarnessError("openssl failed: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        }
        return pair
    }

    /// Whether a new connection to `url`, trusting only `pair`'s certificate, gets an answer: a fresh client
    /// each time, so no connection is reused.
    static func answers(_ url: String, trusting pair: Pair) async throws -> Bool {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(pair.certificate.path))
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls, timeout: .init(connect: .seconds(5), read: .seconds(10)))
        configuration.connectionPool.retryConnectionEstablishment = false
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let answered: Bool
        do {
            let response = try await client.execute(HTTPClientRequest(url: url + "/healthz"), timeout: .seconds(10))
            answered = response.status == .ok
        } catch {
            answered = false
        }
        try await client.shutdown()
        return answered
    }

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Writes `source`'s bytes over `destination` (as certbot's renewal replaces the files).
    static func replace(_ destination: URL, with source: URL) throws {
        try Data(contentsOf: source).write(to: destination, options: .atomic)
    }

    @Test("HTTPS with the configured certificate; SIGHUP takes a renewed one for new connections, and keeps it when the new files are broken")
    func servesAndReloads() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try await Self.makePair("first", in: directory)
        let second = try await Self.makePair("second", in: directory)
        let live = Pair(certificate: directory.appendingPathComponent("live.crt"), key: directory.appendingPathComponent("live.key"))
        try Self.replace(live.certificate, with: first.certificate)
        try Self.replace(live.key, with: first.key)

        let server = try await HearthProcess.start(environment: [
            "HEARTH_SERVER_TLS_CERTIFICATE_FILE": live.certificate.path, "HEARTH_SERVER_TLS_KEY_FILE": live.key.path,
        ])
        defer { server.stop() }
        #expect(server.scheme == "https", "the banner does not say https")
        #expect(try await Self.answers(server.baseURL, trusting: first))
        #expect(try await !Self.answers(server.baseURL, trusting: second))

        // Renewed files, then SIGHUP (sent again until taken: the signal handler may still be starting).
        try Self.replace(live.certificate, with: second.certificate)
        try Self.replace(live.key, with: second.key)
        var reloaded = false
        for _ in 0..<100 where !reloaded {
            server.child.send(SIGHUP)
            try await Task.sleep(for: .milliseconds(100))
            reloaded = try await Self.answers(server.baseURL, trusting: second)
        }
        #expect(reloaded, "new connections still get the first certificate")
        #expect(try await !Self.answers(server.baseURL, trusting: first))
        #expect(server.isRunning)

        // A broken key: the reload is refused with a line in the log, and the certificate in force stays.
        try Data("not a key".utf8).write(to: live.key)
        var refused = false
        for _ in 0..<100 where !refused {
            server.child.send(SIGHUP)
            try await Task.sleep(for: .milliseconds(100))
            refused = server.log.contains("SIGHUP: kept the TLS certificate in force")
        }
        #expect(refused, "\(server.log)")
        #expect(server.log.contains("server.tls.keyFile"))
        #expect(try await Self.answers(server.baseURL, trusting: second))
        #expect(server.isRunning)
    }

    @Test("server.tls in a production configuration file: known settings, and the banner says https")
    func productionConfigurationFile() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pair = try await Self.makePair("production", in: directory)
        let file = directory.appendingPathComponent("hearth.yaml")
        try """
        mode: production
        project:
          id: tls-test
          apiKeys: ["tls-test-api-key-0123456789"]
        server:
          host: 127.0.0.1
          tls:
            certificateFile: \(pair.certificate.path)
            keyFile: \(pair.key.path)
        """.write(to: file, atomically: true, encoding: .utf8)
        let server = try await HearthProcess.start(
            environment: ["HEARTH_SECRETS_KEY": KeyEncryptionKey.generate().base64], arguments: ["--config", file.path])
        defer { server.stop() }
        #expect(server.scheme == "https")
        #expect(try await Self.answers(server.baseURL, trusting: pair))
        #expect(!server.log.contains("unknown setting"), "\(server.log)")
    }

    @Test("without server.tls, SIGHUP does not end the server")
    func hangupWithoutTLS() async throws {
        let server = try await HearthProcess.start(environment: [:])
        defer { server.stop() }
        for _ in 0..<5 {
            server.child.send(SIGHUP)
            try await Task.sleep(for: .milliseconds(50))
        }
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: server.baseURL + "/healthz"), timeout: .seconds(10))
        #expect(response.status == .ok)
        #expect(server.isRunning)
    }

    @Test("server.tls settings that cannot work stop start-up naming the key")
    func refusedAtStart() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try await Self.makePair("first", in: directory)
        let second = try await Self.makePair("second", in: directory)
        let garbage = directory.appendingPathComponent("garbage.pem")
        try Data("hello".utf8).write(to: garbage)
        let cases: [([String: String], String)] = [
            (
                ["HEARTH_SERVER_TLS_CERTIFICATE_FILE": first.certificate.path],
                "hearth: invalid configuration: server.tls.keyFile: server.tls needs both certificateFile and keyFile (PEM files), or neither\n"
            ),
            (
                ["HEARTH_SERVER_TLS_CERTIFICATE_FILE": garbage.path, "HEARTH_SERVER_TLS_KEY_FILE": first.key.path],
                "hearth: invalid configuration: server.tls.certificateFile: \(garbage.path) holds no PEM certificate (BEGIN CERTIFICATE)\n"
            ),
            (
                ["HEARTH_SERVER_TLS_CERTIFICATE_FILE": first.certificate.path, "HEARTH_SERVER_TLS_KEY_FILE": second.key.path],
                "hearth: invalid configuration: server.tls.keyFile: \(second.key.path) is not the private key of the certificate in \(first.certificate.path)\n"
            ),
        ]
        for (environment, message) in cases {
            let result = try await HearthProcess.run(
                ["serve", "--port", "0", "--data-dir", directory.appendingPathComponent("data").path], environment: environment, timeout: 60)
            #expect(result.status == 2, "\(environment): \(result.standardError)")
            #expect(result.standardError == message)
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("data").path), "the database was opened")
        }
    }
}
