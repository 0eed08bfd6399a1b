import Foundation
import HTTPTypes
import HearthCore
import HearthServer
import Hummingbird
import NIOCore

/// Development mode's outbox: the mails the server queued, newest first, at `/sandbox/mail`, with their links
/// clickable; and the Firebase emulator's `GET /emulator/v1/projects/{project}/oobCodes`, which test tooling
/// reads to follow a link without a mail server. Both read the mail queue in the database, so they show what a
/// mail server would have received (bodies are kept until the mail is sent; without `email.smtp.url` it never is).
struct MailOutbox: Sendable {
    let store: any HearthStore
    let projectID: String

    /// How many mails the pages show.
    static let shownMails = 50

    func addRoutes(to router: Router<HearthRequestContext>) {
        router.get("\(SandboxExtension.mountPath)/mail", use: page)
        router.get("/emulator/v1/projects/:project/oobCodes", use: oobCodes)
    }

    @Sendable func page(_ request: Request, context: HearthRequestContext) async throws -> Response {
        let mails = try await store.recentMails(limit: Self.shownMails)
        var items = ""
        for mail in mails {
            let state =
                if mail.sentAt != nil { "sent" } else if mail.failedAt != nil { "given up" } else { "in the outbox" }
            items += """
                <li><article><h2>\(Self.escaped(mail.subject))</h2>
                <p class="meta">To <b>\(Self.escaped(mail.recipient))</b> · \(Self.escaped(mail.purpose)) · \(Self.escaped(mail.languageCode)) · \
                \(Self.escaped(ISO8601DateFormatter().string(from: mail.createdAt))) · \(state)</p>
                <pre>\(Self.linked(mail.textBody))</pre></article></li>

                """
        }
        return Self.page(
            title: "Outbox",
            itemStyle: "h2{font-size:1.1rem;margin:.2rem 0}"
                + "pre{white-space:pre-wrap;word-break:break-all;background:#f6f6f6;padding:.5rem}pre a{display:block;color:#0645ad}",
            banner: "Development mode: these mails were not sent. Newest first; the last \(Self.shownMails) are shown.",
            items: mails.isEmpty ? nil : items, empty: "No mail yet.")
    }

    /// A development-mode outbox page: a banner that says nothing was sent, then the items newest first (or `empty`).
    /// `items` are list items already escaped.
    static func page(title: String, itemStyle: String, banner: String, items: String?, empty: String) -> Response {
        let html = """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title) · Hearth development mode</title><style>
            body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;max-width:50rem;padding:1rem;color:#1b1b1b}
            .banner{background:#ffe8a3;border:1px solid #b38600;padding:.5rem 1rem;border-radius:.4rem}
            ol{list-style:none;padding:0}li{border-bottom:1px solid #ccc;padding:.5rem 0}.meta{color:#444;margin:0}
            \(itemStyle)
            </style></head><body><main><h1>\(title)</h1>
            <p class="banner">\(banner)</p>
            \(items.map { "<ol>\n\($0)</ol>" } ?? "<p>\(empty)</p>")
            </main></body></html>
            """
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'", HTTPField.Name("X-Frame-Options")!: "DENY",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    /// `{"oobCodes": [{"email", "oobCode", "oobLink", "requestType"}]}`, oldest first, as the emulator lists them;
    /// `PROJECT_NOT_FOUND` (404) for another project.
    @Sendable func oobCodes(_ request: Request, context: HearthRequestContext) async throws -> Response {
        struct Listing: Encodable {
            struct Code: Encodable {
                let email: String
                let oobCode: String
                let oobLink: String
                let requestType: String
            }
            let oobCodes: [Code]
        }
        // Another project is Google's error envelope, as on the project-scoped admin routes.
        guard context.parameters.get("project") == projectID else { throw HearthError(.projectNotFound) }
        let mails = try await store.recentMails(limit: 1_000)
        let codes = mails.reversed().compactMap { mail -> Listing.Code? in
            guard let link = Self.actionLink(in: mail.textBody),
                let code = URLComponents(string: link)?.queryItems?.first(where: { $0.name == "oobCode" })?.value
            else { return nil }
            return Listing.Code(email: mail.recipient, oobCode: code, oobLink: link, requestType: mail.purpose)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .withoutEscapingSlashes]
        let body = try encoder.encode(Listing(oobCodes: codes))
        return Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// The first URL in `text` that carries an `oobCode`.
    static func actionLink(in text: String) -> String? {
        urls(in: text).first { $0.contains("oobCode=") }
    }

    static func urls(in text: String) -> [String] {
        text.split(whereSeparator: { $0.isWhitespace || $0 == "<" || $0 == ">" || $0 == "\"" }).map(String.init)
            .filter { $0.hasPrefix("http://") || $0.hasPrefix("https://") }
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "'", with: "&#39;")
    }

    /// `text` escaped, its http(s) URLs made links.
    static func linked(_ text: String) -> String {
        var html = escaped(text)
        for url in Set(urls(in: text)) {
            let escapedURL = escaped(url)
            html = html.replacingOccurrences(of: escapedURL, with: "<a href=\"\(escapedURL)\">\(escapedURL)</a>")
        }
        return html
    }
}
