import Foundation

/// Phone sign-in's ``VerificationCodeSending`` in front of an SMS gateway: writes the message in the request's language
/// (`render`: the code and the client's language code to the text and the language it is in), chooses SMS or WhatsApp
/// by the number's region, queues it (``SMSQueueStore``) and wakes this replica's delivery.
public struct QueuedCodeSender: VerificationCodeSending {
    public let store: any SMSQueueStore
    public let render: @Sendable (_ code: String, _ languageCode: String?) -> (text: String, languageCode: String)
    /// Regions (or `*`) whose numbers get the code by WhatsApp.
    public let whatsappRegions: Set<String>
    public let signal: QueueSignal
    /// Told of each message queued: the number's region (or `unknown`) and the channel.
    public let queued: @Sendable (_ region: String, _ channel: SMSChannel) -> Void

    public init(
        store: any SMSQueueStore, render: @escaping @Sendable (String, String?) -> (text: String, languageCode: String),
        whatsappRegions: Set<String>, signal: QueueSignal, queued: @escaping @Sendable (String, SMSChannel) -> Void = { _, _ in }
    ) {
        self.store = store
        self.render = render
        self.whatsappRegions = whatsappRegions
        self.signal = signal
        self.queued = queued
    }

    public func send(_ message: VerificationCodeMessage) async throws {
        let region = PhoneRegions.region(of: message.phoneNumber) ?? "unknown"
        let channel: SMSChannel = whatsappRegions.contains("*") || whatsappRegions.contains(region) ? .whatsapp : .sms
        let (body, languageCode) = render(message.code, message.languageCode)
        try await store.enqueueSMS(
            OutgoingSMS(
                id: QueueID.make(), recipient: message.phoneNumber, body: body, channel: channel, purpose: OutgoingSMS.verificationPurpose,
                languageCode: languageCode, createdAt: message.createdAt, expiresAt: message.expiresAt))
        queued(region, channel)
        signal.wake()
    }
}
