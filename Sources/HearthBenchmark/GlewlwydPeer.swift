import CryptoExtras
import Foundation
import HearthPostgresLauncher

#if canImport(Glibc)
import Glibc
#endif

/// glewlwyd, Debian's OAuth 2 / OpenID Connect server (C, 2.7.5 in bookworm), as the refresh scenario's peer
/// (`--compare-peer glewlwyd`): its refresh grant driven by the same client, in the same run, for the same seconds.
///
/// Each launch is a throwaway instance: a directory with its own configuration, an SQLite database made from the
/// schema the package ships (`init.sqlite3.sql`, with its `admin` account) and set to WAL, as Hearth's is, and in it
/// the OIDC plugin signing with a fresh 2048-bit RS256 key, a user with a password and the `openid` scope. It
/// listens on 127.0.0.1 at a free port and logs as shipped (`INFO`: a line a refresh, as Hearth's access log
/// writes one). ``stop()`` ends it and removes both its directories.
final class GlewlwydPeer {
    /// The package's files the comparison needs.
    static let executable = "/usr/bin/glewlwyd"
    static let schema = "/usr/share/doc/glewlwyd/database/init.sqlite3.sql.gz"
    static let modules = "/usr/lib/glewlwyd"
    /// The OIDC plugin's token endpoint, for the password and the refresh grants.
    static let tokenPath = "/api/oidc/token"
    /// The user the refresh tokens are for; their password is the one of the shipped `admin`, whose hash is copied.
    static let username = "bench"
    static let password = "password"

    let process: ServerProcess
    let version: String
    /// The configuration, the database and the key.
    private let directory: URL

    private init(process: ServerProcess, version: String, directory: URL) {
        self.process = process
        self.version = version
        self.directory = directory
    }

    var port: Int { process.port }
    var pid: Int32 { process.pid }
    /// What the signal trap removes if the run is interrupted.
    var cleanupPaths: [String] { [directory.path, process.directoryPath] }

