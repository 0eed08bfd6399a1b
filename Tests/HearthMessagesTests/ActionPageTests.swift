import Foundation
import HearthCore
import Testing

@testable import HearthMessages

/// The hosted action handler's pages: every state in every language, complete and accessible documents without
/// script, forms that only ever post to the handler, and every value escaped.
@Suite("Action page")
struct ActionPageTests {
    static let code = "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde"
    static let continueURL = "https://app.example.com/done?a=1&b=\"2\""

    static let states: [ActionPage.State] =
        [
            .resetPasswordForm(email: "ada@example.com", oobCode: code, continueURL: continueURL, error: nil),
            .resetPasswordForm(email: "ada@example.com", oobCode: code, continueURL: nil, error: .passwordsDiffer),
            .resetPasswordForm(email: "ada@example.com", oobCode: code, continueURL: nil, error: .tooShort(minimumLength: 12)),
            .resetPasswordForm(
                email: "ada@example.com", oobCode: code, continueURL: nil, error: .requirementsNotMet(message: "Needs a digit.")),
            .resetPasswordForm(email: "ada@example.com", oobCode: code, continueURL: nil, error: .failed),
            .resetPasswordDone(continueURL: continueURL),
            .resetPasswordDone(continueURL: nil),
            .emailVerified(continueURL: continueURL),
            .emailChanged(newEmail: "new@example.com", continueURL: continueURL),
            .emailRecovered(email: "ada@example.com", continueURL: continueURL, resetOffered: true),
            .emailRecovered(email: "ada@example.com", continueURL: nil, resetOffered: false),
            .resetMailSent(email: "ada@example.com", continueURL: continueURL),
            .secondFactorReverted(continueURL: continueURL),
            .secondFactorReverted(continueURL: nil),
        ]
        + ActionCodeKind.allCases.map {
            .confirm(kind: $0, email: "ada@example.com", newEmail: "new@example.com", oobCode: code, continueURL: continueURL)
        }
        + ActionCodeKind.allCases.map { .confirm(kind: $0, email: "ada@example.com", newEmail: nil, oobCode: code, continueURL: nil) }
        + ActionPage.FailureReason.allCases.map { .failed(reason: $0) }

    static let cases: [(Int, EmailActionLanguage)] = states.indices.flatMap { index in EmailActionLanguage.allCases.map { (index, $0) } }

