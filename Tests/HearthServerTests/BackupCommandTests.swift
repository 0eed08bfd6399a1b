import AsyncHTTPClient
import Foundation
import HearthCore
import HearthStorage
import HearthStorageSQLite
import HearthTesting
import Logging
import NIOCore
import NIOFoundationCompat
import Testing

/// Quiet: the temporary directories' modes are not what these tests are about.
private let backupLogger: Logger = {
    var logger = Logger(label: "hearth.tests.backup")
    logger.logLevel = .error
    return logger
}()

/// `hearth backup FILE`, the real binary, against a real server on a real SQLite file.
@Suite("hearth backup", .serialized)
struct BackupCommandTests {
    static let client = HTTPClient(eventLoopGroupProvider: .singleton)

    /// POSTs `body` to `path` and returns the status and the JSON object that came back.
    static func post(_ base: String, _ path: String, _ body: [String: JSONValue]) async throws -> (Int, [String: JSONValue]) {
        var request = HTTPClientRequest(url: base + path + "?key=backup-test")
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: JSONValue.object(body).jsonText))
        let response = try await client.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        guard case .object(let object)? = try? JSONDecoder().decode(JSONValue.self, from: Data(buffer: bytes)) else {
            return (Int(response.status.code), [:])
        }
        return (Int(response.status.code), object)
    }

    static func string(_ json: [String: JSONValue], _ key: String) -> String? {
        if case .string(let value)? = json[key] { return value }
        return nil
    }

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-backup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test("a backup taken while the server writes: a new server on the copy signs the user in with the same uid")
    func backupWhileServing() async throws {
        let secretsKey = KeyEncryptionKey.generate().base64
        let original = try await HearthProcess.start(environment: ["HEARTH_SECRETS_KEY": secretsKey])
        defer { original.stop() }
        let backups = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: backups) }

        let credentials: [String: JSONValue] = [
            "email": .string("ada@example.com"), "password": .string("correct horse battery"), "returnSecureToken": .bool(true),
        ]
        let (signUpStatus, signedUp) = try await Self.post(original.baseURL, "/v1/accounts:signUp", credentials)
        #expect(signUpStatus == 200, "\(signedUp)")
        let uid = try #require(Self.string(signedUp, "localId"))

        // Sign-ups go on while the copy is taken: the copy holds a whole number of them, each with its session.
        let copy = backups.appendingPathComponent("hearth-copy.sqlite")
        let writing = LockedBox(true)
        let writers = Task {
            var made = 0
            while writing.withLock({ $0 }) {
                let (status, _) = try await Self.post(original.baseURL, "/v1/accounts:signUp", ["returnSecureToken": .bool(true)])
                if status == 200 { made += 1 }
            }
            return made
        }
        // A few writes before and after the copy, so that it is taken in the middle of them.
        while try await Self.countUsers(original) < 5 { try await Task.sleep(for: .milliseconds(20)) }
        let result = try await HearthProcess.run(["backup", "--data-dir", original.dataDirectory.path, copy.path])
        writing.withLock { $0 = false }
        let made = try await writers.value
        #expect(result.status == 0, "\(result.standardError)")
        let database = original.dataDirectory.appendingPathComponent("hearth.sqlite").path
        #expect(result.standardOutput.hasPrefix("backed up \(database) to \(copy.path) ("), "\(result.standardOutput)")
        #expect(PrivateFiles.mode(ofPath: copy.path) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: backups.path) == ["hearth-copy.sqlite"], "a temporary file was left")
        #expect(original.isRunning)
        #expect(made > 0)

        // The copy is whole: it passes SQLite's checks, its schema is current, every session has its user.
        let store = try await SQLiteStorage.open(path: copy.path, logger: backupLogger, migrate: false)
        do {
            #expect(try await store.pendingMigrations() == [])
            let (integrity, orphans) = try await store.transactor.read { database in
                let integrity = try await database.raw("PRAGMA integrity_check").first()?.decode(column: "integrity_check", as: String.self)
                let orphans = try await database.raw("PRAGMA foreign_key_check").all().count
                return (integrity, orphans)
            }
            #expect(integrity == "ok")
            #expect(orphans == 0)
            let counts = try await store.counts()
            #expect((counts["users"] ?? 0) >= 5)
            #expect(counts["refresh_sessions"] == counts["users"], "\(counts)")
        } catch {
            try? await store.close()
            throw error
        }
        try await store.close()

        // A server on the copy (with the same key-encryption key) knows the user and her password.
        let restored = try await HearthProcess.start(environment: ["HEARTH_SECRETS_KEY": secretsKey, "HEARTH_STORAGE_SQLITE_PATH": copy.path])
        defer { restored.stop() }
        let (signInStatus, signedIn) = try await Self.post(restored.baseURL, "/v1/accounts:signInWithPassword", credentials)
        #expect(signInStatus == 200, "\(signedIn)")
        #expect(Self.string(signedIn, "localId") == uid)
    }

    /// How many users `server` has, read from its database (a reader next to the server's connections).
    static func countUsers(_ server: HearthProcess) async throws -> Int {
        let store = try await SQLiteStorage.open(
            path: server.dataDirectory.appendingPathComponent("hearth.sqlite").path, logger: backupLogger, migrate: false)
        do {
            let count = try await store.counts()["users"] ?? 0
            try await store.close()
            return count
        } catch {
            try? await store.close()
            throw error
        }
    }

    @Test("an existing file is replaced only with --force; the database itself, a missing directory or database are refused")
    func refusals() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = directory.appendingPathComponent("data")
        let applied = try await HearthProcess.run(["migrate", "--apply", "--data-dir", data.path])
        #expect(applied.status == 0, "\(applied.standardError)")
        let database = data.appendingPathComponent("hearth.sqlite").path

        let existing = directory.appendingPathComponent("existing.sqlite")
        try Data("keep me".utf8).write(to: existing)
        let refused = try await HearthProcess.run(["backup", "--data-dir", data.path, existing.path])
        #expect(refused.status == 1)
        #expect(refused.standardError == "hearth: nothing written: \(existing.path) exists; choose a new file, or replace it with --force\n")
        #expect(try Data(contentsOf: existing) == Data("keep me".utf8))

        let forced = try await HearthProcess.run(["backup", "--data-dir", data.path, "--force", existing.path])
        #expect(forced.status == 0, "\(forced.standardError)")
        #expect(try Data(contentsOf: existing).prefix(16) == Data("SQLite format 3\0".utf8))
        #expect(PrivateFiles.mode(ofPath: existing.path) == 0o600)

        let itself = try await HearthProcess.run(["backup", "--data-dir", data.path, "--force", database])
        #expect(itself.status == 1)
        #expect(itself.standardError == "hearth: nothing written: \(database) is the database itself; write the copy somewhere else\n")

        let nowhere = directory.appendingPathComponent("missing/copy.sqlite")
        let noDirectory = try await HearthProcess.run(["backup", "--data-dir", data.path, nowhere.path])
        #expect(noDirectory.status == 1)
        #expect(noDirectory.standardError == "hearth: nothing written: the directory \(directory.path)/missing does not exist\n")

        let empty = directory.appendingPathComponent("empty")
        let noDatabase = try await HearthProcess.run(
            ["backup", "--data-dir", empty.path, directory.appendingPathComponent("new.sqlite").path])
        #expect(noDatabase.status == 1)
        #expect(noDatabase.standardError == "hearth: nothing written: no database at \(empty.path)/hearth.sqlite\n")
        #expect(!FileManager.default.fileExists(atPath: empty.path), "the missing database was created")

        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(left == ["data", "existing.sqlite"], "a temporary file was left")
    }

    @Test("hearth backup --help and hearth help backup describe it")
    func help() async throws {
        for arguments in [["backup", "--help"], ["help", "backup"]] {
            let result = try await HearthProcess.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.standardError)")
            #expect(result.standardOutput.contains("Write a consistent copy of the SQLite database to FILE"), "\(result.standardOutput)")
            #expect(result.standardOutput.contains("--force"))
        }
    }

    @Test("a PostgreSQL configuration is pointed to pg_dump, without printing the URL")
    func postgresIsRefused() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = "postgres://hearth:s3cret-password@127.0.0.1:1/hearth"
        let result = try await HearthProcess.run(
            ["backup", directory.appendingPathComponent("copy.sqlite").path], environment: ["HEARTH_DATABASE_URL": url])
        #expect(result.status == 1)
        #expect(
            result.standardError
                == "hearth: backup copies a SQLite database, and this configuration uses PostgreSQL (database.url); back it up with pg_dump (or pg_basebackup and WAL archiving)\n"
        )
        #expect(!result.standardOutput.contains("s3cret") && !result.standardError.contains("s3cret"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
}
