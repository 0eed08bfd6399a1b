/// Why a mail could not be sent.
///
/// `code` says what kind of failure it was; ``isPermanent`` says whether sending the same mail again can
/// succeed. A server's reply keeps its ``replyCode`` and the start of its text (``replyText``), never
/// anything of the message or the credentials. Two errors are equal when their codes and reply codes are.
public struct SMTPError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable, Equatable, CaseIterable {
        /// The server answered with a 4xx or 5xx reply (see ``SMTPError/replyCode``).
        case rejected
        /// The TCP connection could not be made (refused, unreachable, name not found).
        case connectionFailed
        /// The server closed the connection before the mail was accepted.
        case connectionClosed
        /// No connection or no reply within the configured time-out.
        case timeout
        /// The TLS handshake failed (an untrusted or mismatching certificate, for example).
        case tlsFailed
        /// `security` is `.startTLS` and the server does not offer STARTTLS.
        case startTLSNotOffered
        /// Credentials are configured and the server offers neither AUTH PLAIN nor AUTH LOGIN.
        case authenticationNotOffered
        /// Credentials would cross the network in clear text (security `.none` to a host that is not loopback).
        case insecureCredentials
        /// The server's reply is not SMTP (a malformed or overlong line).
        case protocolViolation
        /// The message cannot be sent as it is (a header value with CR, LF or NUL, an invalid address).
        case invalidMessage
        /// The configuration is unusable (an unparsable URL, an unreadable CA file).
        case invalidConfiguration
    }

    public let code: Code
    /// The server's reply code, for ``Code/rejected`` (and the reply that ended a session otherwise).
    public let replyCode: Int?
    /// The server's reply text, at most ``replyTextLimit`` characters, control characters removed.
    public let replyText: String?
    /// What was going on: the command answered (`"RCPT TO"`), or the part of the configuration or message at fault.
    public let context: String

    /// How much of a reply's text an error keeps.
    public static let replyTextLimit = 200

    public init(_ code: Code, _ context: String, replyCode: Int? = nil, replyText: String? = nil) {
        self.code = code
        self.context = context
        self.replyCode = replyCode
        self.replyText = replyText.map(Self.sanitized)
    }

    /// Whether retrying cannot help: a 5xx reply, or a fault of the configuration or the message. Everything
    /// else (4xx replies, connection failures, time-outs, a connection closed early) is transient.
    public var isPermanent: Bool {
        switch code {
        case .rejected: (replyCode ?? 0) >= 500
        case .startTLSNotOffered, .authenticationNotOffered, .insecureCredentials, .invalidMessage, .invalidConfiguration,
            .tlsFailed:
            true
        case .connectionFailed, .connectionClosed, .timeout, .protocolViolation: false
        }
    }

    public var description: String {
        var text = "SMTP \(code.rawValue): \(context)"
        if let replyCode { text += " (server replied \(replyCode)\(replyText.map { " \($0)" } ?? ""))" }
        return text
    }

    public static func == (lhs: SMTPError, rhs: SMTPError) -> Bool {
        lhs.code == rhs.code && lhs.replyCode == rhs.replyCode
    }

    private static func sanitized(_ text: String) -> String {
        let printable = String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7f }))
        return printable.count > replyTextLimit ? String(printable.prefix(replyTextLimit)) + "…" : printable
    }
}
