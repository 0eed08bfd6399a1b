import Foundation
import HearthCore
import SQLKit

// MARK: - SMSQueueStore

extension SQLStore {
    /// Inserts the message with its body sealed by ``sealer``. Throws `INVALID_ARGUMENT` when a text holds a NUL.
    public func enqueueSMS(_ message: OutgoingSMS) async throws {
        let texts = [message.id, message.recipient, message.body, message.purpose, message.languageCode]
        for text in texts where !UserText.isStorable(text) {
            throw HearthError(.invalidArgument, detail: "Text values must not contain NUL characters.", reason: "NUL in an SMS's text")
        }
        var stored = message
        stored.body = try sealer.seal(message.body, context: SecretSealer.smsContext(id: message.id))
        let sealed = stored
        try await work.writeSingleStatement { database in
            try await Self.exec(database, "INSERT INTO sms_queue (\(Self.smsColumns)) VALUES (\(binds: Self.smsValues(sealed)))")
        }
    }

    public func claimDueSMS(now: Date, claimUntil: Date, limit: Int) async throws -> [OutgoingSMS] {
        try await claimDue(.sms, now: now, claimUntil: claimUntil, limit: limit) { row in
            let message = try Self.sms(from: row)
            return (message.id, message)
        }.map(opened)
    }

    public func markSMSSent(id: String, at date: Date, gatewayMessageID: String?) async throws {
        let storedID = gatewayMessageID.map { String($0.filter { $0 != "\0" }.prefix(200)) }
        try await markSent(.sms, id: id, at: date, extra: [("gateway_message_id", storedID)])
    }

    public func markSMSFailed(id: String, error: String, retryAt: Date?, now: Date) async throws {
        try await markFailed(.sms, id: id, error: error, retryAt: retryAt, now: now)
    }

    public func recentSMS(limit: Int) async throws -> [OutgoingSMS] {
        try await recent(.sms, limit: limit, read: Self.sms(from:)).map(opened)
    }

    public func countWaitingSMS() async throws -> Int {
        try await countWaiting(.sms)
    }

    @discardableResult
    public func deleteSMS(finishedBefore date: Date) async throws -> Int {
        try await deleteFinished(.sms, before: date)
    }

    /// `message` as read from its row, with its body opened (an empty body stays empty).
    func opened(_ message: OutgoingSMS) throws -> OutgoingSMS {
        guard !message.body.isEmpty else { return message }
        var message = message
        message.body = try sealer.open(message.body, context: SecretSealer.smsContext(id: message.id))
        return message
    }
}

// MARK: - Rows

extension SQLStore {
    /// Columns of `sms_queue` in the order ``smsValues(_:)`` binds them.
    static let smsColumns: SQLQueryString = """
        id, recipient, body, channel, purpose, language_code, created_at, expires_at, attempts, next_attempt_at, sent_at, \
        failed_at, last_error, gateway_message_id
        """

    /// The values of ``smsColumns``, the body as given (sealed or not): an empty body is NULL.
    static func smsValues(_ message: OutgoingSMS) -> [any Encodable & Sendable] {
        [
            message.id, message.recipient, message.body.isEmpty ? nil : message.body, message.channel.rawValue, message.purpose,
            message.languageCode, StoredTime.milliseconds(message.createdAt), StoredTime.milliseconds(message.expiresAt),
            Int64(message.attempts), StoredTime.milliseconds(message.nextAttemptAt), StoredTime.milliseconds(message.sentAt),
            StoredTime.milliseconds(message.failedAt), message.lastError.map(storableMailError), message.gatewayMessageID,
        ]
    }

    /// A message as stored (body not opened; a NULL body reads as empty).
    static func sms(from row: any SQLRow) throws -> OutgoingSMS {
        let channel = try row.text("channel")
        return OutgoingSMS(
            id: try row.text("id"), recipient: try row.text("recipient"), body: try row.optionalText("body") ?? "",
            channel: SMSChannel(rawValue: channel) ?? .sms, purpose: try row.text("purpose"), languageCode: try row.text("language_code"),
            createdAt: try row.date("created_at"), expiresAt: try row.date("expires_at"), attempts: Int(try row.int64("attempts")),
            nextAttemptAt: try row.date("next_attempt_at"), sentAt: try row.optionalDate("sent_at"), failedAt: try row.optionalDate("failed_at"),
            lastError: try row.optionalText("last_error"), gatewayMessageID: try row.optionalText("gateway_message_id"))
    }
}
