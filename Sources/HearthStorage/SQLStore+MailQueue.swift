import Foundation
import HearthCore
import SQLKit

// MARK: - MailQueueStore

extension SQLStore {
    /// Inserts the mail with its bodies sealed by ``sealer`` (an empty body is kept as NULL). Throws
    /// `INVALID_ARGUMENT` when a text holds a NUL.
    public func enqueueMail(_ mail: OutgoingMail) async throws {
        try Self.checkStorable(mail)
        let sealed = try sealed(mail)
        try await work.writeSingleStatement { database in
            try await Self.exec(
                database, "INSERT INTO mail_queue (\(Self.mailColumns)) VALUES (\(binds: Self.mailValues(sealed)))")
        }
    }

    /// One write transaction: the due mails' ids, oldest first, then one `UPDATE … RETURNING` that claims them.
    /// On PostgreSQL the ids are read `FOR UPDATE SKIP LOCKED` (``SQLDialectQuirks/claimForUpdate(on:)``): a
    /// concurrent claimer skips the rows this one locked, and a row it claimed and committed meanwhile no longer
    /// matches when re-checked. On SQLite the single writer runs claims one after the other.
    public func claimDueMails(now: Date, claimUntil: Date, limit: Int) async throws -> [OutgoingMail] {
        guard limit > 0 else { return [] }
        let nowMilliseconds = StoredTime.milliseconds(now)
        let untilMilliseconds = StoredTime.milliseconds(claimUntil)
        let claimed = try await work.write { database in
            let due = try await Self.rows(
                database,
                """
                SELECT id FROM mail_queue
                WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= \(bind: nowMilliseconds)
                ORDER BY next_attempt_at, id LIMIT \(bind: Int64(limit))
                \(SQLDialectQuirks.claimForUpdate(on: database))
                """
            ).map { try $0.text("id") }
            guard !due.isEmpty else { return [OutgoingMail]() }
            let rows = try await Self.rows(
                database,
                """
                UPDATE mail_queue SET next_attempt_at = \(bind: untilMilliseconds), attempts = attempts + 1
                WHERE id IN (\(binds: due)) RETURNING \(Self.mailColumns)
                """)
            var byID: [String: OutgoingMail] = [:]
            for row in rows {
                let mail = try Self.mail(from: row)
                byID[mail.id] = mail
            }
            return due.compactMap { byID[$0] }
        }
        return try claimed.map(opened)
    }

    /// Records delivery and drops the bodies. Does nothing when there is no such mail.
    public func markMailSent(id: String, at date: Date) async throws {
        try await work.writeSingleStatement { database in
            try await Self.exec(
                database,
                """
                UPDATE mail_queue SET sent_at = \(bind: StoredTime.milliseconds(date)), text_body = NULL, html_body = NULL
                WHERE id = \(bind: id)
                """)
        }
    }

    /// Records a failed attempt of a mail still waiting (a mail sent or given up meanwhile is left alone).
    /// `error` is kept without NUL characters and cut to ``maximumMailErrorLength`` characters.
    public func markMailFailed(id: String, error: String, retryAt: Date?, now: Date) async throws {
        let message = Self.storableMailError(error)
        try await work.writeSingleStatement { database in
            if let retryAt {
                try await Self.exec(
                    database,
                    """
                    UPDATE mail_queue SET next_attempt_at = \(bind: StoredTime.milliseconds(retryAt)), last_error = \(bind: message)
                    WHERE id = \(bind: id) AND sent_at IS NULL AND failed_at IS NULL
                    """)
            } else {
                try await Self.exec(
                    database,
                    """
                    UPDATE mail_queue SET failed_at = \(bind: StoredTime.milliseconds(now)), last_error = \(bind: message),
                        text_body = NULL, html_body = NULL
                    WHERE id = \(bind: id) AND sent_at IS NULL AND failed_at IS NULL
                    """)
            }
        }
    }

    public func recentMails(limit: Int) async throws -> [OutgoingMail] {
        guard limit > 0 else { return [] }
        let mails = try await work.readSingleStatement { database in
            try await Self.rows(
                database,
                """
                SELECT \(Self.mailColumns) FROM mail_queue
                ORDER BY created_at DESC, id DESC LIMIT \(bind: Int64(limit))
                """
            ).map(Self.mail(from:))
        }
        return try mails.map(opened)
    }

