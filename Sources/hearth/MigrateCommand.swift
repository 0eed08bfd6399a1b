import ArgumentParser
import Foundation
import HearthComposition
import HearthConfiguration
import HearthServer
import HearthStorage
import HearthStorageSQLite
import Logging

struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Show the database migrations that are pending (writing nothing); apply them with --apply.")

    @OptionGroup var options: CommonOptions
    @Flag(help: "Apply the pending migrations.") var apply = false

    func run() async throws {
        // A database this makes is for its owner only (the storage layer also makes the file 0600).
        umask(0o077)
        let configuration = try await options.configurationOrExit()
        let logger = Logger(label: "hearth.migrate")
        // Without --apply nothing is written: a SQLite file that does not exist yet (or is empty) is not
        // opened, which would create it, and on an existing database only reads run.
        if !apply, !configuration.usesPostgres, Self.isMissingOrEmpty(configuration.resolvedSQLitePath) {
            print("\(configuration.resolvedSQLitePath): no database yet (serve or migrate --apply creates it)")
            print("pending (run with --apply):\n" + SQLStore.knownMigrations.map { "  \($0)" }.joined(separator: "\n"))
            return
        }
        let store = try await StartupFailure.opening(configuration) {
            try await HearthServices.openStore(configuration: configuration, logger: logger, migrate: false)
        }
        let pending: [String]
        do {
            pending = try await store.pendingMigrations()
        } catch {
            try? await store.close()
            FileHandle.standardError.write(Data("hearth: \(StartupFailure.message(error, configuration: configuration))\n".utf8))
            throw ExitCode(1)
        }
        if pending.isEmpty {
            print("\(configuration.storageDescription): up to date")
        } else if apply {
            do {
                try await store.migrate()
            } catch {
                // Closed on every way out: an open SQLite connection asserts in a debug build.
                try? await store.close()
                FileHandle.standardError.write(Data("hearth: \(StartupFailure.message(error, configuration: configuration))\n".utf8))
                throw ExitCode(1)
            }
            print("applied \(pending.count) migration(s):\n" + pending.map { "  \($0)" }.joined(separator: "\n"))
        } else {
            print("pending (run with --apply):\n" + pending.map { "  \($0)" }.joined(separator: "\n"))
        }
        try await store.close()
    }

    private static func isMissingOrEmpty(_ path: String) -> Bool {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return true }
        return (attributes[.size] as? NSNumber)?.intValue == 0
    }
}
