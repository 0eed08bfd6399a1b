import Foundation
import HearthCore
import Testing

@testable import HearthMessages

/// The e-mail action mails: every kind in every language, the language a client's code picks, escaping in the HTML
/// part and none in the text part, one-line subjects, and the operator's override templates.
@Suite("Mail templates")
struct MailTemplatesTests {
    static let link = "https://auth.example.com/__/auth/action?mode=resetPassword&oobCode=abc_DEF-123&lang=hi"
    static let values = MailValues(appName: "Example App", link: link, email: "ada@example.com", newEmail: "new@example.com")

    static let cases: [(ActionCodeKind, EmailActionLanguage)] = ActionCodeKind.allCases.flatMap { kind in
        EmailActionLanguage.allCases.map { (kind, $0) }
    }

    @Test("every kind renders in every language, the link in both parts", arguments: cases)
    func everyKindAndLanguage(kind: ActionCodeKind, language: EmailActionLanguage) throws {
        let mail = try MailTemplates(overrideDirectory: nil).render(kind, languageCode: language.code, values: Self.values)
        #expect(mail.languageCode == language.code)
        #expect(!mail.subject.isEmpty)
        #expect(mail.subject.contains("Example App"))
        #expect(mail.text.contains(Self.link))
        #expect(mail.text.contains("ada@example.com"))
        let escapedLink = Self.link.replacingOccurrences(of: "&", with: "&amp;")
        #expect(mail.html.contains("<a href=\"\(escapedLink)\""))
        #expect(mail.html.components(separatedBy: escapedLink).count - 1 == 3, "button, plain link and its text")
        #expect(mail.html.contains("<html lang=\"\(language.code)\" dir=\"ltr\">"))
        #expect(mail.html.contains("ada@example.com"))
        #expect(!mail.html.contains("<script"))
        #expect(!mail.html.contains("<link"))
        #expect(!mail.html.contains("<img"))
        #expect(!mail.html.contains("{{"))
        #expect(!mail.text.contains("{{"))
        if kind == .recoverEmail {
            #expect(mail.text.contains("new@example.com"))
        }
    }

    @Test("the mails of each language differ from English, and the kinds from each other")
    func translated() throws {
        let templates = try MailTemplates(overrideDirectory: nil)
        for kind in ActionCodeKind.allCases {
            let english = templates.render(kind, languageCode: "en", values: Self.values)
            for language in EmailActionLanguage.allCases where language != .english {
                let mail = templates.render(kind, languageCode: language.code, values: Self.values)
                #expect(mail.subject != english.subject, "\(kind) \(language)")
                #expect(mail.text != english.text, "\(kind) \(language)")
            }
        }
        let subjects = Set(ActionCodeKind.allCases.map { templates.render($0, languageCode: "es", values: Self.values).subject })
        #expect(subjects.count == ActionCodeKind.allCases.count)
    }

    @Test(
        "the language comes from the primary subtag, in any case; anything else is English",
        arguments: [
            ("hi", "hi"), ("hi-IN", "hi"), ("HI_in", "hi"), ("bn-BD", "bn"), ("es-419", "es"), ("es_MX", "es"), ("id", "id"),
            ("in-ID", "id"), ("in_ID", "id"), ("EN", "en"), ("en-GB", "en"), ("pt_BR", "en"), ("fr", "en"), ("", "en"),
            ("   ", "en"), ("garbage!", "en"), ("h", "en"), ("hin", "en"), ("-hi", "en"), (" es", "es"), ("\u{0}hi", "en"),
            ("hi\u{0}", "hi"), ("español", "en"), (String(repeating: "a", count: 10_000), "en"),
        ])
    func language(code: String, expected: String) throws {
        #expect(EmailActionLanguage(languageCode: code).code == expected)
        let mail = try MailTemplates(overrideDirectory: nil).render(.verifyEmail, languageCode: code, values: Self.values)
        #expect(mail.languageCode == expected)
        #expect(mail.html.contains("lang=\"\(expected)\""))
    }

    @Test("no language code is English")
    func noLanguage() throws {
        #expect(EmailActionLanguage(languageCode: nil) == .english)
        let mail = try MailTemplates(overrideDirectory: nil).render(.passwordReset, languageCode: nil, values: Self.values)
        #expect(mail.languageCode == "en")
        #expect(mail.subject == "Reset your password for Example App")
    }

