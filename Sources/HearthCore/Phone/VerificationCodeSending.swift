import Foundation

/// A verification code on its way to a phone.
public struct VerificationCodeMessage: Sendable, Equatable {
    /// E.164.
    public var phoneNumber: String
    public var code: String
    /// The session the code belongs to: development mode's outbox lists it beside the code, as the emulator's
    /// `verificationCodes` does; a gateway has no use for it.
    public var sessionInfo: String
    public var createdAt: Date
    /// When the code stops working: a message not sent by then is not worth sending.
    public var expiresAt: Date
    /// The language the client asked for (`X-Firebase-Locale`), as the client sent it.
    public var languageCode: String?

    public init(phoneNumber: String, code: String, sessionInfo: String, createdAt: Date, expiresAt: Date? = nil, languageCode: String? = nil) {
        self.phoneNumber = phoneNumber
        self.code = code
        self.sessionInfo = sessionInfo
        self.createdAt = createdAt
        self.expiresAt = expiresAt ?? createdAt.addingTimeInterval(300)
        self.languageCode = languageCode
    }
}

/// Delivers verification codes: development mode's outbox, or the SMS queue in front of a gateway. A server without one sends
/// codes to its test phone numbers only.
public protocol VerificationCodeSending: Sendable {
    /// Sends `message`, or throws; never logs the code.
    func send(_ message: VerificationCodeMessage) async throws
}
