import Foundation
import HearthConfiguration
import HearthCore
import HearthTelemetry
import Logging
import ServiceLifecycle

/// Sends the SMS queue's messages (``SMSQueueStore``) through the configured gateway, as ``MailDeliveryService`` sends
/// mails: every replica runs one, claims keep two from sending one message, a message queued here wakes it at once.
///
/// A code is worth sending only while it works: a failed attempt is retried after 5 s, 10 s, 20 s, … while the next
/// attempt can still start before the code expires and `sms.delivery.maxAttempts` allows, and a message found expired
/// is given up unsent. Failures are logged with the message's id and the gateway's answer, never its text.
public struct SMSDeliveryService: Service {
    let delivery: SMSDelivery
    private let signal: QueueSignal
    private let metrics: ServerMetrics
    private let logger: Logger
    let pollInterval: Duration

    public init(services: HearthServices, gateway: any SMSGateway, pollInterval: Duration = .seconds(2)) {
        delivery = SMSDelivery(
            store: services.store, gateway: gateway, clock: services.clock,
            policy: DeliveryPolicy(maxAttempts: services.configuration.sms.maxAttempts, firstBackOff: 5, longestBackOff: 300),
            claimDuration: max(10, services.configuration.sms.timeout * 2))
        (signal, metrics, logger, self.pollInterval) = (services.smsSignal, services.metrics, services.logger, pollInterval)
    }

    public func run() async throws {
        await signal.serve(pollInterval: pollInterval, logger: logger, queue: "SMS queue") { try await runOnce() }
    }

    /// Claims the due messages (up to 10) and tries each once. Returns how many it tried.
    @discardableResult
    public func runOnce() async throws -> Int {
        let outcomes = try await delivery.runOnce()
        let gateway = delivery.gateway.name
        for (message, outcome) in outcomes {
            var metadata: Logger.Metadata = ["sms": "\(message.id)", "gateway": "\(gateway)", "attempt": "\(message.attempts)"]
            switch outcome {
            case .sent(let gatewayID):
                metrics.count(.smsSent, gateway, message.channel.rawValue)
                metadata["gateway_id"] = "\(gatewayID ?? "-")"
                logger.info("Sent an SMS", metadata: metadata)
            case .retry(let failure), .gaveUp(let failure):
                let givesUp = if case .gaveUp = outcome { true } else { false }
                metrics.count(.smsFailed, gateway, givesUp ? "gave_up" : "retry")
                metadata["error"] = "\(failure.message.prefix(300))"
                logger.warning(givesUp ? "Gave up an SMS" : "SMS delivery failed; will retry", metadata: metadata)
            case .expired:
                metrics.count(.smsFailed, gateway, "expired")
                logger.warning("Gave up an SMS: its code expired first", metadata: metadata)
            }
        }
        return outcomes.count
    }
}
