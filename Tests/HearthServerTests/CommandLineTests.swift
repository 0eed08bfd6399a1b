import Foundation
import HearthCore
import HearthStoragePostgres
import HearthStorageSQLite
import HearthTesting
import Logging
import Testing

@testable import HearthStorage

private let t0 = Date(timeIntervalSince1970: 1_800_000_000)
private let commandLogger = Logger(label: "hearth.tests.command-line")

/// The `hearth` executable `swift test` built, run as an operator would: `migrate` and `migrate-data`.
@Suite("hearth migrate and migrate-data, the real binary")
struct CommandLineTests {
    /// The pending list `hearth migrate` prints for a database without any migration.
    static let allPending = "pending (run with --apply):\n" + SQLStore.knownMigrations.map { "  \($0)" }.joined(separator: "\n") + "\n"

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Every file in `directory` with its bytes.
    static func snapshot(_ directory: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            files[name] = try Data(contentsOf: directory.appendingPathComponent(name))
        }
        return files
    }

    @Test("migrate without --apply reports every migration on a fresh SQLite file and writes nothing")
    func migrateReportsOnly() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        // No file yet: none is made (nor its directory).
        let missing = directory.appendingPathComponent("not-yet")
        let first = try await HearthProcess.run(["migrate", "--data-dir", missing.path])
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput == "\(missing.path)/hearth.sqlite: no database yet (serve or migrate --apply creates it)\n" + Self.allPending)
        #expect(!FileManager.default.fileExists(atPath: missing.path))

        // An empty file: it stays empty, no journal files appear.
        let file = directory.appendingPathComponent("hearth.sqlite")
        FileManager.default.createFile(atPath: file.path, contents: Data())
        let second = try await HearthProcess.run(["migrate", "--data-dir", directory.path])
        #expect(second.status == 0, "\(second.standardError)")
        #expect(second.standardOutput.hasSuffix(Self.allPending), "\(second.standardOutput)")
        #expect(try Self.snapshot(directory) == ["hearth.sqlite": Data()])
    }

    @Test("migrate --apply applies them; migrate then reports none and leaves the file as it was")
    func migrateApply() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        let applied = try await HearthProcess.run(["migrate", "--data-dir", directory.path, "--apply"])
        #expect(applied.status == 0, "\(applied.standardError)")
        #expect(
            applied.standardOutput
                == "applied \(SQLStore.knownMigrations.count) migration(s):\n" + SQLStore.knownMigrations.map { "  \($0)" }.joined(separator: "\n")
                + "\n")
        let before = try Self.snapshot(directory)
        #expect(before.keys.contains("hearth.sqlite"))

        let report = try await HearthProcess.run(["migrate", "--data-dir", directory.path])
        #expect(report.status == 0, "\(report.standardError)")
        #expect(report.standardOutput == "\(directory.path)/hearth.sqlite: up to date\n")
        #expect(try Self.snapshot(directory) == before, "migrate without --apply changed the database")

        let store = try await SQLiteStorage.open(path: directory.appendingPathComponent("hearth.sqlite").path, logger: commandLogger, migrate: false)
        let pending = try await store.pendingMigrations()
        try await store.close()
        #expect(pending == [])
    }

    @Test("migrate on PostgreSQL reports without writing; --apply applies")
    func migrateOnPostgres() async throws {
        let url = try await PostgresTestCluster.shared().createDatabase()
        let report = try await HearthProcess.run(["migrate"], environment: ["HEARTH_DATABASE_URL": url])
        #expect(report.status == 0, "\(report.standardError)")
        #expect(report.standardOutput == Self.allPending)
        let store = try await PostgresStorage.open(url: url, logger: commandLogger, migrate: false)
        do {
            let tables = try await store.transactor.read { database in
                try await database.raw("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()").all()
            }
            #expect(tables.isEmpty, "migrate without --apply made \(tables.count) table(s)")

            let applied = try await HearthProcess.run(["migrate", "--apply"], environment: ["HEARTH_DATABASE_URL": url])
            #expect(applied.status == 0, "\(applied.standardError)")
            #expect(applied.standardOutput.hasPrefix("applied \(SQLStore.knownMigrations.count) migration(s):"))
            #expect(try await store.pendingMigrations() == [])
        } catch {
            try? await store.close()
            throw error
        }
        try await store.close()
    }

    @Test("migrate-data from SQLite to PostgreSQL, twice: users, links, sessions, keys and settings, equal counts, no duplicates")
    func migrateDataTwice() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let sqlitePath = directory.appendingPathComponent("hearth.sqlite").path
        let source = try await SQLiteStorage.open(path: sqlitePath, logger: commandLogger)
        var users: [UserRecord] = []
        do {
            for index in 0..<12 {
                let uid = "user-\(index)"
                var providers = [ProviderLink(providerID: "google.com", rawID: "g-\(index)", email: "\(uid)@example.com")]
                if index.isMultiple(of: 3) {
                    providers.append(ProviderLink(providerID: "apple.com", rawID: "apple-\(index)", email: "a\(index)@privaterelay.appleid.com"))
                }
                let user = UserRecord(
                    uid: uid, email: "\(uid)@example.com", emailVerified: index.isMultiple(of: 2), passwordHash: "scrypt$\(index)",
                    createdAt: t0, lastLoginAt: t0.addingTimeInterval(Double(index)), validSince: t0, providers: providers)
                try await source.createUser(
                    user, session: RefreshSessionRecord(tokenHash: "hash-\(index)", uid: uid, signInProvider: "password", authTime: t0, createdAt: t0)
                )
                users.append(try #require(try await source.user(uid: uid)))
            }
            for kid in ["k1", "k2"] {
                try await source.insertSigningKey(
                    SigningKeyRecord(
                        kid: kid, algorithm: "RS256", privateKeyPEM: "-----BEGIN PRIVATE KEY-----\n\(kid)\n",
                        certificatePEM: "-----BEGIN CERTIFICATE-----\n\(kid)\n", createdAt: t0, activatesAt: t0,
                        retiresAt: t0.addingTimeInterval(86_400), expiresAt: t0.addingTimeInterval(2 * 86_400)))
            }
            try await source.setSetting("cleanup.enabledAt", to: "1")
        } catch {
            try? await source.close()
            throw error
        }
        let sourceCounts = try await source.counts()
        try await source.close()
        #expect(sourceCounts["users"] == 12)
        #expect(sourceCounts["provider_links"] == 16)
        #expect(sourceCounts["refresh_sessions"] == 12)
        #expect(sourceCounts["signing_keys"] == 2)

        let url = try await PostgresTestCluster.shared().createDatabase()
        for run in 1...2 {
            let result = try await HearthProcess.run(["migrate-data", "--from", sqlitePath, "--to", url, "--batch-size", "5"])
            #expect(result.status == 0, "run \(run): \(result.standardError)")
            #expect(!result.standardOutput.contains(url) && !result.standardError.contains(url), "the URL (with its password) was printed")
            if run == 1 {
                #expect(result.standardOutput.hasSuffix("verified: the target holds exactly the source's rows\n"), "\(result.standardOutput)")
            } else {
                #expect(result.standardOutput.contains("verified: the target holds every row of the source. It already had rows in users,"))
            }
            #expect(result.standardError.contains("users"), "a progress bar on stderr")

            let target = try await PostgresStorage.open(url: url, logger: commandLogger, migrate: false)
            do {
                let targetCounts = try await target.counts()
                for table in TransferTable.copiedCountKeys {
                    #expect(
                        targetCounts[table] == sourceCounts[table],
                        "run \(run), \(table): \(targetCounts[table] ?? 0) in the target, \(sourceCounts[table] ?? 0) in the source")
                }
                for user in users {
                    let copied = try await target.user(uid: user.uid)
                    #expect(copied == user, "run \(run): \(String(describing: copied)) is not \(user)")
                }
                #expect(try await target.signingKeys().map(\.kid).sorted() == ["k1", "k2"])
                #expect(try await target.session(tokenHash: "hash-3")?.uid == "user-3")
            } catch {
                try? await target.close()
                throw error
            }
            try await target.close()
        }
    }
}