    /// Why the comparison cannot run here (glewlwyd or the tools to make its database are missing), or `nil`.
    static func missing() -> String? {
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            return "glewlwyd is not installed (no \(executable); apt-get install glewlwyd)"
        }
        for file in [schema, "\(modules)/plugin/libprotocol_oidc.so", "\(modules)/user/libusermoddatabase.so"]
        where !FileManager.default.fileExists(atPath: file) {
            return "glewlwyd's package is incomplete (no \(file))"
        }
        for tool in ["sqlite3", "gzip"] where onPath(tool) == nil {
            return "no \(tool) on the PATH to make glewlwyd's database"
        }
        return nil
    }

    /// Makes the instance's directory and database and starts glewlwyd on a free loopback port.
    static func launch(startupTimeout: Duration) async throws -> GlewlwydPeer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-benchmark-glewlwyd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        do {
            let port = try PostgresCluster.freePort()  // glewlwyd cannot be given port 0
            let database = directory.appendingPathComponent("glewlwyd.db")
            let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
            try await makeDatabase(
                database, fixtures: try fixtureSQL(privateKeyPEM: key.pemRepresentation, publicKeyPEM: key.publicKey.pemRepresentation, port: port),
                in: directory)
            let configuration = directory.appendingPathComponent("glewlwyd.conf")
            try self.configuration(port: port, database: database.path).write(to: configuration, atomically: true, encoding: .utf8)
            let version = try await run([executable, "--version"], in: directory).trimmingCharacters(in: .whitespacesAndNewlines)
            let process = try await ServerProcess.launch(
                arguments: { _ in [executable, "--config-file=\(configuration.path)"] }, environment: [:], startupTimeout: startupTimeout,
                readPort: { $0.contains("Glewlwyd started on port \(port),") ? port : nil })
            return GlewlwydPeer(process: process, version: version.split(separator: "\n").last.map(String.init) ?? version, directory: directory)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// Ends glewlwyd (SIGTERM, then SIGKILL) and removes its directories.
    func stop() async {
        await process.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    private struct TokenAnswer: Decodable {
        let refresh_token: String
    }

    /// `count` refresh tokens of ``username``, from the password grant (no client: see BENCHMARKS.md).
    func refreshTokens(count: Int, driver: LoadDriver, connections: Int) async throws -> [String] {
        let request = PreparedRequest(
            path: Self.tokenPath,
            form: [("grant_type", "password"), ("username", Self.username), ("password", Self.password), ("scope", "openid")],
            hostHeader: driver.hostHeader)
        let plan = RequestPlan(name: "glewlwyd password grants", requests: Array(repeating: request, count: count), capturesBodies: true)
        let report = try await driver.runOnce(plan, connections: connections)
        return try report.captured.map { answer in
            guard answer.status == 200, let token = try? JSONDecoder().decode(TokenAnswer.self, from: Data(answer.body.utf8)) else {
                throw BenchmarkError(
                    "glewlwyd's password grant answered HTTP \(answer.status): \(answer.body.prefix(300))\n\(process.stderrTail(maxCharacters: 1_000))"
                )
            }
            return token.refresh_token
        }
    }

    /// The configuration file (libconfig): loopback, the port, the database, Debian's module folders, logs as shipped.
    static func configuration(port: Int, database: String) -> String {
        """
        port=\(port)
        bind_address="127.0.0.1"
        external_url="http://127.0.0.1:\(port)"
        login_url="login.html"
        api_prefix="api"
        log_mode="console"
        log_level="INFO"
        cookie_secure=0
        session_expiration=2419200
        session_key="GLEWLWYD2_SESSION_ID"
        admin_scope="g_admin"
        profile_scope="g_profile"
        user_module_path="\(modules)/user"
        client_module_path="\(modules)/client"
        user_auth_scheme_module_path="\(modules)/scheme"
        plugin_module_path="\(modules)/plugin"
        hash_algorithm="SHA512"
        database =
        {
          type = "sqlite3"
          path = \(libconfigString(database))
        };

        """
    }

    /// The rows added to the shipped schema: the OIDC plugin (RS256 with the given key; the password grant on, which
    /// glewlwyd counts as non-OIDC, and the refresh grant), the user with the shipped `admin`'s password hash and the
    /// `openid` scope, the `admin` disabled; then WAL, which stays with the file.
    static func fixtureSQL(privateKeyPEM: String, publicKeyPEM: String, port: Int) throws -> String {
        let parameters: [String: Any] = [
            "iss": "http://127.0.0.1:\(port)/api/oidc", "jwt-type": "rsa", "jwt-key-size": "256", "key": privateKeyPEM, "cert": publicKeyPEM,
            "access-token-duration": 3600, "refresh-token-duration": 1_209_600, "code-duration": 600, "refresh-token-rolling": false,
            "allow-non-oidc": true, "auth-type-code-enabled": true, "auth-type-token-enabled": false, "auth-type-id-token-enabled": true,
            "auth-type-none-enabled": false, "auth-type-password-enabled": true, "auth-type-client-enabled": false,
            "auth-type-device-enabled": false, "auth-type-refresh-enabled": true, "allowed-scope": ["openid"], "subject-type": "public",
        ]
        let json = String(decoding: try JSONSerialization.data(withJSONObject: parameters, options: [.sortedKeys]), as: UTF8.self)
        let user = "(SELECT gu_id FROM g_user WHERE gu_username=\(sqlString(username)))"
        return """
            INSERT INTO g_plugin_module_instance (gpmi_module, gpmi_name, gpmi_display_name, gpmi_parameters) VALUES ('oidc', 'oidc', 'OIDC', \(sqlString(json)));
            INSERT INTO g_user (gu_username, gu_name, gu_email, gu_enabled) VALUES (\(sqlString(username)), 'Hearth benchmark', '', 1);
            INSERT INTO g_user_password (gu_id, guw_password) SELECT \(user), guw_password FROM g_user_password WHERE gu_id=(SELECT gu_id FROM g_user WHERE gu_username='admin');
            INSERT INTO g_user_scope (gus_name) VALUES ('openid');
            INSERT INTO g_user_scope_user (gu_id, gus_id) VALUES (\(user), (SELECT gus_id FROM g_user_scope WHERE gus_name='openid'));
            UPDATE g_user SET gu_enabled=0 WHERE gu_username='admin';
            PRAGMA journal_mode=WAL;

            """
    }

    /// The schema (decompressed), then `fixtures`, into a new SQLite file; `sqlite3 -bail` stops at the first error.
    private static func makeDatabase(_ database: URL, fixtures: String, in directory: URL) async throws {
        let schemaFile = directory.appendingPathComponent("init.sqlite3.sql")
        let fixturesFile = directory.appendingPathComponent("fixtures.sql")
        _ = try await run([onPath("gzip") ?? "/usr/bin/gzip", "-dc", schema], in: directory, output: schemaFile)
        try fixtures.write(to: fixturesFile, atomically: true, encoding: .utf8)
        for script in [schemaFile, fixturesFile] {
            _ = try await run([onPath("sqlite3") ?? "/usr/bin/sqlite3", "-bail", database.path], in: directory, input: script)
        }
    }

    /// Runs a tool to its end (a minute at most) and gives its output; an exit status other than 0 throws with it.
    @discardableResult
    private static func run(_ arguments: [String], in directory: URL, input: URL? = nil, output: URL? = nil) async throws -> String {
        let log = directory.appendingPathComponent("tool-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let process = try ChildProcess.start(arguments, input: input, output: output ?? log, errorOutput: log)
        let status = try await process.wait(timeout: 60)
        if status == nil { process.send(SIGKILL) }
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        guard status == 0 else {
            throw BenchmarkError("\(arguments.joined(separator: " ")) ended with \(ServerProcess.describe(status)): \(text.suffix(1_000))")
        }
        return text
    }

    /// `'…'` with quotes doubled.
    static func sqlString(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }

    /// `"…"` for libconfig, backslashes and quotes escaped.
    static func libconfigString(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    private static func onPath(_ tool: String) -> String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/\(tool)" }
            .first(where: FileManager.default.isExecutableFile(atPath:))
    }
}