    @Test("values are escaped in the HTML part and verbatim in the text part")
    func escaping() throws {
        let values = MailValues(
            appName: #"<script>alert("&")</script> 'Q'"#, link: #"https://example.com/a?b=1&c="x"<y>"#, email: "a+<b>@example.com",
            newEmail: "\"&\"@example.com")
        for kind in ActionCodeKind.allCases {
            let mail = try MailTemplates(overrideDirectory: nil).render(kind, languageCode: "en", values: values)
            #expect(!mail.html.contains("<script>"))
            #expect(!mail.html.contains("<b>"))
            #expect(mail.html.contains("&lt;script&gt;alert(&quot;&amp;&quot;)&lt;/script&gt; &#39;Q&#39;"))
            #expect(mail.html.contains(#"href="https://example.com/a?b=1&amp;c=&quot;x&quot;&lt;y&gt;""#))
            #expect(mail.text.contains(#"<script>alert("&")</script> 'Q'"#))
            #expect(mail.text.contains(#"https://example.com/a?b=1&c="x"<y>"#))
            #expect(!mail.text.contains("&amp;"))
            #expect(!mail.text.contains("&lt;"))
            #expect(mail.subject.contains(#"<script>alert("&")</script> 'Q'"#))
        }
        let recover = try MailTemplates(overrideDirectory: nil).render(.recoverEmail, languageCode: "en", values: values)
        #expect(recover.html.contains("&quot;&amp;&quot;@example.com"))
        #expect(recover.text.contains("\"&\"@example.com"))
    }

    @Test("control characters and line breaks in the display name never reach the subject, and nowhere else as breaks")
    func controlCharacters() throws {
        let values = MailValues(
            appName: "Evil\r\nBcc: victim@example.com\u{0}\u{7}\u{85}\u{2028}\u{2029}\t App\u{202E}gnp.exe", link: Self.link,
            email: "ada@example.com\r\nX: y")
        for kind in ActionCodeKind.allCases {
            for language in EmailActionLanguage.allCases {
                let mail = try MailTemplates(overrideDirectory: nil).render(kind, languageCode: language.code, values: values)
                #expect(!mail.subject.unicodeScalars.contains { $0.properties.generalCategory == .control })
                #expect(!mail.subject.contains("\u{2028}") && !mail.subject.contains("\u{2029}") && !mail.subject.contains("\u{202E}"))
                #expect(mail.text.contains("Evil Bcc: victim@example.com App"))
                #expect(mail.html.contains("Evil Bcc: victim@example.com App"))
                #expect(!mail.text.contains("\r"))
                #expect(!mail.html.contains("\u{0}"))
                #expect(mail.text.contains("ada@example.com X: y"))
            }
        }
        let subject = try MailTemplates(overrideDirectory: nil).render(.emailSignIn, languageCode: "en", values: values).subject
        #expect(subject == "Sign in to Evil Bcc: victim@example.com Appgnp.exe")
    }

    @Test("a recovery mail without the new address still reads")
    func recoverWithoutNewEmail() throws {
        let values = MailValues(appName: "Example App", link: Self.link, email: "ada@example.com")
        for language in EmailActionLanguage.allCases {
            let mail = try MailTemplates(overrideDirectory: nil).render(.recoverEmail, languageCode: language.code, values: values)
            #expect(mail.text.contains("ada@example.com"))
            #expect(!mail.text.contains("new@example.com"))
        }
    }

    @Test("a change mail, sent to the new address, never shows another one")
    func changeMailShowsOnlyRecipient() throws {
        let values = MailValues(appName: "Example App", link: Self.link, email: "new@example.com", newEmail: "new@example.com")
        for language in EmailActionLanguage.allCases {
            let mail = try MailTemplates(overrideDirectory: nil).render(.verifyAndChangeEmail, languageCode: language.code, values: values)
            #expect(mail.text.contains("new@example.com"))
        }
    }

    // MARK: Overrides

