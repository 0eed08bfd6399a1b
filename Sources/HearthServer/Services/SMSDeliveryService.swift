import Foundation
import HearthConfiguration
import HearthCore
import HearthMessages
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
    private let store: any SMSQueueStore
    private let gateway: any SMSGateway
    private let signal: QueueSignal
    private let clock: WallClock
    private let metrics: ServerMetrics
    private let logger: Logger
    private let maxAttempts: Int
    /// How long a claimed message is left to this replica before another may try it.
    private let claimDuration: TimeInterval
    let pollInterval: Duration

    public init(services: HearthServices, gateway: any SMSGateway, pollInterval: Duration = .seconds(2)) {
        self.store = services.store
        self.gateway = gateway
        self.signal = services.smsSignal
        self.clock = services.clock
        self.metrics = services.metrics
        self.logger = services.logger
        self.maxAttempts = services.configuration.sms.maxAttempts
        self.claimDuration = max(10, services.configuration.sms.timeout * 2)
        self.pollInterval = pollInterval
    }

    public func run() async throws {
        await signal.serve(pollInterval: pollInterval, logger: logger, queue: "SMS queue") { try await runOnce() }
    }

    /// Claims the due messages (up to 10) and tries each once. Returns how many it tried.
    @discardableResult
    public func runOnce() async throws -> Int {
        let now = clock.now
        let due = try await store.claimDueSMS(now: now, claimUntil: now.addingTimeInterval(claimDuration), limit: 10)
        for message in due {
            let metadata: Logger.Metadata = ["sms": "\(message.id)", "gateway": "\(gateway.name)", "attempt": "\(message.attempts)"]
            guard clock.now < message.expiresAt else {
                try await store.markSMSFailed(id: message.id, error: "the code expired before it could be sent", retryAt: nil, now: clock.now)
                metrics.count(.smsFailed, gateway.name, "expired")
                logger.warning("Gave up an SMS: its code expired first", metadata: metadata)
                continue
            }
            do {
                let gatewayID = try await gateway.send(message)
                try await store.markSMSSent(id: message.id, at: clock.now, gatewayMessageID: gatewayID)
                metrics.count(.smsSent, gateway.name, message.channel.rawValue)
                logger.info("Sent an SMS", metadata: metadata.merging(["gateway_id": "\(gatewayID ?? "-")"]) { $1 })
            } catch {
                let failure = error as? SMSDeliveryFailure ?? SMSDeliveryFailure("\(type(of: error))", permanent: false)
                let retryAt = clock.now.addingTimeInterval(Self.backOff(attempt: message.attempts))
                let givesUp = failure.permanent || message.attempts >= maxAttempts || retryAt >= message.expiresAt
                try await store.markSMSFailed(id: message.id, error: failure.message, retryAt: givesUp ? nil : retryAt, now: clock.now)
                metrics.count(.smsFailed, gateway.name, givesUp ? "gave_up" : "retry")
                logger.warning(
                    givesUp ? "Gave up an SMS" : "SMS delivery failed; will retry",
                    metadata: metadata.merging(["error": "\(failure.message.prefix(300))"]) { $1 })
            }
        }
        return due.count
    }

    /// Seconds before attempt `attempt + 1`: 5 s doubled each time.
    static func backOff(attempt: Int) -> TimeInterval {
        min(300, 5 * pow(2, Double(max(0, attempt - 1))))
    }
}

/// Phone sign-in's ``VerificationCodeSending`` in front of a gateway: writes the message in the request's language,
/// chooses SMS or WhatsApp by the number's region, queues it and wakes this replica's ``SMSDeliveryService``.
struct QueuedSMSSender: VerificationCodeSending {
    let store: any SMSQueueStore
    let text: SMSText
    let whatsappRegions: Set<String>
    let signal: QueueSignal
    let metrics: ServerMetrics

    func send(_ message: VerificationCodeMessage) async throws {
        let region = PhoneRegions.region(of: message.phoneNumber) ?? "unknown"
        let channel: SMSChannel = whatsappRegions.contains("*") || whatsappRegions.contains(region) ? .whatsapp : .sms
        let (body, languageCode) = text.verification(code: message.code, languageCode: message.languageCode)
        try await store.enqueueSMS(
            OutgoingSMS(
                id: QueueID.make(), recipient: message.phoneNumber, body: body, channel: channel, purpose: OutgoingSMS.verificationPurpose,
                languageCode: languageCode, createdAt: message.createdAt, expiresAt: message.expiresAt))
        metrics.count(.smsQueued, region, channel.rawValue)
        signal.wake()
    }
}
