/// A mail to send: one sender, one recipient, a subject, and a plain-text and an HTML part.
public struct MailMessage: Sendable, Equatable {
    public var from: MailAddress
    public var to: MailAddress
    public var replyTo: MailAddress?
    public var subject: String
    public var textBody: String
    public var htmlBody: String
    /// The `Message-ID` without angle brackets, e.g. `"<id>@hearth.example"`.
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
}

/// An address with an optional display name: `"Hearth" <no-reply@example.com>`.
public struct MailAddress: Sendable, Equatable {
    public var address: String
    public var name: String?

    public init(_ address: String, name: String? = nil) {
        self.address = address
        self.name = name
    }
}
