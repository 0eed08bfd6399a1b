import Foundation

/// A verification service that sends the code and checks it itself (Twilio Verify): Hearth keeps the session and its
/// attempts, never the code.
public protocol ExternalPhoneVerification: Sendable {
    /// Asks the service to send a code to `phoneNumber` (by SMS or WhatsApp, as configured), in `languageCode` when it
    /// has it. Throws
    /// `INVALID_PHONE_NUMBER` when the service refuses the number, `TOO_MANY_ATTEMPTS_TRY_LATER` when it refuses more
    /// codes for it, and a 503 when it cannot be reached.
    func start(phoneNumber: String, languageCode: String?) async throws
    /// Whether `code` is the one the service sent to `phoneNumber` (it then forgets it). Throws `SESSION_EXPIRED` when
    /// the service no longer has a verification for the number, and a 503 when it cannot be reached.
    func check(phoneNumber: String, code: String) async throws -> Bool
}