    /// A folder with `files` (name → contents), removed after `body`.
    static func withOverrides<T>(_ files: [String: String], _ body: (URL) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-mail-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, contents) in files {
            try Data(contents.utf8).write(to: directory.appendingPathComponent(name))
        }
        return try body(directory)
    }

    /// The error `MailTemplates` throws for a folder with `files`.
    static func overrideError(_ files: [String: String]) throws -> (MailTemplates.OverrideError, URL) {
        try withOverrides(files) { directory in
            let error = try #require(throws: MailTemplates.OverrideError.self) { try MailTemplates(overrideDirectory: directory) }
            return (error, directory)
        }
    }

    @Test("generic override files replace the built-in parts they name, and see every variable")
    func genericOverrides() throws {
        let files = [
            "resetPassword.subject.mustache": "{{appName}}: reset for {{email}}\n",
            "resetPassword.txt.mustache": "Hi {{email}} ({{lang}}), go to {{link}} at {{appName}}{{#newEmail}} / {{newEmail}}{{/newEmail}}\n",
            "resetPassword.html.mustache": "<p lang=\"{{lang}}\">{{appName}} <a href=\"{{link}}\">reset</a> {{{link}}}</p>",
            "verifyEmail.html.mustache": "<p>verify {{email}}</p>",
        ]
        try Self.withOverrides(files) { directory in
            let templates = try MailTemplates(overrideDirectory: directory)
            let values = MailValues(appName: "A&B", link: "https://x.example/?a=1&b=2", email: "o'k@example.com", newEmail: "n@example.com")
            let mail = templates.render(.passwordReset, languageCode: "es-ES", values: values)
            #expect(mail.subject == "A&B: reset for o'k@example.com")
            #expect(mail.text == "Hi o'k@example.com (es), go to https://x.example/?a=1&b=2 at A&B / n@example.com\n")
            #expect(mail.html == "<p lang=\"es\">A&amp;B <a href=\"https://x.example/?a=1&amp;b=2\">reset</a> https://x.example/?a=1&b=2</p>")
            #expect(mail.languageCode == "es")
            let verify = templates.render(.verifyEmail, languageCode: "es", values: values)
            #expect(verify.html == "<p>verify o&#39;k@example.com</p>")
            let builtIn = try MailTemplates(overrideDirectory: nil).render(.verifyEmail, languageCode: "es", values: values)
            #expect(verify.subject == builtIn.subject)
            #expect(verify.text == builtIn.text)
            let signIn = templates.render(.emailSignIn, languageCode: "es", values: values)
            #expect(signIn == (try MailTemplates(overrideDirectory: nil).render(.emailSignIn, languageCode: "es", values: values)))
        }
    }

    @Test("a language's file wins over the generic one, which wins over the built-in")
    func precedence() throws {
        let files = [
            "signIn.txt.mustache": "generic {{link}}",
            "signIn.hi.txt.mustache": "hindi {{link}}",
            "signIn.bn.subject.mustache": "bengali subject",
            "signIn.html.mustache": "<p>generic</p>",
        ]
        try Self.withOverrides(files) { directory in
            let templates = try MailTemplates(overrideDirectory: directory)
            let builtIn = try MailTemplates(overrideDirectory: nil)
            let hindi = templates.render(.emailSignIn, languageCode: "hi-IN", values: Self.values)
            #expect(hindi.text == "hindi \(Self.link)")
            #expect(hindi.html == "<p>generic</p>")
            #expect(hindi.subject == builtIn.render(.emailSignIn, languageCode: "hi", values: Self.values).subject)
            let bengali = templates.render(.emailSignIn, languageCode: "bn", values: Self.values)
            #expect(bengali.subject == "bengali subject")
            #expect(bengali.text == "generic \(Self.link)")
            let english = templates.render(.emailSignIn, languageCode: "xx", values: Self.values)
            #expect(english.text == "generic \(Self.link)")
            #expect(english.subject == "Sign in to Example App")
        }
    }

    @Test("an override subject is one line too; one that renders empty leaves the built-in")
    func overrideSubjectOneLine() throws {
        let files = ["verifyEmail.subject.mustache": "Verify\n{{appName}}\r\n", "recoverEmail.subject.mustache": "{{#newEmail}}x{{/newEmail}}\n"]
        try Self.withOverrides(files) { directory in
            let templates = try MailTemplates(overrideDirectory: directory)
            #expect(templates.render(.verifyEmail, languageCode: nil, values: Self.values).subject == "Verify Example App")
            let values = MailValues(appName: "Example App", link: Self.link, email: "ada@example.com")
            #expect(
                templates.render(.recoverEmail, languageCode: nil, values: values).subject
                    == "Your sign-in e-mail address for Example App was changed")
        }
    }

    @Test("hidden files are skipped; an empty folder changes nothing")
    func hiddenFiles() throws {
        try Self.withOverrides([".DS_Store": "\u{0}\u{1}", ".gitkeep": ""]) { directory in
            let templates = try MailTemplates(overrideDirectory: directory)
            #expect(templates.render(.verifyEmail, languageCode: "id", values: Self.values).languageCode == "id")
        }
    }

    @Test(
        "an unexpected file name is an error naming the file",
        arguments: [
            ("resetpassword.html.mustache", "unknown mode 'resetpassword'"),
            ("resetPassword.htm.mustache", "unknown part 'htm'"),
            ("resetPassword.text.mustache", "unknown part 'text'"),
            ("resetPassword.fr.html.mustache", "unknown language 'fr'"),
            ("resetPassword.HI.html.mustache", "unknown language 'HI'"),
            ("resetPassword.html", "unexpected file"),
            ("README.md", "unexpected file"),
            ("resetPassword.mustache", "unexpected file name"),
            ("resetPassword.hi.en.html.mustache", "unexpected file name"),
            ("PASSWORD_RESET.html.mustache", "unknown mode 'PASSWORD_RESET'"),
        ])
    func unknownFileName(name: String, problem: String) throws {
        let (error, directory) = try Self.overrideError(["verifyEmail.html.mustache": "<p>ok</p>", name: "x"])
        #expect(error.file == directory.appendingPathComponent(name).path)
        #expect(error.problem.contains(problem), "\(error)")
        #expect("\(error)".contains(name))
    }

    @Test("a broken template is an error naming the file, the line and the problem")
    func brokenTemplate() throws {
        let (error, directory) = try Self.overrideError(["verifyEmail.txt.mustache": "Hello\n{{#link}}\nno end\n"])
        #expect(error.file == directory.appendingPathComponent("verifyEmail.txt.mustache").path)
        #expect(error.problem.contains("expectedSectionEnd"), "\(error)")
        let (unfinished, _) = try Self.overrideError(["recoverEmail.hi.html.mustache": "<p>{{appName</p>"])
        #expect(unfinished.file.hasSuffix("/recoverEmail.hi.html.mustache"))
        #expect(unfinished.problem.contains("line 1"), "\(unfinished)")
        let (mismatch, _) = try Self.overrideError(["signIn.subject.mustache": "{{#email}}x{{/link}}"])
        #expect(mismatch.file.hasSuffix("/signIn.subject.mustache"))
        #expect(mismatch.problem.contains("sectionCloseNameIncorrect"), "\(mismatch)")
        let (secondLine, _) = try Self.overrideError(["signIn.es.txt.mustache": "ok\n{{appName"])
        #expect(secondLine.problem.hasPrefix("line 2,"), "\(secondLine)")
    }

    @Test("a template with a variable that does not exist is an error naming the file and the variable")
    func unknownVariable() throws {
        let (error, _) = try Self.overrideError(["resetPassword.html.mustache": "<a href=\"{{link}}\">{{appname}}</a>"])
        #expect(error.file.hasSuffix("/resetPassword.html.mustache"))
        #expect(error.problem.contains("unknown variable 'appname'"), "\(error)")
        let (inSection, _) = try Self.overrideError(["recoverEmail.txt.mustache": "{{#newEmail}}{{new_email}}{{/newEmail}}"])
        #expect(inSection.problem.contains("unknown variable 'new_email'"), "\(inSection)")
        let (inverted, _) = try Self.overrideError(["recoverEmail.es.txt.mustache": "{{^newEmail}}{{oldEmail}}{{/newEmail}}"])
        #expect(inverted.problem.contains("unknown variable 'oldEmail'"), "\(inverted)")
    }

    @Test("a partial, which would silently render nothing, is an error naming the file")
    func partial() throws {
        let (error, _) = try Self.overrideError(["verifyEmail.html.mustache": "<p>{{> footer}}</p>"])
        #expect(error.file.hasSuffix("/verifyEmail.html.mustache"))
        #expect(error.problem.contains("partials"), "\(error)")
    }

    @Test("a file that is not UTF-8, a folder in the folder, and a missing folder are errors naming them")
    func unreadable() throws {
        try Self.withOverrides([:]) { directory in
            let file = directory.appendingPathComponent("verifyEmail.txt.mustache")
            try Data([0xFF, 0xFE, 0x00, 0xC3]).write(to: file)
            #expect {
                try MailTemplates(overrideDirectory: directory)
            } throws: { error in
                (error as? MailTemplates.OverrideError)?.file == file.path
            }
            try FileManager.default.removeItem(at: file)
            let folder = directory.appendingPathComponent("signIn.html.mustache")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
            #expect {
                try MailTemplates(overrideDirectory: directory)
            } throws: { error in
                (error as? MailTemplates.OverrideError)?.file == folder.path
            }
        }
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-mail-missing-\(UUID().uuidString)")
        #expect {
            try MailTemplates(overrideDirectory: missing)
        } throws: { error in
            (error as? MailTemplates.OverrideError)?.file == missing.path
        }
    }
}