    static func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    @Test("every state renders in every language as a complete document without script", arguments: cases)
    func everyStateAndLanguage(index: Int, language: EmailActionLanguage) {
        let state = Self.states[index]
        let html = ActionPage.render(state, languageCode: language.code, appName: "Example App")
        #expect(html.hasPrefix("<!doctype html>\n<html lang=\"\(language.code)\" dir=\"ltr\">"))
        #expect(html.hasSuffix("</html>\n"))
        #expect(!html.lowercased().contains("<script"))
        #expect(!html.lowercased().contains("javascript:"))
        for handler in ["onclick=", "onload=", "onerror=", "onsubmit=", "onfocus="] {
            #expect(!html.contains(handler))
        }
        #expect(!html.contains("src="))
        #expect(!html.contains("<link"))
        #expect(!html.contains("http://"))
        #expect(Self.count("<main>", in: html) == 1)
        #expect(Self.count("<h1>", in: html) == 1)
        #expect(Self.count("<title>", in: html) == 1)
        #expect(html.contains("<meta charset=\"utf-8\">"))
        #expect(html.contains("<meta name=\"viewport\""))
        #expect(html.contains("Example App"))
        // Forms post to the handler, and only there, with the language.
        let forms = Self.count("<form ", in: html)
        #expect(forms == Self.count("<form method=\"post\" action=\"/__/auth/action\">", in: html))
        #expect(Self.count("<button type=\"submit\"", in: html) == forms)
        if forms > 0 {
            #expect(html.contains("<input type=\"hidden\" name=\"lang\" value=\"\(language.code)\">"))
        }
        switch state {
        case .resetPasswordForm(_, _, _, let error):
            #expect(forms == 1)
            #expect(html.contains("<input type=\"hidden\" name=\"mode\" value=\"resetPassword\">"))
            #expect(html.contains("<input type=\"hidden\" name=\"oobCode\" value=\"\(Self.code)\">"))
            #expect(Self.count("autocomplete=\"new-password\"", in: html) == 2)
            #expect(html.contains("<label for=\"new-password\">"))
            #expect(html.contains("<label for=\"confirm-password\">"))
            #expect(html.contains("id=\"new-password\" name=\"newPassword\""))
            #expect(html.contains("id=\"confirm-password\" name=\"confirmPassword\""))
            #expect(html.contains("role=\"alert\"") == (error != nil))
            if case .tooShort = error { #expect(html.contains("12")) }
            if case .requirementsNotMet = error { #expect(html.contains("Needs a digit.")) }
        case .confirm(let kind, _, _, _, let continueURL):
            #expect(forms == 1)
            #expect(html.contains("<input type=\"hidden\" name=\"mode\" value=\"\(kind.mode)\">"))
            #expect(html.contains("<input type=\"hidden\" name=\"oobCode\" value=\"\(Self.code)\">"))
            #expect(html.contains("name=\"continueUrl\"") == (continueURL != nil))
            #expect(!html.contains("<a "), "the only way on is the button")
        case .emailRecovered(_, _, let resetOffered):
            #expect(forms == (resetOffered ? 1 : 0))
            if resetOffered {
                #expect(html.contains("<input type=\"hidden\" name=\"mode\" value=\"\(ActionPage.sendPasswordResetMode)\">"))
                #expect(html.contains("<input type=\"hidden\" name=\"email\" value=\"ada@example.com\">"))
            }
        case .failed:
            #expect(forms == 0)
            #expect(!html.contains("<a "))
        default:
            #expect(forms == 0)
        }
        // The continue link, escaped, wherever there is one outside a confirmation.
        let escapedContinue = "https://app.example.com/done?a=1&amp;b=&quot;2&quot;"
        if case .confirm = state {
        } else if html.contains("name=\"continueUrl\"") || Self.hasContinue(state) {
            #expect(html.contains("<a class=\"button\" href=\"\(escapedContinue)\">"))
        }
        #expect(!html.contains(Self.continueURL))
    }

    static func hasContinue(_ state: ActionPage.State) -> Bool {
        switch state {
        case .resetPasswordForm(_, _, let url, _), .resetPasswordDone(let url), .emailVerified(let url), .emailChanged(_, let url),
            .emailRecovered(_, let url, _), .resetMailSent(_, let url), .secondFactorReverted(let url):
            url != nil
        case .confirm, .failed: false
        }
    }

    @Test("each language has its own words for each state")
    func translated() {
        for state in Self.states {
            let english = ActionPage.render(state, languageCode: "en", appName: "Example App")
            for language in EmailActionLanguage.allCases where language != .english {
                #expect(
                    ActionPage.render(state, languageCode: language.code, appName: "Example App")
                        != english.replacingOccurrences(
                            of: "lang=\"en\"", with: "lang=\"\(language.code)\""))
            }
        }
        let headings = Set(
            ActionPage.FailureReason.allCases.map { reason in
                let html = ActionPage.render(.failed(reason: reason), languageCode: "bn", appName: "A")
                return html.components(separatedBy: "<h1>")[1].components(separatedBy: "</h1>")[0]
            })
        #expect(headings.count == ActionPage.FailureReason.allCases.count)
    }

    @Test("the language comes from the code as a client sends it", arguments: [("hi-IN", "hi"), ("ES", "es"), ("pt_BR", "en"), (nil, "en")])
    func language(code: String?, expected: String) {
        let html = ActionPage.render(.emailVerified(continueURL: nil), languageCode: code, appName: "A")
        #expect(html.contains("<html lang=\"\(expected)\" dir=\"ltr\">"))
    }

    @Test("every value is escaped: the display name, the addresses, the code, the continue URL and the policy's message")
    func escaping() {
        let hostile = #""><script>alert('x')</script>&"#
        let escaped = "&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;"
        let states: [ActionPage.State] = [
            .resetPasswordForm(
                email: hostile, oobCode: hostile, continueURL: "https://a.example/\(hostile)", error: .requirementsNotMet(message: hostile)),
            .confirm(kind: .recoverEmail, email: hostile, newEmail: hostile, oobCode: hostile, continueURL: "https://a.example/\(hostile)"),
            .confirm(kind: .verifyAndChangeEmail, email: hostile, newEmail: hostile, oobCode: hostile, continueURL: nil),
            .emailChanged(newEmail: hostile, continueURL: "https://a.example/\(hostile)"),
            .emailRecovered(email: hostile, continueURL: "https://a.example/\(hostile)", resetOffered: true),
            .resetMailSent(email: hostile, continueURL: nil),
            .failed(reason: .expired),
        ]
        for state in states {
            for language in EmailActionLanguage.allCases {
                let html = ActionPage.render(state, languageCode: language.code, appName: hostile)
                #expect(!html.contains("<script"), "\(state)")
                #expect(!html.contains("'x'"), "\(state)")
                #expect(html.contains(escaped), "\(state)")
            }
        }
    }

    @Test("control characters never reach the page; a display name is one line")
    func controlCharacters() {
        let html = ActionPage.render(
            .resetPasswordForm(email: "a\u{0}b@example.com", oobCode: "c\u{0}\r\nd", continueURL: nil, error: nil), languageCode: "en",
            appName: "Evil\r\n\u{0}App\u{202E}")
        #expect(!html.contains("\u{0}"))
        #expect(!html.contains("\r"))
        #expect(!html.contains("\u{202E}"))
        #expect(html.contains("<p class=\"app\">Evil App</p>"))
        #expect(html.contains("<title>Reset your password – Evil App</title>"))
    }

    @Test("a continue URL that is not http or https gets no link")
    func continueSchemes() {
        for url in ["javascript:alert(1)", "JavaScript:alert(1)", "data:text/html,x", "//evil.example/", "not a url", ""] {
            let html = ActionPage.render(.emailVerified(continueURL: url), languageCode: "en", appName: "A")
            #expect(!html.contains("<a "), "\(url)")
        }
        for url in ["https://app.example/", "HTTP://app.example/x"] {
            let html = ActionPage.render(.emailVerified(continueURL: url), languageCode: "en", appName: "A")
            #expect(html.contains("<a class=\"button\" href=\"\(url)\">Continue</a>"), "\(url)")
        }
    }

    @Test("the reset form's error region says what went wrong and marks the fields")
    func resetFormErrors() {
        func page(_ error: ActionPage.ResetFormError?, _ language: String = "en") -> String {
            ActionPage.render(
                .resetPasswordForm(email: "ada@example.com", oobCode: Self.code, continueURL: nil, error: error), languageCode: language, appName: "A"
            )
        }
        #expect(page(.passwordsDiffer).contains("<div class=\"error\" id=\"form-error\" role=\"alert\"><p>The two passwords do not match.</p></div>"))
        #expect(page(.tooShort(minimumLength: 10)).contains("at least 10 characters"))
        #expect(page(.tooShort(minimumLength: 10), "es").contains("al menos 10 caracteres"))
        #expect(page(.requirementsNotMet(message: "Use a digit.")).contains("<p>Use a digit.</p>"))
        #expect(page(.failed).contains("Please try again."))
        #expect(Self.count("aria-invalid=\"true\"", in: page(.passwordsDiffer)) == 2)
        #expect(!page(nil).contains("aria-invalid=\"true\""))
        #expect(!page(nil).contains("role=\"alert\""))
        // The labels come before their fields, the error before both, the button last.
        let html = page(.passwordsDiffer)
        let order = [
            "role=\"alert\"", "for=\"new-password\"", "id=\"new-password\"", "for=\"confirm-password\"", "id=\"confirm-password\"", "<button",
        ]
        let positions = order.map { html.range(of: $0)!.lowerBound }
        #expect(positions == positions.sorted())
    }

    @Test("the pages need nothing their policy withholds: one inline <style>, no style attributes, no resources")
    func policy() {
        let policy = ActionPage.contentSecurityPolicy
        #expect(policy.contains("default-src 'none'"))
        #expect(policy.contains("style-src 'unsafe-inline'"))
        #expect(policy.contains("form-action 'self'"))
        #expect(!policy.contains("script-src"))
        for state in Self.states {
            let html = ActionPage.render(state, languageCode: "hi", appName: "A")
            #expect(!html.contains("style=\""))
            #expect(Self.count("<style>", in: html) == 1)
            #expect(!html.contains("url("))
        }
    }
}
