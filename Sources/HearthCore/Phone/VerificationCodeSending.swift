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

    public init(phoneNumber: String, code: String, sessionInfo: String, createdAt: Date) {
        self.phoneNumber = phoneNumber
        self.code = code
        self.sessionInfo = sessionInfo
        self.createdAt = createdAt
    }
}

/// Delivers verification codes: development mode's outbox, or (later) an SMS gateway. A server without one sends
/// codes to its test phone numbers only.
public protocol VerificationCodeSending: Sendable {
    /// Sends `message`, or throws; never logs the code.
    func send(_ message: VerificationCodeMessage) async throws
}
