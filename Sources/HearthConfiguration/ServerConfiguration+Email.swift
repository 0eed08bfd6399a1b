import Configuration
import Foundation
import HearthCore
import HearthMail
import HearthProviders

extension ServerConfiguration {
    /// E-mail actions (password reset, verification, e-mail change, e-mail-link sign-in) and their delivery:
    /// `email.*` in docs/configuration.md.
    public struct Email: Sendable {
        /// `email.smtp.url`: `smtps://user:password@host:465` (implicit TLS) or `smtp://user:password@host:587`
        /// (STARTTLS, required); `smtp://host:25?starttls=off` only for a relay on loopback. A secret: never
        /// printed. Unset: no mail leaves; development mode keeps them in its outbox (`/sandbox/mail`).
        public var smtpURL: String?
        /// `email.smtp.caFile`: a PEM certificate to trust for the mail server, besides the system's roots.
        public var smtpCAFile: String?
        public var smtpTimeout: TimeInterval = 30
        /// `email.from`: `Name <address>` or a bare address.
        public var from: String?
        public var replyTo: String?
        /// `email.appName`: the name mails and the action page give the app. Unset: the project id.
        public var appName: String?
        /// `email.templatesDirectory`: Mustache files that replace the built-in mails (see docs/configuration.md).
        public var templatesDirectory: String?
        /// How long an action link works.
        public var linkLifetime: TimeInterval = 3_600
        /// `email.actionURL`: the page links open. Unset: `<server.publicURL>/__/auth/action`.
        public var actionURL: String?
        /// `email.authorizedDomains`: hosts a `continueUrl` may point at, besides `localhost` and the hosts of
        /// `server.publicURL`, `email.actionURL`, `browserSignIn.returnURLs` and `browserSignIn.callbackURLs`.
        public var authorizedDomains: [String] = []
        /// Mails per minute from the whole server (every replica).
        public var perMinute = RateLimit("mail-per-minute", limit: 60, window: 60)
        /// Mails per hour to one address.
        public var perRecipient = RateLimit("mail-per-recipient", limit: 5, window: 3_600)
        /// Delivery attempts before a mail is given up.
        public var maxAttempts = 10
        public init() {}
    }

    /// Where mails go, for the start-up banner: the mail server without its credentials, or why none leave.
    public var mailDescription: String {
        guard let url = email.smtpURL else {
            return mode == .development
                ? "kept in the outbox at /sandbox/mail (links also in the log); set email.smtp.url to send"
                : "not sent: email.smtp.url is not set (password reset and verification answer OPERATION_NOT_ALLOWED)"
        }
        guard let smtp = try? SMTPConfiguration(url: url) else { return "email.smtp.url" }
        let security =
            switch smtp.security {
            case .startTLS: "STARTTLS"
            case .implicitTLS: "TLS"
            case .none: "no TLS"
            }
        return "\(smtp.host):\(smtp.port) (\(security)\(smtp.username == nil ? "" : ", AUTH")) from \(email.from ?? "?")"
    }

    /// Reads `email.*`. Every key is read whatever the others say (``KnownSettings`` learns the keys by reading).
    static func readEmail(_ r: ConfigValues) throws -> Email {
        var email = Email()
        email.smtpURL = try r.string("email.smtp.url", isSecret: true)
        if let url = email.smtpURL {
            // HearthMail's own reading, so that what starts is what sends; its messages never quote the password.
            do {
                try SMTPConfiguration(url: url).validate()
            } catch {
                throw ConfigurationError(
                    key: "email.smtp.url",
                    problem: "\(error.context); expected smtps://user:password@host:465 or smtp://user:password@host:587")
            }
        }
        email.smtpCAFile = try r.string("email.smtp.caFile")
        if let path = email.smtpCAFile {
            let pem = try SettingFiles.text(atPath: path, key: "email.smtp.caFile")
            guard pem.contains("BEGIN CERTIFICATE") else {
                throw ConfigurationError(key: "email.smtp.caFile", problem: "\(path) holds no PEM certificate (BEGIN CERTIFICATE)")
            }
        }
        email.smtpTimeout = TimeInterval(try r.int("email.smtp.timeoutSeconds", in: 1...600) ?? Int(email.smtpTimeout))
        email.from = try r.string("email.from")
        email.replyTo = try r.string("email.replyTo")
        for (key, value) in [("email.from", email.from), ("email.replyTo", email.replyTo)] {
            if let value, MailboxText.parse(value) == nil {
                throw ConfigurationError(key: key, problem: "expected an address such as no-reply@example.com or \"Example <no-reply@example.com>\"")
            }
        }
        email.appName = try r.string("email.appName")
        if let name = email.appName, name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) || name.count > 100 {
            throw ConfigurationError(key: "email.appName", problem: "at most 100 characters, no control characters")
        }
        email.templatesDirectory = try r.string("email.templatesDirectory")
        email.linkLifetime = TimeInterval(try r.int("email.linkLifetimeSeconds", in: 60...(7 * 86_400)) ?? Int(email.linkLifetime))
        if let text = try r.string("email.actionURL") {
            guard let parsed = URLComponents(string: text), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""),
                parsed.host?.isEmpty == false, parsed.query == nil, parsed.fragment == nil, parsed.user == nil
            else {
                throw ConfigurationError(key: "email.actionURL", problem: "expected an http(s) URL without query or fragment")
            }
            email.actionURL = text
        }
        email.authorizedDomains = try r.stringArray("email.authorizedDomains") ?? []
        for domain in email.authorizedDomains where !Self.isHostName(domain) {
            throw ConfigurationError(key: "email.authorizedDomains", problem: "\(domain) is not a host name (no scheme, port or path)")
        }
        email.perMinute.limit = try r.int("email.limits.perMinute", in: 0...100_000) ?? email.perMinute.limit
        email.perRecipient.limit = try r.int("email.limits.perAddressPerHour", in: 0...10_000) ?? email.perRecipient.limit
        email.maxAttempts = try r.int("email.delivery.maxAttempts", in: 1...100) ?? email.maxAttempts
        return email
    }
}

/// `Name <address>` or `address`, as the settings give a mailbox.
public enum MailboxText {
    /// The address and the name, or `nil` when the text is not one mailbox (no control characters, one `@`).
    public static func parse(_ text: String) -> (address: String, name: String?)? {
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return nil }
        var address = text
        var name: String?
        if text.hasSuffix(">"), let open = text.lastIndex(of: "<") {
            address = String(text[text.index(after: open)..<text.index(before: text.endIndex)])
            let rawName = text[..<open].trimmingCharacters(in: .whitespaces)
            let unquoted = rawName.hasPrefix("\"") && rawName.hasSuffix("\"") && rawName.count >= 2 ? String(rawName.dropFirst().dropLast()) : rawName
            name = unquoted.isEmpty ? nil : unquoted
        }
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty,
            !address.contains(where: { $0 == " " || $0 == "<" || $0 == ">" || $0 == "\"" || $0 == "," })
        else { return nil }
        return (address, name)
    }
}

extension ServerConfiguration {
    /// Whether `text` is a bare host name, as `email.authorizedDomains` lists them.
    static func isHostName(_ text: String) -> Bool {
        guard let url = ReturnURL("https://\(text)/"), url.host != nil, url.port == 443, url.path == "/" else { return false }
        return !text.contains(":") && !text.contains("/")
    }
}
