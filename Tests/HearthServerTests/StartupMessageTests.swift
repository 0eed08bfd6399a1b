import Crypto
import Foundation
import HearthCore
import HearthTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Every file `hearth serve` reads at start (the key-encryption key, custom-token public keys, Apple's .p8
/// key, the configuration file), missing, unreadable or not a key, and the other ways a start or a command
/// fails: one line for a person naming the cause, a non-zero exit, the database closed (a debug build
/// asserts otherwise), never a source path or a type dump. The real binary, as a new user runs it.
@Suite("hearth start-up messages, the real binary")
struct StartupMessageTests {
    static let leaks = ["Assertion", "Illegal instruction", "Fatal error", ".swift:", "HearthError", "Backtrace", "\nError: ", "Failure("]

    /// Exit `status`, exactly one `hearth: ` line on standard error (log lines aside), containing every one of `texts`.
    static func expectOneLine(_ result: HearthProcess.CommandResult, status: Int32, containing texts: [String]) {
        #expect(result.status == status, "\(result.standardError)")
        let lines = result.standardError.split(separator: "\n").filter { $0.hasPrefix("hearth: ") }
        #expect(lines.count == 1, "\(result.standardError)")
        for text in texts { #expect(lines.first?.contains(text) == true, "\(text) not in: \(result.standardError)") }
        for leak in leaks { #expect(!result.standardError.contains(leak), "\(leak) in: \(result.standardError.prefix(400))") }
    }

    /// `hearth serve` on a new data directory in development mode, with `environment` (and cheap scrypt).
    static func serve(_ directory: URL, _ environment: [String: String], arguments: [String] = []) async throws -> HearthProcess.CommandResult {
        var environment = environment
        environment["HEARTH_PASSWORDS_SCRYPT_LOG_N"] = "4"
        return try await HearthProcess.run(
            ["serve", "--port", "0", "--data-dir", directory.appendingPathComponent("data").path] + arguments, environment: environment)
    }

    static func write(_ text: String, _ directory: URL, _ name: String) throws -> String {
        let file = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file.path
    }

    static let garbledPublicKey = "-----BEGIN PUBLIC KEY-----\nbm90IGEga2V5\n-----END PUBLIC KEY-----\n"

    @Test("secrets.keyFile: missing, a directory, not a key")
    func keyEncryptionKeyFile() async throws {
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("missing.key").path
        Self.expectOneLine(
            try await Self.serve(directory, ["HEARTH_SECRETS_KEY_FILE": missing]), status: 2,
            containing: ["invalid configuration: secrets.keyFile: no key file at \(missing)"])
        Self.expectOneLine(
            try await Self.serve(directory, ["HEARTH_SECRETS_KEY_FILE": directory.path]), status: 2,
            containing: ["secrets.keyFile: \(directory.path) is a directory, not a key file"])
        let garbled = try Self.write("not a key\n", directory, "garbled.key")
        Self.expectOneLine(
            try await Self.serve(directory, ["HEARTH_SECRETS_KEY_FILE": garbled]), status: 2,
            containing: ["secrets.keyFile: \(garbled): expected 32 bytes in base64 (make one with: openssl rand -base64 32)"])
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("data/hearth.sqlite").path))
    }

    @Test("secrets.keyFile that this user cannot read", .enabled(if: geteuid() != 0, "root reads every file"))
    func unreadableKeyFile() async throws {
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = try Self.write(KeyEncryptionKey.generate().base64, directory, "secrets.key")
        chmod(key, 0)
        Self.expectOneLine(
            try await Self.serve(directory, ["HEARTH_SECRETS_KEY_FILE": key]), status: 2,
            containing: ["the key file \(key) cannot be read by this user (check its permissions)"])
    }

    @Test("customTokens.publicKeyFiles: missing, a directory, not a public key, a private key")
    func customTokenKeyFiles() async throws {
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("missing.pem").path
        Self.expectOneLine(
            try await Self.serve(directory, ["HEARTH_CUSTOM_TOKENS_PUBLIC_KEY_FILES": missing]), status: 2,
            containing: ["invalid configuration: customTokens.publicKeyFiles: no file at \(missing)"])
        Self.expectOneLine(
            try await Self.serve(directory, ["HEARTH_CUSTOM_TOKENS_PUBLIC_KEY_FILES": directory.path]), status: 2,
            containing: ["customTokens.publicKeyFiles: \(directory.path) is a directory, not a file"])
        let garbled = try Self.write(Self.garbledPublicKey, directory, "garbled.pem")
        Self.expectOneLine(
            try await Self.serve(directory, ["HEARTH_CUSTOM_TOKENS_PUBLIC_KEY_FILES": garbled]), status: 2,
            containing: ["customTokens.publicKeyFiles: \(garbled) is not a PEM RSA public key (BEGIN PUBLIC KEY)"])
        let privateKey = try Self.write(P256.Signing.PrivateKey().pemRepresentation, directory, "private.pem")
        Self.expectOneLine(
            try await Self.serve(directory, ["HEARTH_CUSTOM_TOKENS_PUBLIC_KEY_FILES": privateKey]), status: 2,
            containing: ["customTokens.publicKeyFiles: \(privateKey) is not a PEM RSA public key"])
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("data/hearth.sqlite").path))
    }

    @Test("providers.apple.privateKeyFile: missing, or not Apple's .p8 key")
    func applePrivateKeyFile() async throws {
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("AuthKey.p8").path
        Self.expectOneLine(
            try await Self.serve(directory, ["HEARTH_PROVIDERS_APPLE_PRIVATE_KEY_FILE": missing]), status: 2,
            containing: ["invalid configuration: providers.apple.privateKeyFile: no file at \(missing)"])
        let garbled = try Self.write(Self.garbledPublicKey, directory, "garbled.p8")
        Self.expectOneLine(
            try await Self.serve(directory, ["HEARTH_PROVIDERS_APPLE_PRIVATE_KEY_FILE": garbled]), status: 2,
            containing: ["providers.apple.privateKeyFile: \(garbled) is not the .p8 key Apple gives"])
    }

    @Test("development mode's own key file, garbled, is named with the setting that replaces it")
    func developmentKeyFile() async throws {
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = directory.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        _ = try Self.write("garbled", data, "secrets.key")
        Self.expectOneLine(
            try await Self.serve(directory, [:]), status: 2,
            containing: ["secrets.keyFile: development mode's key file", "expected 32 bytes in base64"])
    }

    @Test("a database sealed with another key: the stored secrets do not open, and the database is closed again")
    func wrongKeyEncryptionKey() async throws {
        let server = try await HearthProcess.start(environment: [:])
        let directory = server.dataDirectory
        defer { try? FileManager.default.removeItem(at: directory) }
        await server.kill()
        try Data(KeyEncryptionKey.generate().base64.utf8).write(to: directory.appendingPathComponent("secrets.key"))
        let result = try await HearthProcess.run(
            ["serve", "--port", "0", "--data-dir", directory.path], environment: ["HEARTH_PASSWORDS_SCRYPT_LOG_N": "4"])
        Self.expectOneLine(
            result, status: 1,
            containing: ["cannot open the stored secrets:", "configure the key it was sealed with (secrets.keyFile or HEARTH_SECRETS_KEY)"])
    }

    @Test("PostgreSQL that does not answer, and a PostgreSQL URL without a database")
    func postgresUnreachable() async throws {
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Port 1 on loopback: nothing listens there.
        Self.expectOneLine(
            try await Self.serve(directory, ["HEARTH_DATABASE_URL": "postgres://hearth:secret-password@127.0.0.1:1/hearth"]), status: 1,
            containing: ["cannot open the database at postgres://127.0.0.1:1/hearth", "check the database settings"])
        let unreachable = try await Self.serve(directory, ["HEARTH_DATABASE_URL": "postgres://hearth:secret-password@127.0.0.1:1/hearth"])
        #expect(!unreachable.standardError.contains("secret-password"))
        Self.expectOneLine(
            try await Self.serve(directory, ["HEARTH_DATABASE_URL": "postgres://127.0.0.1:5432"]), status: 2,
            containing: ["invalid configuration: database.url: expected postgres://user:password@host:port/database"])
    }

    @Test("a value of the wrong type, and a configuration file that is not YAML")
    func invalidValues() async throws {
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        Self.expectOneLine(
            try await Self.serve(directory, ["HEARTH_SERVER_MAX_BODY_BYTES": "lots"]), status: 2,
            containing: ["invalid configuration: server.maxBodyBytes: expected a whole number, got lots"])
        let file = try Self.write("server: [unclosed\n  port: 1\n", directory, "hearth.yaml")
        Self.expectOneLine(
            try await Self.serve(directory, [:], arguments: ["--config", file]), status: 2,
            containing: ["invalid configuration: --config: \(file) is not a valid YAML configuration"])
    }

    @Test("the other commands: a database that cannot be made, and one that cannot be reached")
    func otherCommands() async throws {
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A file where the data directory should be: no user, root included, can create a directory inside it.
        let blocker = directory.appendingPathComponent("not-a-directory")
        try Data("x".utf8).write(to: blocker)
        let data = blocker.appendingPathComponent("data").path
        Self.expectOneLine(
            try await HearthProcess.run(["migrate", "--apply", "--data-dir", data]), status: 1,
            containing: ["cannot open the database at \(data)/hearth.sqlite"])
        Self.expectOneLine(
            try await HearthProcess.run(["users", "unlock", "--email", "someone@example.com", "--data-dir", data]), status: 1,
            containing: ["cannot open the database at \(data)/hearth.sqlite"])
        Self.expectOneLine(
            try await HearthProcess.run(["migrate-data", "--from", "postgres://hearth@127.0.0.1:1/hearth", "--to", "\(directory.path)/copy.sqlite"]),
            status: 1, containing: ["cannot open the database", "connection refused"])
    }

    @Test("a command that needs the SQLite file a server holds says so and what to do, without a source path")
    func commandOnLockedDatabase() async throws {
        let server = try await HearthProcess.start(environment: [:])
        defer { server.stop() }
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let newKey = try Self.write(KeyEncryptionKey.generate().base64, directory, "new.key")
        let result = try await HearthProcess.run(["keys", "rewrap", "--new-key-file", newKey, "--data-dir", server.dataDirectory.path])
        Self.expectOneLine(result, status: 1, containing: ["another Hearth server is using the SQLite database"])
    }
}
