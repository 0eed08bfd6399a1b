import ArgumentParser
import Foundation
import HearthConfiguration
import HearthServer
import HearthStorageSQLite
import Logging

struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Write a consistent copy of the SQLite database to FILE, also while the server runs.",
        discussion: """
            The copy (mode 0600) is a snapshot of the committed data, checked and written under a temporary name, \
            then moved into place. It holds the stored secrets sealed: keep the key file (secrets.keyFile) \
            to restore it. PostgreSQL databases are backed up with pg_dump.
            """)

    @OptionGroup var options: CommonOptions
    @Argument(help: "Where to write the copy.") var file: String
    @Flag(help: "Replace FILE if it exists.") var force = false

    func run() async throws {
        umask(0o077)
        let configuration = try await options.configurationOrExit()
        if configuration.usesPostgres {
            FileHandle.standardError.write(
                Data(
                    ("hearth: backup copies a SQLite database, and this configuration uses PostgreSQL (database.url); "
                        + "back it up with pg_dump (or pg_basebackup and WAL archiving)\n").utf8))
            throw ExitCode(1)
        }
        let source = configuration.resolvedSQLitePath
        let bytes: Int
        do {
            bytes = try await SQLiteBackup.copy(databaseAt: source, to: file, replacing: force, logger: Logger(label: "hearth.backup"))
        } catch let error as SQLiteBackupError {
            FileHandle.standardError.write(Data("hearth: nothing written: \(error)\n".utf8))
            throw ExitCode(1)
        } catch {
            FileHandle.standardError.write(Data("hearth: nothing written: \(StartupFailure.message(error, configuration: configuration))\n".utf8))
            throw ExitCode(1)
        }
        print("backed up \(source) to \(file) (\(bytes) bytes)")
    }
}
