import Foundation
import Testing

@testable import HearthMail

@Suite struct MailMessageTests {
    static func message(
        subject: String = "Reset your password", text: String = "Open https://hearth.example/reset?oobCode=abc",
        html: String = "<p><a href=\"https://hearth.example/reset?oobCode=abc\">Reset</a></p>", fromName: String? = "Hearth"
    ) -> MailMessage {
        MailMessage(
            from: MailAddress("no-reply@hearth.example", name: fromName), to: MailAddress("ada@example.com", name: "Ada Lovelace"),
            replyTo: MailAddress("support@hearth.example"), subject: subject, textBody: text, htmlBody: html,
            messageID: "3f2a9c@hearth.example")
    }

    static let date = Date(timeIntervalSince1970: 1_751_360_700)  // Tue, 01 Jul 2025 09:05:00 +0000

    @Test func rendersHeadersAndTwoQuotedPrintableParts() throws {
        let rendered = try Self.message().rendered(date: Self.date, boundary: "=_b")
        #expect(rendered.hasPrefix("From: Hearth <no-reply@hearth.example>\r\nTo: Ada Lovelace <ada@example.com>\r\n"))
        #expect(rendered.contains("\r\nReply-To: support@hearth.example\r\n"))
        #expect(rendered.contains("\r\nSubject: Reset your password\r\n"))
        #expect(rendered.contains("\r\nDate: Tue, 01 Jul 2025 09:05:00 +0000\r\n"))
        #expect(rendered.contains("\r\nMessage-ID: <3f2a9c@hearth.example>\r\n"))
        #expect(rendered.contains("\r\nMIME-Version: 1.0\r\nAuto-Submitted: auto-generated\r\n"))
        #expect(rendered.contains("Content-Type: multipart/alternative; boundary=\"=_b\"\r\n\r\n--=_b\r\n"))
        #expect(rendered.contains("Content-Type: text/plain; charset=UTF-8\r\nContent-Transfer-Encoding: quoted-printable\r\n"))
        #expect(rendered.contains("Content-Type: text/html; charset=UTF-8\r\nContent-Transfer-Encoding: quoted-printable\r\n"))
        #expect(rendered.contains("oobCode=3Dabc"))
        #expect(rendered.hasSuffix("\r\n--=_b--\r\n"))
        Self.expectWellFormed(rendered)
    }

    /// CRLF only, no line longer than 76 characters, nothing but ASCII.
    static func expectWellFormed(_ rendered: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let bytes = Array(rendered.utf8)
        #expect(bytes.allSatisfy { $0 < 0x80 }, "non-ASCII byte", sourceLocation: sourceLocation)
        for (index, byte) in bytes.enumerated() where byte == 0x0a {
            #expect(index > 0 && bytes[index - 1] == 0x0d, "bare LF", sourceLocation: sourceLocation)
        }
        for (index, byte) in bytes.enumerated() where byte == 0x0d {
            #expect(index + 1 < bytes.count && bytes[index + 1] == 0x0a, "bare CR", sourceLocation: sourceLocation)
        }
        for line in rendered.components(separatedBy: "\r\n") {
            #expect(line.utf8.count <= 76, "line of \(line.utf8.count) characters: \(line)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: [
        "पासवर्ड रीसेट करें",
        "আপনার পাসওয়ার্ড রিসেট করুন — হার্থ অ্যাকাউন্টের জন্য একটি নতুন পাসওয়ার্ড বেছে নিন",
        "🔐 Reset 👨‍👩‍👧‍👦 your password",
        String(repeating: "पासवर्ड रीसेट करें ", count: 8),
    ])
    func encodesNonASCIISubjectsInShortEncodedWords(subject: String) throws {
        let rendered = try Self.message(subject: subject).rendered(date: Self.date)
        Self.expectWellFormed(rendered)
        let field = rendered.components(separatedBy: "\r\n").drop { !$0.hasPrefix("Subject:") }.prefix { !$0.hasPrefix("Date:") }
        #expect(field.first?.hasPrefix("Subject: =?UTF-8?B?") == true)
        // Each encoded word decodes to whole characters, and together they give the subject back.
        var decoded = ""
        for word in field.joined().split(separator: " ").dropFirst() {
            #expect(word.hasPrefix("=?UTF-8?B?") && word.hasSuffix("?=") && word.count <= 75)
            let payload = Data(base64Encoded: String(word.dropFirst(10).dropLast(2)))
            let text = payload.flatMap { String(data: $0, encoding: .utf8) }
            #expect(text != nil)
            decoded += text ?? ""
        }
        #expect(decoded == subject)
    }

    @Test func longASCIISubjectIsFoldedAtSpaces() throws {
        let subject = String(repeating: "Reset your Hearth password now ", count: 5).trimmingCharacters(in: .whitespaces)
        let rendered = try Self.message(subject: subject).rendered(date: Self.date)
        Self.expectWellFormed(rendered)
        #expect(rendered.contains("Subject: Reset your Hearth"))
        let unfolded = rendered.replacingOccurrences(of: "\r\n ", with: " ")
        #expect(unfolded.contains("Subject: \(subject)\r\n"))
    }