    public func countWaitingMails() async throws -> Int {
        try await work.readSingleStatement { database in
            let row = try await Self.rows(
                database, "SELECT COUNT(*) AS mail_count FROM mail_queue WHERE sent_at IS NULL AND failed_at IS NULL"
            ).first
            return Int(try row?.int64("mail_count") ?? 0)
        }
    }

    @discardableResult
    public func deleteMails(finishedBefore date: Date) async throws -> Int {
        let milliseconds = StoredTime.milliseconds(date)
        return try await work.writeSingleStatement { database in
            try await Self.rows(
                database,
                """
                DELETE FROM mail_queue WHERE sent_at < \(bind: milliseconds) OR failed_at < \(bind: milliseconds)
                RETURNING id
                """
            ).count
        }
    }
}

// MARK: - Sealing

extension SQLStore {
    /// `mail` with its bodies sealed by ``sealer`` (as they are without one; empty ones stay empty).
    func sealed(_ mail: OutgoingMail) throws -> OutgoingMail {
        try changingBodies(of: mail) { body, context in try sealer.seal(body, context: context) }
    }

    /// `mail` as read from its row, with its bodies opened.
    func opened(_ mail: OutgoingMail) throws -> OutgoingMail {
        try changingBodies(of: mail) { body, context in try sealer.open(body, context: context) }
    }

    /// `mail` with `change` applied to each body that is not empty, given the body's sealing context.
    private func changingBodies(of mail: OutgoingMail, _ change: (String, String) throws -> String) rethrows -> OutgoingMail {
        var mail = mail
        if !mail.textBody.isEmpty { mail.textBody = try change(mail.textBody, SecretSealer.mailContext(id: mail.id, html: false)) }
        if !mail.htmlBody.isEmpty { mail.htmlBody = try change(mail.htmlBody, SecretSealer.mailContext(id: mail.id, html: true)) }
        return mail
    }
}

// MARK: - Rows

extension SQLStore {
    /// The longest ``OutgoingMail/lastError`` kept, in characters: a mail server's answer can be long.
    static let maximumMailErrorLength = 1000

    /// Columns of `mail_queue` in the order ``mailValues(_:)`` binds them.
    static let mailColumns: SQLQueryString = """
        id, recipient, subject, text_body, html_body, purpose, language_code, created_at, attempts, \
        next_attempt_at, sent_at, failed_at, last_error
        """

    /// The values of ``mailColumns``, bodies as given (sealed or not): an empty body is NULL.
    static func mailValues(_ mail: OutgoingMail) -> [any Encodable & Sendable] {
        [
            mail.id, mail.recipient, mail.subject, mail.textBody.isEmpty ? nil : mail.textBody,
            mail.htmlBody.isEmpty ? nil : mail.htmlBody, mail.purpose, mail.languageCode,
            StoredTime.milliseconds(mail.createdAt), Int64(mail.attempts), StoredTime.milliseconds(mail.nextAttemptAt),
            StoredTime.milliseconds(mail.sentAt), StoredTime.milliseconds(mail.failedAt),
            mail.lastError.map(storableMailError),
        ]
    }

    /// A mail as stored (bodies not opened; NULL bodies read as empty).
    static func mail(from row: any SQLRow) throws -> OutgoingMail {
        OutgoingMail(
            id: try row.text("id"), recipient: try row.text("recipient"), subject: try row.text("subject"),
            textBody: try row.optionalText("text_body") ?? "", htmlBody: try row.optionalText("html_body") ?? "",
            purpose: try row.text("purpose"), languageCode: try row.text("language_code"),
            createdAt: try row.date("created_at"), attempts: Int(try row.int64("attempts")),
            nextAttemptAt: try row.date("next_attempt_at"), sentAt: try row.optionalDate("sent_at"),
            failedAt: try row.optionalDate("failed_at"), lastError: try row.optionalText("last_error"))
    }

    /// `error` without NUL characters, cut to ``maximumMailErrorLength`` characters.
    static func storableMailError(_ error: String) -> String {
        String(error.filter { $0 != "\0" }.prefix(maximumMailErrorLength))
    }

    /// Throws `INVALID_ARGUMENT` when a text of `mail` holds a NUL (PostgreSQL refuses it, SQLite's driver would
    /// read it back cut).
    static func checkStorable(_ mail: OutgoingMail) throws {
        let texts = [mail.id, mail.recipient, mail.subject, mail.textBody, mail.htmlBody, mail.purpose, mail.languageCode]
        for text in texts where !UserText.isStorable(text) {
            throw HearthError(.invalidArgument, detail: "Text values must not contain NUL characters.", reason: "NUL in a mail's text")
        }
    }
}
