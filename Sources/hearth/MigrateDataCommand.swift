import ArgumentParser
import Foundation
import HearthCore
import HearthServer
import HearthStorage
import HearthStoragePostgres
import HearthStorageSQLite
import Logging

/// Copies a deployment from one database to another, e.g. from the embedded SQLite file to PostgreSQL.
struct MigrateDataCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate-data",
        abstract: "Copy users, provider links, sessions, signing keys and settings into another database.",
        discussion: """
            Stop the servers that write to the source first. The copy upserts by primary key, so running it \
            again duplicates nothing; afterwards the row counts of both sides are compared.
            """)

    @Option(help: "The source: a SQLite file path (or sqlite:PATH) or a postgres:// URL.") var from: String
    @Option(help: "The target: a SQLite file path (or sqlite:PATH) or a postgres:// URL.") var to: String
    @Option(help: "Rows per transaction.") var batchSize = 500

    func run() async throws {
        let logger = Logger(label: "hearth.migrate-data")
        let source = try await Self.open(from, logger: logger)
        let target: SQLStore
        do {
            target = try await Self.open(to, logger: logger)
        } catch {
            try? await source.close()
            throw error
        }
        do {
            let copied = try await source.copy(to: target, batchSize: batchSize) { table, done, total in
                let width = 30
                let filled = total == 0 ? width : min(width, done * width / max(total, 1))
                let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
                FileHandle.standardError.write(Data("\r\(table.padding(toLength: 18, withPad: " ", startingAt: 0)) [\(bar)] \(done)/\(total)".utf8))
                if done >= total { FileHandle.standardError.write(Data("\n".utf8)) }
            }
            let sourceCounts = try await source.counts()
            let targetCounts = try await target.counts()
            var mismatches: [String] = []
            print("table               copied   source   target")
            for table in TransferTable.copiedCountKeys {
                let line = "\(table.padding(toLength: 18, withPad: " ", startingAt: 0)) \(String(copied[table] ?? 0).leftPadded(7))  \(String(sourceCounts[table] ?? 0).leftPadded(7))  \(String(targetCounts[table] ?? 0).leftPadded(7))"
                print(line)
                if (targetCounts[table] ?? 0) < (sourceCounts[table] ?? 0) { mismatches.append(table) }
            }
            try await source.close()
            try await target.close()
            if !mismatches.isEmpty {
                FileHandle.standardError.write(Data("hearth: the target has fewer rows than the source in: \(mismatches.joined(separator: ", "))\n".utf8))
                throw ExitCode(1)
            }
            print("verified: every table of the source is in the target")
        } catch {
            try? await source.close()
            try? await target.close()
            throw error
        }
    }

    static func open(_ location: String, logger: Logger) async throws -> SQLStore {
        if location.hasPrefix("postgres://") || location.hasPrefix("postgresql://") {
            return try await PostgresStorage.open(url: location, logger: logger)
        }
        var path = Substring(location)
        if path.hasPrefix("sqlite:") { path = path.dropFirst("sqlite:".count) }
        if path.hasPrefix("//") { path = path.dropFirst(2) }
        return try await SQLiteStorage.open(path: String(path), logger: logger)
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
