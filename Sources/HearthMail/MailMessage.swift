/// A mail to send: one sender, one recipient, a subject, and a plain-text and an HTML part.
///
/// ``rendered(date:boundary:)`` turns it into the bytes of SMTP's DATA; ``validate()`` (which rendering and
/// ``SMTPClient/send(_:)`` call first) refuses what would let a value break out of its header: CR, LF or NUL
/// in any header value, address or display name.
public struct MailMessage: Sendable, Equatable {
    public var from: MailAddress
    public var to: MailAddress
    public var replyTo: MailAddress?
    public var subject: String
    public var textBody: String
    public var htmlBody: String
    /// The `Message-ID` without its angle brackets, e.g. `"3f2a…@hearth.example"`.
    public var messageID: String

    public init(
        from: MailAddress, to: MailAddress, replyTo: MailAddress? = nil, subject: String, textBody: String, htmlBody: String,
        messageID: String
    ) {
        self.from = from
        self.to = to
        self.replyTo = replyTo
        self.subject = subject
        self.textBody = textBody
        self.htmlBody = htmlBody
        self.messageID = messageID
    }

    /// Throws ``SMTPError/Code/invalidMessage`` naming the field at fault (not its value) when a header value
    /// contains CR, LF or NUL, an address is not a plain ASCII `local@domain`, or the Message-ID is malformed.
    public func validate() throws(SMTPError) {
        try from.validate(field: "From")
        try to.validate(field: "To")
        try replyTo?.validate(field: "Reply-To")
        if subject.containsLineBreakOrNUL { throw SMTPError(.invalidMessage, "the Subject contains CR, LF or NUL") }
        let idParts = messageID.split(separator: "@", omittingEmptySubsequences: false)
        guard idParts.count == 2, !idParts[0].isEmpty, !idParts[1].isEmpty, messageID.utf8.count <= 250,
            messageID.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f && $0 != UInt8(ascii: "<") && $0 != UInt8(ascii: ">") })
        else {
            throw SMTPError(.invalidMessage, "the Message-ID must be printable ASCII id@domain without spaces or angle brackets")
        }
    }
}

/// An address with an optional display name: `"Hearth" <no-reply@example.com>`.
public struct MailAddress: Sendable, Equatable {
    /// `local@domain`, ASCII only (the client does not speak SMTPUTF8).
    public var address: String
    /// Any text without CR, LF or NUL; quoted or RFC 2047-encoded as needed when rendered.
    public var name: String?

    public init(_ address: String, name: String? = nil) {
        self.address = address
        self.name = name
    }

    func validate(field: String) throws(SMTPError) {
        if let name, name.containsLineBreakOrNUL {
            throw SMTPError(.invalidMessage, "the display name of \(field) contains CR, LF or NUL")
        }
        if address.containsLineBreakOrNUL { throw SMTPError(.invalidMessage, "the \(field) address contains CR, LF or NUL") }
        if !address.utf8.allSatisfy({ $0 < 0x80 }) {
            throw SMTPError(.invalidMessage, "the \(field) address is not ASCII (SMTPUTF8 is not supported)")
        }
        let forbidden = Set("<>()[]\\,;:\"".utf8)
        guard address.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f && !forbidden.contains($0) }) else {
            throw SMTPError(.invalidMessage, "the \(field) address contains spaces, control characters or specials")
        }
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, parts[0].utf8.count <= 64, address.utf8.count <= 254,
            !parts[1].hasPrefix("."), !parts[1].hasSuffix("."), !parts[1].contains("..")
        else {
            throw SMTPError(.invalidMessage, "the \(field) address is not of the form local@domain")
        }
    }
}

extension StringProtocol {
    var containsLineBreakOrNUL: Bool {
        utf8.contains { $0 == 0x0d || $0 == 0x0a || $0 == 0 }
    }
}
