import Foundation
import HearthCore
import Mustache

/// The mails of the e-mail actions: built-in layouts and strings in every ``EmailActionLanguage``, and the
/// operator's own Mustache templates, which win where they exist.
///
/// Override files sit in one folder and are named `<mode>.<part>.mustache` or `<mode>.<lang>.<part>.mustache`, where
/// `mode` is an ``ActionCodeKind/mode`` (`resetPassword`, `verifyEmail`, …), `lang` a supported language code and
/// `part` is `subject`, `txt` or `html`. For each part, a file for the mail's language wins over the generic file,
/// which wins over the built-in. Templates see `appName`, `link`, `email`, `newEmail` (absent when there is none)
/// and `lang`, and have no partials; values are HTML-escaped in `html` files, not in `subject` and `txt` files. A
/// subject is made one line. Every file is read and compiled by ``init(overrideDirectory:)``; hidden files
/// (`.DS_Store`) are skipped, anything else unexpected is an error.
public final class MailTemplates: Sendable {
    /// A part of a mail that a file can override.
    enum Part: String, CaseIterable, Sendable {
        case subject
        case txt
        case html
    }

    struct OverrideKey: Hashable, Sendable {
        var kind: ActionCodeKind
        /// `nil` for the generic file.
        var language: EmailActionLanguage?
        var part: Part
    }

    /// Why an override folder was refused: the file (or folder) and what is wrong with it.
    public struct OverrideError: Error, CustomStringConvertible, Equatable {
        /// The path of the file or folder.
        public var file: String
        public var problem: String

        public var description: String { "\(file): \(problem)" }
    }

    let overrides: [OverrideKey: MustacheTemplate]

    init(overrides: [OverrideKey: MustacheTemplate]) {
        self.overrides = overrides
    }

    /// The built-in mails, overridden by the templates in `overrideDirectory` if it is given.
    ///
    /// - Throws: ``OverrideError`` naming the file when the folder cannot be read, a file name does not follow the
    ///   pattern, or a template does not compile or uses a variable that does not exist.
    public init(overrideDirectory: URL?) throws {
        if let overrideDirectory {
            self.overrides = try Self.loadOverrides(from: overrideDirectory)
        } else {
            self.overrides = [:]
        }
    }

    /// The mail for `kind` in the language `languageCode` asks for (see ``EmailActionLanguage/init(languageCode:)``).
    public func render(_ kind: ActionCodeKind, languageCode: String?, values: MailValues) -> RenderedMail {
        let language = EmailActionLanguage(languageCode: languageCode)
        let appName = DisplayText.singleLine(values.appName)
        let email = DisplayText.singleLine(values.email)
        let newEmail = values.newEmail.map(DisplayText.singleLine)
        let text = language.strings.mail(kind, appName: appName, email: email, newEmail: newEmail)
        let layoutValues = MailLayout.values(text, language: language, appName: appName, link: values.link)
        var overrideValues: [String: Any] = ["appName": appName, "link": values.link, "email": email, "lang": language.code]
        if let newEmail {
            overrideValues["newEmail"] = newEmail
        }

        func override(_ part: Part) -> MustacheTemplate? {
            overrides[OverrideKey(kind: kind, language: language, part: part)] ?? overrides[OverrideKey(kind: kind, language: nil, part: part)]
        }

        var subject = text.subject
        if let template = override(.subject) {
            let rendered = DisplayText.singleLine(template.render(overrideValues))
            if !rendered.isEmpty {
                subject = rendered
            }
        }
        return RenderedMail(
            subject: DisplayText.singleLine(subject),
            text: override(.txt)?.render(overrideValues) ?? MailLayout.text.render(layoutValues),
            html: override(.html)?.render(overrideValues) ?? MailLayout.html.render(layoutValues),
            languageCode: language.code)
    }
}
