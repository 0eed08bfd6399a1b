import ArgumentParser
import Foundation
import HearthPostgresLauncher
import HearthStorage
import HearthStoragePostgres
import HearthStorageSQLite
import Logging

/// Which database the servers under test use.
enum DatabaseMode: String, CaseIterable, ExpressibleByArgument, Sendable {
    case sqlite
    case postgres
}

/// Hands out one fresh, empty database per benchmark phase: a new SQLite file in a temporary
/// directory, a new database on the throwaway PostgreSQL cluster the benchmark started, or the
/// database of `--postgres-url` (shared by every phase; it is never emptied).
final class BenchmarkDatabase {
    let mode: DatabaseMode
    private let cluster: PostgresCluster?
    private let externalURL: String?
    private var directories: [URL] = []

    private init(mode: DatabaseMode, cluster: PostgresCluster?, externalURL: String?) {
        self.mode = mode
        self.cluster = cluster
        self.externalURL = externalURL
    }

    /// The throwaway cluster's settings: `fsync` on, `synchronous_commit=off` (a commit does not wait for
    /// its WAL flush: the same durability as the SQLite default, `synchronous=NORMAL` in WAL mode, where a
    /// commit is not synced either; an OS crash may lose the last commits, never corrupts),
    /// `max_connections=200`, `shared_buffers=256MB`, and `autovacuum_naptime=1` (seconds, the default is 60): each phase's
    /// database is new and empty, and a plan made before its first `ANALYZE` is kept by every pooled connection until
    /// one runs (the foreign-key check of a session's user, planned on an empty `users`, scans every user; a live
    /// database has been analysed), so the phases measure an analysed database from their first second. The
    /// superuser is trusted on loopback, so no SCRAM handshake costs CPU when the replicas' pools connect.
    static let settings = [
        "synchronous_commit": "off", "max_connections": "200", "shared_buffers": "256MB", "autovacuum_naptime": "1",
    ]

    /// Starts a PostgreSQL cluster when `mode` is `.postgres` and no URL is given.
    static func start(mode: DatabaseMode, postgresURL: String?) async throws -> BenchmarkDatabase {
        switch mode {
        case .sqlite:
            return BenchmarkDatabase(mode: mode, cluster: nil, externalURL: nil)
        case .postgres:
            if let postgresURL { return BenchmarkDatabase(mode: mode, cluster: nil, externalURL: postgresURL) }
            return BenchmarkDatabase(mode: mode, cluster: try PostgresCluster.start(settings: settings), externalURL: nil)
        }
    }

    /// One line for the report.
    var summary: String {
        switch mode {
        case .sqlite:
            return "SQLite (embedded, WAL, a fresh file per phase)"
        case .postgres:
            if let cluster {
                return
                    "PostgreSQL (throwaway cluster of \(cluster.binDirectory) on 127.0.0.1:\(cluster.port), synchronous_commit=off, autovacuum_naptime=1, a fresh database per phase; its CPU is the \"db\" column)"
            }
            return "PostgreSQL at --postgres-url (shared by every phase; its CPU counts as \"other\" unless local)"
        }
    }

    /// Directories and clusters to remove when the benchmark is interrupted.
    var cleanupPaths: [String] { directories.map(\.path) + (cluster.map { [$0.directory.path] } ?? []) }
    /// The postmaster, whose process tree's CPU is reported as "db" (`nil` for SQLite or an external server).
    var clusterPID: Int32? { cluster?.postmasterPID }

    /// A new empty database: its `database.url` for the servers (`HEARTH_DATABASE_URL`).
    func makeDatabase() async throws -> String {
        if let externalURL { return externalURL }
        if let cluster { return cluster.url(database: try await cluster.createDatabase(prefix: "bench")) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-benchmark-db-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        directories.append(directory)
        return "sqlite:" + directory.appendingPathComponent("hearth.sqlite").path
    }

    /// Opens the database at `url` (migrated) for bulk loading; close it before the servers start.
    func openStore(_ url: String) async throws -> SQLStore {
        var logger = Logger(label: "hearth-benchmark")
        logger.logLevel = .warning
        if url.hasPrefix("sqlite:") {
            return try await SQLiteStorage.open(path: String(url.dropFirst("sqlite:".count)), logger: logger)
        }
        return try await PostgresStorage.open(url: url, logger: logger)
    }

    /// Deletes the SQLite files and stops the cluster.
    func stop() {
        for directory in directories { try? FileManager.default.removeItem(at: directory) }
        directories.removeAll()
        cluster?.shutdown()
    }
}
