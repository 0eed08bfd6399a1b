import Foundation
import HearthCore
import SQLKit

// MARK: - ConsoleImportJobStore

/// The console's import jobs are the server's, not a tenant's: a job names its tenant in `tenant_id`, and a tenant's view
/// of the store sees every job (one import runs at a time across the project and its tenants).
extension SQLStore {
    public func startConsoleImportJob(_ job: ConsoleImportJob, staleBefore: Date) async throws -> Bool {
        let values = try Self.importJobValues(job)
        return try await work.write { database in
            // Parallel starts, on this replica or another, wait here for each other: the first adds its job, the others
            // then find it running.
            try await SQLDialectQuirks.takeTransactionLock(.consoleImports, on: database)
            let running = try await Self.rows(
                database, "SELECT \(Self.importJobColumns) FROM console_import_jobs WHERE finished_at IS NULL"
            ).map(Self.importJob(from:))
            for abandoned in running where abandoned.heartbeatAt < staleBefore {
                try await Self.exec(
                    database,
                    """
                    UPDATE console_import_jobs SET finished_at = heartbeat_at,
                        stopped = \(bind: ConsoleImportJob.abandoned(processed: abandoned.processed, total: abandoned.total))
                    WHERE job_id = \(bind: abandoned.id)
                    """)
            }
            guard running.allSatisfy({ $0.heartbeatAt < staleBefore }) else { return false }
            try await Self.exec(database, "INSERT INTO console_import_jobs (\(Self.importJobColumns)) VALUES (\(binds: values))")
            try await Self.exec(
                database,
                """
                DELETE FROM console_import_jobs WHERE finished_at IS NOT NULL AND job_id NOT IN (
                    SELECT job_id FROM console_import_jobs ORDER BY started_at DESC, job_id DESC LIMIT \(literal: ConsoleImportJob.kept))
                """)
            return true
        }
    }

    public func consoleImportJob(id: String) async throws -> ConsoleImportJob? {
        guard UserText.isStorable(id), id.utf8.count <= 128 else { return nil }
        return try await work.readSingleStatement { database in
            try await Self.rows(database, "SELECT \(Self.importJobColumns) FROM console_import_jobs WHERE job_id = \(bind: id)")
                .first.map(Self.importJob(from:))
        }
    }

    public func recordConsoleImportProgress(_ job: ConsoleImportJob, skippedChanged: Bool) async throws -> Bool {
        guard UserText.isStorable(job.id) else { return false }
        let skipped: SQLQueryString = skippedChanged ? ", skipped = \(bind: try Self.skippedText(job.skipped))" : ""
        let stopped = job.stopped.map { $0.replacingOccurrences(of: "\u{0}", with: "") }
        return try await work.writeSingleStatement { database in
            try await Self.exists(
                database,
                """
                UPDATE console_import_jobs SET processed = \(bind: Int64(job.processed)), imported = \(bind: Int64(job.imported)),
                    skipped_count = \(bind: Int64(job.skippedCount))\(skipped), finished_at = \(bind: StoredTime.milliseconds(job.finishedAt)),
                    stopped = \(bind: stopped), heartbeat_at = \(bind: StoredTime.milliseconds(job.heartbeatAt))
                WHERE job_id = \(bind: job.id) AND finished_at IS NULL
                RETURNING job_id
                """)
        }
    }
}

// MARK: - Rows

extension SQLStore {
    static let importJobColumns = SQLQueryString(
        [
            "job_id", "tenant_id", "actor_id", "file_name", "format", "started_at", "total", "processed", "imported", "skipped_count", "skipped",
            "finished_at", "stopped", "heartbeat_at",
        ].joined(separator: ", "))

    static func importJobValues(_ job: ConsoleImportJob) throws -> [any Encodable & Sendable] {
        for text in [job.id, job.actorID, job.fileName, job.format, job.tenantID ?? ""] + [job.stopped].compactMap({ $0 })
        where !UserText.isStorable(text) {
            throw HearthError(.invalidArgument, detail: "Text values must not contain NUL characters.", reason: "NUL in an import job")
        }
        return [
            job.id, job.tenantID ?? "", job.actorID, job.fileName, job.format, StoredTime.milliseconds(job.startedAt), Int64(job.total),
            Int64(job.processed), Int64(job.imported), Int64(job.skippedCount), try skippedText(job.skipped),
            StoredTime.milliseconds(job.finishedAt), job.stopped, StoredTime.milliseconds(job.heartbeatAt),
        ]
    }

    /// The skipped users as JSON text: a NUL in a uid or reason is written as `\u0000`, which both databases keep.
    static func skippedText(_ skipped: [ConsoleImportJob.Skipped]) throws -> String {
        String(decoding: try JSONEncoder().encode(skipped), as: UTF8.self)
    }

    static func importJob(from row: any SQLRow) throws -> ConsoleImportJob {
        guard let skipped = try? JSONDecoder().decode([ConsoleImportJob.Skipped].self, from: Data(try row.text("skipped").utf8)) else {
            throw SQLStoreError.undecodableColumn("skipped")
        }
        let tenantID = try row.text("tenant_id")
        var job = ConsoleImportJob(
            id: try row.text("job_id"), tenantID: tenantID.isEmpty ? nil : tenantID, actorID: try row.text("actor_id"),
            fileName: try row.text("file_name"), format: try row.text("format"), startedAt: try row.date("started_at"),
            total: Int(try row.int64("total")), heartbeatAt: try row.date("heartbeat_at"))
        job.processed = Int(try row.int64("processed"))
        job.imported = Int(try row.int64("imported"))
        job.skippedCount = Int(try row.int64("skipped_count"))
        job.skipped = skipped
        job.finishedAt = try row.optionalDate("finished_at")
        job.stopped = try row.optionalText("stopped")
        return job
    }
}
