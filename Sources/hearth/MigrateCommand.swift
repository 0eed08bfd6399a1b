import ArgumentParser
import Foundation
import HearthServer
import HearthStorage
import HearthStorageSQLite
import Logging

struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Show the database migrations that are pending; apply them with --apply.")

    @OptionGroup var options: CommonOptions
    @Flag(help: "Apply the pending migrations.") var apply = false

    func run() async throws {
        let configuration: ServerConfiguration
        do {
            configuration = try await options.loadConfiguration()
        } catch let error as ConfigurationError {
            FileHandle.standardError.write(Data("hearth: \(error)\n".utf8))
            throw ExitCode(2)
        }
        let logger = Logger(label: "hearth.migrate")
        let store = try await HearthServices.openStore(configuration: configuration, logger: logger, migrate: false)
        let pending: [String]
        do {
            pending = try await store.pendingMigrations()
        } catch {
            try? await store.close()
            FileHandle.standardError.write(Data("hearth: \(error)\n".utf8))
            throw ExitCode(1)
        }
        if pending.isEmpty {
            print("\(configuration.storageDescription): up to date")
        } else if apply {
            try await store.migrate()
            print("applied \(pending.count) migration(s):\n" + pending.map { "  \($0)" }.joined(separator: "\n"))
        } else {
            print("pending (run with --apply):\n" + pending.map { "  \($0)" }.joined(separator: "\n"))
        }
        try await store.close()
    }
}
