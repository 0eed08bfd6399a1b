import Foundation

/// How a message reaches a phone.
public enum SMSChannel: String, Sendable, CaseIterable {
    case sms
    /// WhatsApp, through a gateway that has it (Twilio's WhatsApp sender).
    case whatsapp
}

/// A text message waiting in the database for a gateway, or handed to one (``sentAt``).
///
/// The body holds a verification code, so it is a secret: a store given a ``SecretSealer`` keeps it sealed at rest,
/// and ``SMSQueueStore/markSMSSent(id:at:gatewayMessageID:)`` and giving up drop it. A message is worth sending only
/// while its code works: after ``expiresAt`` it is given up instead of sent late.
public struct OutgoingSMS: Sendable, Equatable {
    /// Random and unique (``QueueID/make()``); gateways that take an idempotency key or a client reference get it,
    /// so a message sent twice (a replica that died between the gateway's answer and recording it) is recognisable.
    public var id: String
    /// E.164.
    public var recipient: String
    public var body: String
    public var channel: SMSChannel
    /// What it is for (`VERIFY_PHONE_NUMBER`), shown in logs and metrics.
    public var purpose: String
    /// The language it was written in (`en`, `hi`, …).
    public var languageCode: String
    public var createdAt: Date
    /// When the code in it stops working: no attempt starts after this.
    public var expiresAt: Date
    /// Delivery attempts made so far.
    public var attempts: Int
    /// When the next attempt may start: the queue time at first, later the back-off or a replica's claim.
    public var nextAttemptAt: Date
    /// When the gateway accepted it; `nil` while it waits.
    public var sentAt: Date?
    /// When delivery was given up; `nil` while it may still go.
    public var failedAt: Date?
    /// Why the last attempt failed, without the message's text.
    public var lastError: String?
    /// The gateway's id for the message (Twilio's `sid`, Vonage's `message-id`), once sent.
    public var gatewayMessageID: String?

    public init(
        id: String, recipient: String, body: String, channel: SMSChannel = .sms, purpose: String, languageCode: String, createdAt: Date,
        expiresAt: Date, attempts: Int = 0, nextAttemptAt: Date? = nil, sentAt: Date? = nil, failedAt: Date? = nil, lastError: String? = nil,
        gatewayMessageID: String? = nil
    ) {
        self.id = id
        self.recipient = recipient
        self.body = body
        self.channel = channel
        self.purpose = purpose
        self.languageCode = languageCode
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt ?? createdAt
        self.sentAt = sentAt
        self.failedAt = failedAt
        self.lastError = lastError
        self.gatewayMessageID = gatewayMessageID
    }

    /// The purpose of a phone sign-in's code.
    public static let verificationPurpose = "VERIFY_PHONE_NUMBER"
}

/// The SMS queue in the database, with the mail queue's guarantees (``MailQueueStore``): messages survive a restart,
/// replicas share the sending, and a claim keeps two replicas from sending one message.
public protocol SMSQueueStore: Sendable {
    /// Inserts the message, its body sealed. Throws `INVALID_ARGUMENT` when a text holds a NUL.
    func enqueueSMS(_ message: OutgoingSMS) async throws
    /// Up to `limit` messages neither sent nor given up whose ``OutgoingSMS/nextAttemptAt`` is at or before `now`,
    /// oldest first, each with its next attempt moved to `claimUntil` and its attempts counted up by one, atomically
    /// across replicas (two concurrent calls never return the same message).
    func claimDueSMS(now: Date, claimUntil: Date, limit: Int) async throws -> [OutgoingSMS]
    /// Records delivery with the gateway's id, and drops the body.
    func markSMSSent(id: String, at date: Date, gatewayMessageID: String?) async throws
    /// Records a failed attempt: tried again at `retryAt`, or given up (body dropped) at `now` when `retryAt` is `nil`.
    func markSMSFailed(id: String, error: String, retryAt: Date?, now: Date) async throws
    /// The newest `limit` messages, newest first, bodies included while they are kept.
    func recentSMS(limit: Int) async throws -> [OutgoingSMS]
    /// How many messages wait for delivery (neither sent nor given up).
    func countWaitingSMS() async throws -> Int
    /// Deletes messages sent or given up before `date`; returns how many.
    @discardableResult
    func deleteSMS(finishedBefore date: Date) async throws -> Int
}

/// Hands a queued message to an SMS gateway (Twilio, Vonage, an operator's webhook). Throws ``SMSDeliveryFailure``
/// when it did not go.
public protocol SMSGateway: Sendable {
    /// A short name for logs and metrics (`twilio`, `vonage`, `webhook`).
    var name: String { get }
    /// Sends `message`; returns the gateway's id for it, when it gives one. Never logs the body.
    func send(_ message: OutgoingSMS) async throws -> String?
}

/// Why a message did not go (``DeliveryFailure``): the gateway refused the number, the sender or the credentials
/// (permanent), or could not be reached.
public typealias SMSDeliveryFailure = DeliveryFailure
