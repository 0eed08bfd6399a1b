import Foundation

extension MailMessage {
    /// The message as SMTP's DATA carries it (before dot-stuffing): headers, then a `multipart/alternative`
    /// body with a text/plain and a text/html part, both UTF-8 and quoted-printable. CRLF line ends, no line
    /// longer than 76 characters; non-ASCII header text as RFC 2047 encoded words.
    ///
    /// - Parameters:
    ///   - date: the `Date` header.
    ///   - boundary: the multipart boundary; random when `nil`. It must not occur in the parts (the random
    ///     one starts with `=_`, which quoted-printable never writes).
    public func rendered(date: Date, boundary: String? = nil) throws(SMTPError) -> String {
        try validate()
        let boundary = boundary ?? Self.randomBoundary()
        var headers = [
            MIME.mailbox("From", from),
            MIME.mailbox("To", to),
        ]
        if let replyTo { headers.append(MIME.mailbox("Reply-To", replyTo)) }
        headers += [
            MIME.unstructured("Subject", subject),
            "Date: \(MIME.date(date))",
            MIME.field("Message-ID", ["<\(messageID)>"]),
            "MIME-Version: 1.0",
            "Auto-Submitted: auto-generated",
            MIME.field("Content-Type", ["multipart/alternative;", "boundary=\"\(boundary)\""]),
        ]
        func part(_ type: String, _ body: String) -> String {
            """
            --\(boundary)\r
            Content-Type: \(type); charset=UTF-8\r
            Content-Transfer-Encoding: quoted-printable\r
            \r
            \(MIME.quotedPrintable(body))\r

            """
        }
        return headers.joined(separator: "\r\n") + "\r\n\r\n" + part("text/plain", textBody) + part("text/html", htmlBody)
            + "--\(boundary)--\r\n"
    }

    static func randomBoundary() -> String {
        var generator = SystemRandomNumberGenerator()
        let hex = (0..<2).map { _ in String(generator.next() as UInt64, radix: 16) }.joined(separator: ".")
        return "=_hearth_\(hex)"
    }
}
