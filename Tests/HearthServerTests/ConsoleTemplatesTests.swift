import Foundation
import HTTPTypes
import HearthConfiguration
import HearthConsole
import HearthCore
import HearthTesting
import Testing

@testable import HearthServer

/// The console's templates page against a live server: every mail and language previewed as sent, the HTML in a
/// sandboxed frame; an owner's template checked, stored and used by the next real mail (through an SMTP server); a
/// hostile template inert in the preview (Chromium); editors and other sites refused.
@Suite("Console templates", .serialized)
struct ConsoleTemplatesTests {
    @Test("the list, each mail previewed with sample values, the HTML frame sandboxed; SMS texts per language")
    func previews() async throws {
        try await ConsoleTests.withConsole { live in
            let client = try await ConsoleTests.signIn(live, try await ConsoleTests.addOperator(live, "vi@example.com", role: .viewer))
            let list = try await client.get("/console/templates")
            #expect(list.status == 200)
            for kind in ActionCodeKind.allCases { #expect(list.body.contains("/console/templates/\(kind.mode)/es")) }
            #expect(list.body.contains("123456") && list.body.contains("<pre lang=\"hi\">"))
            let page = try await client.get("/console/templates/resetPassword/es")
            #expect(page.status == 200)
            #expect(page.body.contains("<iframe class=\"mail\" src=\"/console/templates/resetPassword/es/html\" sandbox"))
            #expect(page.headers["content-security-policy"]?.contains("frame-src 'self'") == true)
            #expect(page.body.contains("mode=resetPassword&amp;oobCode=SAMPLE-CODE"))
            // A viewer sees no form to change it.
            #expect(!page.body.contains("name=\"html\""))
            let frame = try await client.get("/console/templates/resetPassword/es/html")
            #expect(frame.status == 200 && frame.body.contains("SAMPLE-CODE"))
            #expect(frame.headers["content-security-policy"]?.hasPrefix("sandbox; default-src 'none';") == true)
            #expect(frame.headers["x-frame-options"] == "SAMEORIGIN")
            #expect(try await client.get("/console/templates/nothing/es").status == 404)
            #expect(try await client.get("/console/templates/resetPassword/fr").status == 404)
        }
    }

    @Test("an owner's template is checked, stored with an audit event, and used by the next mail sent through SMTP")
    func overrideTakesEffect() async throws {
        let sink = try await SMTPSink.start(security: .startTLS, username: "hearth", password: "mail secret")
        defer { sink.shutdown() }
        try await withLiveHearth({ configuration in
            configuration.mode = .production
            configuration.apiKeys = ["console-test-api-key"]
            configuration.secrets.key = KeyEncryptionKey.generate().base64
            MailDeliveryTests.mailing(through: sink, &configuration)
        }) { live in
            let owner = try await ConsoleTests.signIn(live, try await ConsoleTests.addOperator(live, "own@example.com", role: .owner))
            let editor = try await ConsoleTests.signIn(live, try await ConsoleTests.addOperator(live, "ed@example.com", role: .editor))
            let path = "/console/templates/resetPassword/en"
            let csrf = try #require(try await owner.get(path).csrf)
            // Refused: an unknown variable, a partial, an unclosed section, control characters; nothing stored.
            let refusals = [
                ("subject", "Reset {{password}}", "The subject template was not saved: unknown variable &#39;password&#39;"),
                ("html", "{{> layout}}", "The html template was not saved: partials ({{&gt; name}}) are not supported"),
                ("txt", "{{#link}} open", "The txt template was not saved: line 1"),
                ("txt", "a\u{0}b", "The txt template was not saved: it holds control characters."),
            ]
            for (part, source, message) in refusals {
                let refused = try await owner.post(path, ["csrf": csrf, part: source])
                #expect(refused.status == 400, "\(source)")
                #expect(refused.body.contains(message), "\(source): \(refused.body.firstMatch(of: #/id="notice">[^<]*/#)?.output ?? "")")
            }
            #expect(try await live.services.store.settings(withPrefix: "mail-template/").isEmpty)
            // An editor and another site may not.
            let editorCSRF = try #require(try await editor.get(path).csrf)
            #expect(try await editor.post(path, ["csrf": editorCSRF, "subject": "x"]).status == 403)
            #expect(try await owner.post(path, ["csrf": csrf, "subject": "x"], headers: ["Sec-Fetch-Site": "cross-site"]).status == 403)
            #expect(try await owner.post(path, ["subject": "x"]).status == 403)

            let saved = try await owner.post(
                path, ["csrf": csrf, "subject": "Reset for {{appName}}", "txt": "Hello {{email}}, open {{link}} (lang {{lang}})", "html": ""])
            #expect(saved.status == 303 && saved.location == "\(path)?saved=1")
            let preview = try await owner.get(path)
            #expect(preview.body.contains("<dd id=\"subject\"><bdi>Reset for Notes</bdi></dd>"))
            #expect(preview.body.contains("Hello ada@example.com, open https://example.com/__/auth/action?mode=resetPassword"))
            let events = try await live.services.store.auditEvents(uid: nil, kind: .adminProjectSettingsChanged, after: nil, limit: 5)
            #expect(events.first?.actorID == "operator:own@example.com")
            #expect(events.first?.details["fields"] == "mailTemplate.resetPassword.en.subject,mailTemplate.resetPassword.en.txt")

            // The next real mail uses it; the HTML part stays the built-in one.
            var api = FirebaseTestClient(baseURL: live.baseURL)
            api.apiKey = "console-test-api-key"
            _ = try await api.signUp(email: "ada@example.com", password: "a password")
            let sent = try await api.post("/v1/accounts:sendOobCode", json: #"{"requestType":"PASSWORD_RESET","email":"ada@example.com"}"#)
            #expect(sent.status == .ok)
            let message = try #require(try await sink.waitForMessages(count: 1).first)
            #expect(message.subject == "Reset for Notes")
            let text = try #require(message.textBody)
            #expect(text.hasPrefix("Hello ada@example.com, open \(live.baseURL)/__/auth/action?mode=resetPassword&oobCode="), "\(text)")
            #expect(text.contains("(lang en)"))
            #expect(message.htmlBody?.contains("oobCode=") == true)

            // Emptied, the part is the built-in one again.
            #expect(try await owner.post(path, ["csrf": csrf, "subject": "", "txt": "", "html": ""]).status == 303)
            #expect(try await live.services.store.settings(withPrefix: "mail-template/").isEmpty)
        }
    }

    @Test("Chromium: a hostile template's script and markup stay inert in the preview and on the page")
    func hostileTemplateInert() async throws {
        try await withLiveHearth { live in
            // Development mode: this machine's browser is the owner.
            let hostile = """
                <script>parent.document.body.dataset.pwned = "1"; document.title = "pwned"</script>\
                <img src=x onerror="parent.document.body.dataset.pwned='2'"><p id=mark>{{email}}</p>
                """
            let local = ConsoleHTTPClient(baseURL: live.baseURL)
            let path = "/console/templates/verifyEmail/en"
            let csrf = try #require(try await local.get(path).csrf)
            let saved = try await local.post(path, ["csrf": csrf, "subject": "<script>alert(1)</script> {{appName}}", "html": hostile])
            #expect(saved.status == 303)
            let page = try await local.get(path)
            #expect(!page.body.contains("<script>") && page.body.contains("&lt;script&gt;"))
            try await HeadlessBrowser.with { browser in
                let tab = try await browser.newPage()
                _ = try await tab.navigate(to: try #require(URL(string: live.baseURL + path)))
                #expect(tab.status == 200)
                try await Task.sleep(for: .milliseconds(500))
                #expect(try await tab.evaluate("document.body.dataset.pwned === undefined") == .bool(true))
                #expect(try await tab.evaluate("document.title.includes('pwned')") == .bool(false))
                #expect(try await tab.evaluate("document.querySelector('iframe.mail').getAttribute('sandbox')") == .string(""))
                // The frame is another origin: its document cannot even be read from the page.
                #expect(try await tab.evaluate("document.querySelector('iframe.mail').contentDocument === null") == .bool(true))
                #expect(try await tab.evaluate("document.querySelector('#subject').textContent.includes('<script>')") == .bool(true))
            }
        }
    }
}
