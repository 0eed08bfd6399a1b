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

    /// Claims the due mails (``OutboxTable``'s one claim for every queue).
    public func claimDueMails(now: Date, claimUntil: Date, limit: Int) async throws -> [OutgoingMail] {
        try await claimDue(.mails, now: now, claimUntil: claimUntil, limit: limit) { row in
            let mail = try Self.mail(from: row)
            return (mail.id, mail)
        }.map(opened)
    }

    /// Records delivery and drops the bodies. Does nothing when there is no such mail.
    public func markMailSent(id: String, at date: Date) async throws {
        try await markSent(.mails, id: id, at: date)
    }

    /// Records a failed attempt of a mail still waiting (a mail sent or given up meanwhile is left alone).
    /// `error` is kept without NUL characters and cut to ``maximumMailErrorLength`` characters.
    public func markMailFailed(id: String, error: String, retryAt: Date?, now: Date) async throws {
        try await markFailed(.mails, id: id, error: error, retryAt: retryAt, now: now)
    }

    public func recentMails(limit: Int) async throws -> [OutgoingMail] {
        try await recent(.mails, limit: limit, read: Self.mail(from:)).map(opened)
    }

    public func countWaitingMails() async throws -> Int {
        try await countWaiting(.mails)
    }

    @discardableResult
    public func deleteMails(finishedBefore date: Date) async throws -> Int {
        try await deleteFinished(.mails, before: date)
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
