import Foundation
import HearthConfiguration
import HearthCore
import HearthTelemetry
import Logging
import ServiceLifecycle

/// Hands a queued mail to a mail server. Throws ``MailDeliveryFailure`` when it did not go.
public protocol MailTransport: Sendable {
    func deliver(_ mail: OutgoingMail) async throws
}

/// Why a mail did not go (``DeliveryFailure``): the mail server refused it or the credentials (permanent), or could not
/// be reached.
public typealias MailDeliveryFailure = DeliveryFailure

/// Sends the mails of the queue in the database (``MailQueueStore``): every replica runs one, and the store's
/// claims keep two replicas from sending the same mail. A mail queued on this replica wakes it at once;
/// others are found by a poll every ``pollInterval``. A failed attempt is retried with exponential back-off
/// (30 s, 1 min, 2 min, … at most an hour) up to `email.delivery.maxAttempts`, then given up; failures are
/// logged with the mail's id and purpose, never its link.
public struct MailDeliveryService: Service {
    private let store: any HearthStore
    private let transport: any MailTransport
    private let signal: QueueSignal
    private let clock: WallClock
    private let metrics: ServerMetrics
    private let logger: Logger
    private let maxAttempts: Int
    /// How long a claimed mail is left to this replica before another may try it.
    private let claimDuration: TimeInterval
    let pollInterval: Duration

    public init(services: HearthServices, transport: any MailTransport, pollInterval: Duration = .seconds(5)) {
        self.store = services.store
        self.metrics = services.metrics
        self.transport = transport
        self.signal = services.mailSignal
        self.clock = services.clock
        self.logger = services.logger
        self.maxAttempts = services.configuration.email.maxAttempts
        self.claimDuration = max(60, services.configuration.email.smtpTimeout * 4)
        self.pollInterval = pollInterval
    }

    public func run() async throws {
        await signal.serve(pollInterval: pollInterval, logger: logger, queue: "mail queue") { try await runOnce() }
    }

    /// Claims the due mails (up to 10) and tries each once. Returns how many it tried.
    @discardableResult
    public func runOnce() async throws -> Int {
        let now = clock.now
        let due = try await store.claimDueMails(now: now, claimUntil: now.addingTimeInterval(claimDuration), limit: 10)
        for mail in due {
            do {
                try await transport.deliver(mail)
                try await store.markMailSent(id: mail.id, at: clock.now)
                metrics.count(.mailsSent, mail.purpose)
                logger.info("Sent a mail", metadata: ["mail": "\(mail.id)", "purpose": "\(mail.purpose)", "attempt": "\(mail.attempts)"])
            } catch {
                let failure = error as? MailDeliveryFailure ?? MailDeliveryFailure("\(type(of: error))", permanent: false)
                let givesUp = failure.permanent || mail.attempts >= maxAttempts
                let retryAt = givesUp ? nil : clock.now.addingTimeInterval(Self.backOff(attempt: mail.attempts))
                try await store.markMailFailed(id: mail.id, error: String(failure.message.prefix(300)), retryAt: retryAt, now: clock.now)
                metrics.count(.mailsFailed, mail.purpose, givesUp ? "gave_up" : "retry")
                logger.warning(
                    givesUp ? "Gave up a mail" : "Mail delivery failed; will retry",
                    metadata: [
                        "mail": "\(mail.id)", "purpose": "\(mail.purpose)", "attempt": "\(mail.attempts)", "error": "\(failure.message.prefix(300))",
                    ])
            }
        }
        return due.count
    }

    /// Seconds before attempt `attempt + 1`: 30 s doubled each time, at most an hour.
    static func backOff(attempt: Int) -> TimeInterval {
        min(3_600, 30 * pow(2, Double(max(0, attempt - 1))))
    }
}
