import Foundation

/// What one attempt at a queued message came to.
public enum DeliveryOutcome: Sendable {
    /// The mail server or gateway took it (with the gateway's id for it, when it gives one).
    case sent(gatewayID: String?)
    /// It failed and is tried again later.
    case retry(DeliveryFailure)
    /// It failed for good, or for the last time.
    case gaveUp(DeliveryFailure)
    /// What it carried expired before it could go: given up unsent.
    case expired
}

/// The rules every queue's delivery shares: a failed attempt is tried again after a back-off that doubles from
/// ``firstBackOff`` up to ``longestBackOff``, unless the failure is permanent, ``maxAttempts`` are spent, or the next
/// attempt would start after what the message carries has expired.
public struct DeliveryPolicy: Sendable {
    public let maxAttempts: Int
    public let firstBackOff: TimeInterval
    public let longestBackOff: TimeInterval

    public init(maxAttempts: Int, firstBackOff: TimeInterval, longestBackOff: TimeInterval) {
        self.maxAttempts = maxAttempts
        self.firstBackOff = firstBackOff
        self.longestBackOff = longestBackOff
    }

    /// Seconds before attempt `attempt + 1`.
    public func backOff(attempt: Int) -> TimeInterval {
        min(longestBackOff, firstBackOff * pow(2, Double(max(0, attempt - 1))))
    }

    /// When attempt `attempt + 1` starts after `failure` at `now`; `nil`: give up.
    public func retryAt(after failure: DeliveryFailure, attempt: Int, now: Date, expiresAt: Date? = nil) -> Date? {
        let retryAt = now.addingTimeInterval(backOff(attempt: attempt))
        if failure.permanent || attempt >= maxAttempts { return nil }
        if let expiresAt, retryAt >= expiresAt { return nil }
        return retryAt
    }

    /// `error` as a failure: a ``DeliveryFailure`` as it is, anything else one to retry named by its type.
    public static func failure(_ error: any Error) -> DeliveryFailure {
        error as? DeliveryFailure ?? DeliveryFailure("\(type(of: error))", permanent: false)
    }
}

/// One pass over the SMS queue: claims what is due and tries each message once through the gateway, recording the
/// outcome in the store. The server's delivery service runs it in a loop and reports each outcome.
public struct SMSDelivery: Sendable {
    public let store: any SMSQueueStore
    public let gateway: any SMSGateway
    public let clock: WallClock
    public let policy: DeliveryPolicy
    /// How long a claimed message is left to this replica before another may try it.
    public let claimDuration: TimeInterval

    public init(store: any SMSQueueStore, gateway: any SMSGateway, clock: WallClock, policy: DeliveryPolicy, claimDuration: TimeInterval) {
        self.store = store
        self.gateway = gateway
        self.clock = clock
        self.policy = policy
        self.claimDuration = claimDuration
    }

    /// Claims the due messages (up to `limit`) and tries each once.
    public func runOnce(limit: Int = 10) async throws -> [(message: OutgoingSMS, outcome: DeliveryOutcome)] {
        let now = clock.now
        var outcomes: [(message: OutgoingSMS, outcome: DeliveryOutcome)] = []
        for message in try await store.claimDueSMS(now: now, claimUntil: now.addingTimeInterval(claimDuration), limit: limit) {
            guard clock.now < message.expiresAt else {
                try await store.markSMSFailed(id: message.id, error: "the code expired before it could be sent", retryAt: nil, now: clock.now)
                outcomes.append((message, .expired))
                continue
            }
            do {
                let gatewayID = try await gateway.send(message)
                try await store.markSMSSent(id: message.id, at: clock.now, gatewayMessageID: gatewayID)
                outcomes.append((message, .sent(gatewayID: gatewayID)))
            } catch {
                let failure = DeliveryPolicy.failure(error)
                let retryAt = policy.retryAt(after: failure, attempt: message.attempts, now: clock.now, expiresAt: message.expiresAt)
                try await store.markSMSFailed(id: message.id, error: failure.message, retryAt: retryAt, now: clock.now)
                outcomes.append((message, retryAt == nil ? .gaveUp(failure) : .retry(failure)))
            }
        }
        return outcomes
    }
}

/// Hands a queued mail to a mail server. Throws ``DeliveryFailure`` when it did not go.
public protocol MailTransport: Sendable {
    func deliver(_ mail: OutgoingMail) async throws
}

/// One pass over the mail queue, as ``SMSDelivery`` over the SMS queue.
public struct MailDelivery: Sendable {
    public let store: any MailQueueStore
    public let transport: any MailTransport
    public let clock: WallClock
    public let policy: DeliveryPolicy
    public let claimDuration: TimeInterval

    public init(store: any MailQueueStore, transport: any MailTransport, clock: WallClock, policy: DeliveryPolicy, claimDuration: TimeInterval) {
        self.store = store
        self.transport = transport
        self.clock = clock
        self.policy = policy
        self.claimDuration = claimDuration
    }

    public func runOnce(limit: Int = 10) async throws -> [(mail: OutgoingMail, outcome: DeliveryOutcome)] {
        let now = clock.now
        var outcomes: [(mail: OutgoingMail, outcome: DeliveryOutcome)] = []
        for mail in try await store.claimDueMails(now: now, claimUntil: now.addingTimeInterval(claimDuration), limit: limit) {
            do {
                try await transport.deliver(mail)
                try await store.markMailSent(id: mail.id, at: clock.now)
                outcomes.append((mail, .sent(gatewayID: nil)))
            } catch {
                let failure = DeliveryPolicy.failure(error)
                let retryAt = policy.retryAt(after: failure, attempt: mail.attempts, now: clock.now)
                try await store.markMailFailed(id: mail.id, error: String(failure.message.prefix(300)), retryAt: retryAt, now: clock.now)
                outcomes.append((mail, retryAt == nil ? .gaveUp(failure) : .retry(failure)))
            }
        }
        return outcomes
    }
}
