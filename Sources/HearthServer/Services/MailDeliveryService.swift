import Foundation
import HearthConfiguration
import HearthCore
import HearthTelemetry
import Logging
import ServiceLifecycle

/// Why a mail did not go (``DeliveryFailure``): the mail server refused it or the credentials (permanent), or could not
/// be reached.
public typealias MailDeliveryFailure = DeliveryFailure

/// Sends the mails of the queue in the database (``MailDelivery``): every replica runs one, and the store's claims keep
/// two replicas from sending the same mail. A mail queued on this replica wakes it at once; others are found by a poll
/// every ``pollInterval``. A failed attempt is retried after 30 s, 1 min, 2 min, … (at most an hour) up to
/// `email.delivery.maxAttempts`, then given up; failures are logged with the mail's id and purpose, never its link.
public struct MailDeliveryService: Service {
    let delivery: MailDelivery
    private let signal: QueueSignal
    private let metrics: ServerMetrics
    private let logger: Logger
    let pollInterval: Duration

    public init(services: HearthServices, transport: any MailTransport, pollInterval: Duration = .seconds(5)) {
        delivery = MailDelivery(
            store: services.store, transport: transport, clock: services.clock,
            policy: DeliveryPolicy(maxAttempts: services.configuration.email.maxAttempts, firstBackOff: 30, longestBackOff: 3_600),
            claimDuration: max(60, services.configuration.email.smtpTimeout * 4))
        (signal, metrics, logger, self.pollInterval) = (services.mailSignal, services.metrics, services.logger, pollInterval)
    }

    public func run() async throws {
        await signal.serve(pollInterval: pollInterval, logger: logger, queue: "mail queue") { try await runOnce() }
    }

    /// Claims the due mails (up to 10) and tries each once. Returns how many it tried.
    @discardableResult
    public func runOnce() async throws -> Int {
        let outcomes = try await delivery.runOnce()
        for (mail, outcome) in outcomes {
            var metadata: Logger.Metadata = ["mail": "\(mail.id)", "purpose": "\(mail.purpose)", "attempt": "\(mail.attempts)"]
            switch outcome {
            case .sent:
                metrics.count(.mailsSent, mail.purpose)
                logger.info("Sent a mail", metadata: metadata)
            case .retry(let failure), .gaveUp(let failure):
                let givesUp = if case .gaveUp = outcome { true } else { false }
                metrics.count(.mailsFailed, mail.purpose, givesUp ? "gave_up" : "retry")
                metadata["error"] = "\(failure.message.prefix(300))"
                logger.warning(givesUp ? "Gave up a mail" : "Mail delivery failed; will retry", metadata: metadata)
            case .expired:
                break
            }
        }
        return outcomes.count
    }
}
