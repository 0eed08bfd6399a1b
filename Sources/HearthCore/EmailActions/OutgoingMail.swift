import Foundation

/// A mail waiting in the database for delivery, or delivered (``sentAt``).
///
/// The bodies hold action links, so they are secrets: a store given a ``SecretSealer`` keeps them sealed at
/// rest, and ``MailQueueStore/markMailSent(id:at:)`` drops them once the mail is out.
public struct OutgoingMail: Sendable, Equatable {
    /// Random and unique; also the local part of the mail's `Message-ID`, so a mail sent twice (a replica
    /// that died between the server's "250" and recording it) is recognisably the same mail.
    public var id: String
    public var recipient: String
    public var subject: String
    public var textBody: String
    public var htmlBody: String
    /// What the mail is for: an ``ActionCodeKind`` raw value, shown in development mode's outbox and logs.
    public var purpose: String
    /// The language it was written in (`en`, `hi`, …).
    public var languageCode: String
    public var createdAt: Date
    /// Delivery attempts made so far.
    public var attempts: Int
    /// When the next attempt may start: the queue time at first, later the back-off or a replica's claim.
    public var nextAttemptAt: Date
    /// When the mail server accepted it; `nil` while it waits.
    public var sentAt: Date?
    /// When delivery was given up; `nil` while it may still go.
    public var failedAt: Date?
    /// Why the last attempt failed, without the mail's content.
    public var lastError: String?

    public init(
        id: String, recipient: String, subject: String, textBody: String, htmlBody: String, purpose: String,
        languageCode: String, createdAt: Date, attempts: Int = 0, nextAttemptAt: Date? = nil, sentAt: Date? = nil,
        failedAt: Date? = nil, lastError: String? = nil
    ) {
        self.id = id
        self.recipient = recipient
        self.subject = subject
        self.textBody = textBody
        self.htmlBody = htmlBody
        self.purpose = purpose
        self.languageCode = languageCode
        self.createdAt = createdAt
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt ?? createdAt
        self.sentAt = sentAt
        self.failedAt = failedAt
        self.lastError = lastError
    }

    /// A new id that sorts by when it was made (``QueueID/make()``).
    public static func makeID() -> String { QueueID.make() }
}

/// The mail queue in the database: mails survive a restart, and replicas share the sending.
///
/// Delivery is at least once and, short of a crash between the mail server's acceptance and
/// ``markMailSent(id:at:)``, exactly once: a replica claims a mail by moving its ``OutgoingMail/nextAttemptAt``
/// past the time the attempt may take, so no other replica picks it up meanwhile; if the replica dies, the
/// claim runs out and another one sends it.
public protocol MailQueueStore: Sendable {
    func enqueueMail(_ mail: OutgoingMail) async throws
    /// Up to `limit` mails neither sent nor given up whose ``OutgoingMail/nextAttemptAt`` is at or before
    /// `now`, oldest first, each with its next attempt moved to `claimUntil` and its attempts counted up by
    /// one, atomically across replicas (two concurrent calls never return the same mail).
    func claimDueMails(now: Date, claimUntil: Date, limit: Int) async throws -> [OutgoingMail]
    /// Records delivery and drops the bodies (they hold the link).
    func markMailSent(id: String, at date: Date) async throws
    /// Records a failed attempt: the mail is tried again at `retryAt`, or given up (bodies dropped) at `now`
    /// when `retryAt` is `nil`.
    func markMailFailed(id: String, error: String, retryAt: Date?, now: Date) async throws
    /// The newest `limit` mails, newest first, bodies included while they are kept (development mode's outbox).
    func recentMails(limit: Int) async throws -> [OutgoingMail]
    /// How many mails wait for delivery (neither sent nor given up).
    func countWaitingMails() async throws -> Int
    /// Deletes mails sent or given up before `date`; returns how many.
    @discardableResult
    func deleteMails(finishedBefore date: Date) async throws -> Int
}
