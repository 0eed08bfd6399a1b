/// Why a queued message (a mail, an SMS) did not go, without its content: `permanent` failures (the server or gateway
/// refused the recipient, the sender or the credentials) are given up at once, the others retried.
public struct DeliveryFailure: Error, Sendable, CustomStringConvertible {
    public let message: String
    public let permanent: Bool
    public init(_ message: String, permanent: Bool) {
        self.message = message
        self.permanent = permanent
    }
    public var description: String { message }
}
