import Foundation
import HearthConfiguration
import HearthCore
import HearthMail
import Logging

/// Delivers queued mails to the mail server of `email.smtp.url` with ``HearthMail/SMTPClient``: one connection
/// a mail, from `email.from` (with `email.replyTo`), a `Message-ID` made of the mail's id so that a mail sent
/// twice is recognisably the same.
struct SMTPMailTransport: MailTransport {
    let client: SMTPClient
    let from: MailAddress
    let replyTo: MailAddress?
    /// The domain part of `Message-ID`s: the sender's.
    let messageIDDomain: String

    init(configuration: ServerConfiguration, logger: Logger) throws {
        guard let url = configuration.email.smtpURL else { throw ConfigurationError(key: "email.smtp.url", problem: "not set") }
        var smtp: SMTPConfiguration
        do {
            smtp = try SMTPConfiguration(url: url)
            try smtp.validate()
        } catch {
            throw ConfigurationError(key: "email.smtp.url", problem: error.description)
        }
        smtp.timeout = .seconds(configuration.email.smtpTimeout)
        if let caFile = configuration.email.smtpCAFile { smtp.trustRoots = .systemAnd(certificateFile: caFile) }
        if let host = configuration.publicURL.flatMap({ URL(string: $0)?.host }) { smtp.heloName = host }
        guard let fromText = configuration.email.from ?? (configuration.mode == .development ? "Hearth <no-reply@localhost>" : nil),
            let from = MailboxText.parse(fromText)
        else {
            throw ConfigurationError(
                key: "email.from", problem: "needed with email.smtp.url: the sender of Hearth's mails, e.g. \"Example <no-reply@example.com>\"")
        }
        client = SMTPClient(configuration: smtp, logger: logger)
        self.from = MailAddress(from.address, name: from.name)
        replyTo = configuration.email.replyTo.flatMap(MailboxText.parse).map { MailAddress($0.address, name: $0.name) }
        messageIDDomain = String(from.address.split(separator: "@").last ?? "localhost")
    }

    func deliver(_ mail: OutgoingMail) async throws {
        let message = MailMessage(
            from: from, to: MailAddress(mail.recipient), replyTo: replyTo, subject: mail.subject, textBody: mail.textBody,
            htmlBody: mail.htmlBody, messageID: "\(mail.id)@\(messageIDDomain)")
        do {
            try await client.send(message)
        } catch let error as SMTPError {
            throw MailDeliveryFailure(error.description, permanent: error.isPermanent)
        }
    }
}
