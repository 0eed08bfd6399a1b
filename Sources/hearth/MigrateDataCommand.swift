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
            again duplicates nothing; afterwards the row counts of both sides are compared: equal for a target \
            that was empty, and for one that already had rows, at least the source's and no more than its own \
            plus the source's.
            """)

    @Option(help: "The source: a SQLite file path (or sqlite:PATH) or a postgres:// URL.") var from: String
    @Option(help: "The target: a SQLite file path (or sqlite:PATH) or a postgres:// URL.") var to: String
    @Option(help: "Rows per transaction.") var batchSize = 500

    func run() async throws {
        // A database this makes is for its owner only (the storage layer also makes the file 0600).
        umask(0o077)
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
            let before = try await target.counts()
            let copied = try await source.copy(to: target, batchSize: batchSize) { table, done, total in
                let width = 30
                let filled = total == 0 ? width : min(width, done * width / max(total, 1))
                let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
                FileHandle.standardError.write(Data("\r\(table.padding(toLength: 18, withPad: " ", startingAt: 0)) [\(bar)] \(done)/\(total)".utf8))
                if done >= total { FileHandle.standardError.write(Data("\n".utf8)) }
            }
            let sourceCounts = try await source.counts()
            let targetCounts = try await target.counts()
            // A target that was empty must now hold exactly the source's rows. One that already had rows
            // (an earlier run, or data of its own) keeps them: the copy upserts by primary key, so it holds
            // at least the source's rows and at most those plus what it had.
            var problems: [String] = []
            var hadRows: [String] = []
            print("table               before   copied   source   target")
            for table in TransferTable.copiedCountKeys {
                let (earlier, source, now) = (before[table] ?? 0, sourceCounts[table] ?? 0, targetCounts[table] ?? 0)
                print(
                    table.padding(toLength: 18, withPad: " ", startingAt: 0) + " "
                        + [earlier, copied[table] ?? 0, source, now].map { String($0).leftPadded(7) }.joined(separator: "  "))
                if earlier == 0 {
                    if now != source { problems.append("\(table): \(now) rows in the target, \(source) in the source") }
                } else {
                    hadRows.append(table)
                    if now < source { problems.append("\(table): \(now) rows in the target, fewer than the \(source) of the source") }
                    if now > earlier + source {
                        problems.append("\(table): \(now) rows in the target, more than its \(earlier) before plus the \(source) copied")
                    }
                }
            }
            try await source.close()
            try await target.close()
            if !problems.isEmpty {
                FileHandle.standardError.write(Data("hearth: the counts do not match:\n\(problems.map { "  \($0)" }.joined(separator: "\n"))\n".utf8))
                throw ExitCode(1)
            }
            if hadRows.isEmpty {
                print("verified: the target holds exactly the source's rows")
            } else {
                print(
                    """
                    verified: the target holds every row of the source. It already had rows in \(hadRows.joined(separator: ", ")) \
                    before this copy (an earlier run, or data of its own): rows with the source's keys were \
                    overwritten, the others kept, so its counts may exceed the source's.
                    """)
            }
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
