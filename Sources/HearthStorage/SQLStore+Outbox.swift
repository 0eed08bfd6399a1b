import Foundation
import HearthCore
import SQLKit

/// A table of outgoing messages (`mail_queue`, `sms_queue`): rows with `id`, `created_at`, `attempts`,
/// `next_attempt_at`, `sent_at`, `failed_at` and `last_error`, and secret columns that are dropped once a message is
/// sent or given up. The queue's SQL is written once, here, for every such table.
struct OutboxTable: Sendable {
    let name: String
    /// Every column, in the order the table's value list binds them.
    let columns: SQLQueryString
    /// The columns holding the message's secret text, set to NULL when it is finished.
    let secretColumns: [String]

    static let mails = OutboxTable(name: "mail_queue", columns: SQLStore.mailColumns, secretColumns: ["text_body", "html_body"])
    static let sms = OutboxTable(name: "sms_queue", columns: SQLStore.smsColumns, secretColumns: ["body"])

    /// `text_body = NULL, html_body = NULL`.
    var droppingSecrets: SQLQueryString {
        secretColumns.enumerated().reduce(into: SQLQueryString("")) { query, column in
            query.appendInterpolation(unsafeRaw: column.offset == 0 ? "" : ", ")
            query.appendInterpolation(ident: column.element)
            query.appendInterpolation(unsafeRaw: " = NULL")
        }
    }
}

extension SQLStore {
    /// One write transaction: the due messages' ids, oldest first, then one `UPDATE … RETURNING` that claims them.
    /// On PostgreSQL the ids are read `FOR UPDATE SKIP LOCKED` (``SQLDialectQuirks/claimForUpdate(on:)``): a
    /// concurrent claimer skips the rows this one locked, and a row it claimed and committed meanwhile no longer
    /// matches when re-checked. On SQLite the single writer runs claims one after the other. The rows come back in
    /// the order of their ids' claim, read by `read`.
    func claimDue<Message: Sendable>(
        _ table: OutboxTable, now: Date, claimUntil: Date, limit: Int, read: @escaping @Sendable (any SQLRow) throws -> (String, Message)
    ) async throws -> [Message] {
        guard limit > 0 else { return [] }
        let nowMilliseconds = StoredTime.milliseconds(now)
        let untilMilliseconds = StoredTime.milliseconds(claimUntil)
        return try await work.write { database in
            let due = try await Self.rows(
                database,
                """
                SELECT id FROM \(ident: table.name)
                WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= \(bind: nowMilliseconds)
                ORDER BY next_attempt_at, id LIMIT \(bind: Int64(limit))
                \(SQLDialectQuirks.claimForUpdate(on: database))
                """
            ).map { try $0.text("id") }
            guard !due.isEmpty else { return [Message]() }
            let rows = try await Self.rows(
                database,
                """
                UPDATE \(ident: table.name) SET next_attempt_at = \(bind: untilMilliseconds), attempts = attempts + 1
                WHERE id IN (\(binds: due)) RETURNING \(table.columns)
                """)
            var byID: [String: Message] = [:]
            for row in rows {
                let (id, message) = try read(row)
                byID[id] = message
            }
            return due.compactMap { byID[$0] }
        }
    }

    /// Records delivery, sets `extra` (text column, value) and drops the secret columns. Does nothing when there is no
    /// such message.
    func markSent(_ table: OutboxTable, id: String, at date: Date, extra: [(String, String?)] = []) async throws {
        var sets: SQLQueryString = "sent_at = \(bind: StoredTime.milliseconds(date)), \(table.droppingSecrets)"
        for (column, value) in extra {
            sets.appendInterpolation(unsafeRaw: ", ")
            sets.appendInterpolation(ident: column)
            sets.appendInterpolation(unsafeRaw: " = ")
            sets.appendInterpolation(bind: value)
        }
        let assignments = sets
        try await work.writeSingleStatement { database in
            try await Self.exec(database, "UPDATE \(ident: table.name) SET \(assignments) WHERE id = \(bind: id)")
        }
    }

    /// Records a failed attempt of a message still waiting (one sent or given up meanwhile is left alone): tried
    /// again at `retryAt`, or given up at `now` with its secrets dropped. `error` is kept without NUL characters and
    /// cut to ``maximumMailErrorLength`` characters.
    func markFailed(_ table: OutboxTable, id: String, error: String, retryAt: Date?, now: Date) async throws {
        let message = Self.storableMailError(error)
        try await work.writeSingleStatement { database in
            if let retryAt {
                try await Self.exec(
                    database,
                    """
                    UPDATE \(ident: table.name) SET next_attempt_at = \(bind: StoredTime.milliseconds(retryAt)), last_error = \(bind: message)
                    WHERE id = \(bind: id) AND sent_at IS NULL AND failed_at IS NULL
                    """)
            } else {
                try await Self.exec(
                    database,
                    """
                    UPDATE \(ident: table.name) SET failed_at = \(bind: StoredTime.milliseconds(now)), last_error = \(bind: message),
                        \(table.droppingSecrets)
                    WHERE id = \(bind: id) AND sent_at IS NULL AND failed_at IS NULL
                    """)
            }
        }
    }

    /// The newest `limit` rows, newest first.
    func recent<Message: Sendable>(_ table: OutboxTable, limit: Int, read: @escaping @Sendable (any SQLRow) throws -> Message) async throws
        -> [Message]
    {
        guard limit > 0 else { return [] }
        return try await work.readSingleStatement { database in
            try await Self.rows(
                database,
                """
                SELECT \(table.columns) FROM \(ident: table.name)
                ORDER BY created_at DESC, id DESC LIMIT \(bind: Int64(limit))
                """
            ).map(read)
        }
    }

    /// How many messages are neither sent nor given up.
    func countWaiting(_ table: OutboxTable) async throws -> Int {
        try await work.readSingleStatement { database in
            let row = try await Self.rows(
                database, "SELECT COUNT(*) AS waiting FROM \(ident: table.name) WHERE sent_at IS NULL AND failed_at IS NULL"
            ).first
            return Int(try row?.int64("waiting") ?? 0)
        }
    }

    /// Deletes messages sent or given up before `date`; returns how many.
    func deleteFinished(_ table: OutboxTable, before date: Date) async throws -> Int {
        let milliseconds = StoredTime.milliseconds(date)
        return try await work.writeSingleStatement { database in
            try await Self.rows(
                database,
                """
                DELETE FROM \(ident: table.name) WHERE sent_at < \(bind: milliseconds) OR failed_at < \(bind: milliseconds)
                RETURNING id
                """
            ).count
        }
    }
}