    @Test func displayNamesWithSpecialsAreQuotedAndNonASCIIOnesEncoded() throws {
        let quoted = try Self.message(fromName: "Hearth, \"Support\" \\ Team").rendered(date: Self.date)
        #expect(quoted.hasPrefix("From: \"Hearth, \\\"Support\\\" \\\\ Team\" <no-reply@hearth.example>\r\n"))
        let encoded = try Self.message(fromName: "হার্থ সহায়তা").rendered(date: Self.date)
        #expect(encoded.hasPrefix("From: =?UTF-8?B?"))
        #expect(encoded.contains("?= <no-reply@hearth.example>\r\n") || encoded.contains("\r\n <no-reply@hearth.example>\r\n"))
        Self.expectWellFormed(encoded)
    }

    @Test func quotedPrintableKeepsLinesShortAndEncodesWhatItMust() {
        #expect(MIME.quotedPrintable("a=b\nc \r\nd\te\rf") == "a=3Db\r\nc=20\r\nd\te\r\nf")
        #expect(MIME.quotedPrintable("पा") == "=E0=A4=AA=E0=A4=BE")
        let long = MIME.quotedPrintable(String(repeating: "x", count: 200) + String(repeating: "é", count: 40))
        for line in long.components(separatedBy: "\r\n") {
            #expect(line.utf8.count <= 76)
        }
        #expect(long.replacingOccurrences(of: "=\r\n", with: "").hasPrefix(String(repeating: "x", count: 200)))
        #expect(!long.contains("=\r\n=\r\n"))
        #expect(MIME.quotedPrintable(".hidden\n..two") == ".hidden\r\n..two")
    }

    @Test func dotStuffingDoublesLeadingDotsAndEndsTheData() {
        #expect(SMTPClient.dotStuffed("a\r\n.b\r\n..c\r\n") == Array("a\r\n..b\r\n...c\r\n.\r\n".utf8))
        #expect(SMTPClient.dotStuffed(".") == Array("..\r\n.\r\n".utf8))
    }

    @Test func datesAreRFC5322InUTC() {
        #expect(MIME.date(Date(timeIntervalSince1970: 0)) == "Thu, 01 Jan 1970 00:00:00 +0000")
        #expect(MIME.date(Date(timeIntervalSince1970: 951_782_400)) == "Tue, 29 Feb 2000 00:00:00 +0000")
        #expect(MIME.date(Date(timeIntervalSince1970: 4_102_444_799)) == "Thu, 31 Dec 2099 23:59:59 +0000")
    }

    @Test(arguments: [
        ("subject", "Reset\r\nBcc: victim@example.com"),
        ("subject", "Reset\nBcc: victim@example.com"),
        ("subject", "Reset\0"),
        ("fromName", "Hearth\r\nBcc: victim@example.com"),
        ("toName", "Ada\n"),
        ("toAddress", "ada@example.com\r\nRCPT TO:<victim@example.com>"),
        ("fromAddress", "no-reply@hearth.example>\0"),
        ("replyTo", "support@hearth.example\r\nBcc: x@example.com"),
        ("messageID", "id@hearth.example>\r\nBcc: x@example.com"),
    ])
    func headerInjectionIsRefused(field: String, value: String) async throws {
        var message = Self.message()
        switch field {
        case "subject": message.subject = value
        case "fromName": message.from.name = value
        case "toName": message.to.name = value
        case "toAddress": message.to.address = value
        case "fromAddress": message.from.address = value
        case "replyTo": message.replyTo = MailAddress(value)
        default: message.messageID = value
        }
        #expect(throws: SMTPError(.invalidMessage, "")) { try message.rendered(date: Self.date) }
        // The client refuses it before connecting: nothing listens on port 9 of this documentation address.
        let client = SMTPClient(configuration: SMTPConfiguration(host: "192.0.2.1", port: 9, security: .none, timeout: .seconds(1)))
        await #expect(throws: SMTPError(.invalidMessage, "")) { try await client.send(message) }
    }

    @Test(arguments: ["", "ada", "ada@", "@example.com", "a@b@c", "ada lovelace@example.com", "adä@example.com", "<ada@example.com>"])
    func invalidAddressesAreRefused(address: String) {
        var message = Self.message()
        message.to.address = address
        #expect(throws: SMTPError(.invalidMessage, "")) { try message.validate() }
    }

    @Test func errorsSayWhichFieldAndArePermanent() {
        var message = Self.message()
        message.subject = "x\r\nBcc: y"
        do {
            try message.validate()
            Issue.record("no error")
        } catch {
            #expect(error.description.contains("Subject"))
            #expect(!error.description.contains("Bcc"))
            #expect(error.isPermanent)
        }
    }
}
