import HearthCore
import Mustache

extension MailTemplates {
    /// Where the console keeps an operator's templates among the stored settings: `mail-template/<mode>.<lang>.<part>`
    /// (``storedName(_:languageCode:part:)``), each value a template as an override file would hold it.
    public static let settingPrefix = "mail-template/"

    /// The parts a template may replace, in the order a mail shows them: `subject`, `txt`, `html`.
    public static let partNames = Part.allCases.map(\.rawValue)

    /// The setting's name of a stored template (``settingPrefix`` included).
    public static func storedName(_ kind: ActionCodeKind, languageCode: String, part: String) -> String {
        "\(settingPrefix)\(kind.mode).\(languageCode).\(part)"
    }

    /// Checks `source` as the `part` (`subject`, `txt` or `html`) of a template, as the override folder's files are
    /// checked: it compiles, has no partials and names no variable but `appName`, `link`, `email`, `newEmail`, `lang`.
    /// - Throws: ``OverrideError`` whose `file` is `part`.
    public static func check(_ source: String, part: String) throws {
        guard let part = Part(rawValue: part) else { throw OverrideError(file: part, problem: "unknown part") }
        _ = try compile(source, part: part, file: part.rawValue)
    }

    /// These templates with the stored ones (settings under ``settingPrefix``, by name) laid over them: a stored
    /// template wins over the folder's for its kind, language and part. A stored value that does not read or compile
    /// (it was checked when it was saved, so only by a hand-made setting) is left out.
    public func adding(stored: [String: String]) -> MailTemplates {
        guard !stored.isEmpty else { return self }
        var merged = overrides
        for (name, source) in stored where name.hasPrefix(Self.settingPrefix) {
            let fileName = String(name.dropFirst(Self.settingPrefix.count)) + ".mustache"
            guard let key = try? Self.overrideKey(forFileNamed: fileName, path: name), key.language != nil,
                let template = try? Self.compile(source, part: key.part, file: name)
            else { continue }
            merged[key] = template
        }
        return MailTemplates(overrides: merged)
    }

    /// Whether the configuration's template folder replaces `part` of `kind`'s mail in `languageCode` (a file for that
    /// language, or the generic one).
    public func hasFileOverride(_ kind: ActionCodeKind, languageCode: String, part: String) -> Bool {
        guard let part = Part(rawValue: part) else { return false }
        let language = EmailActionLanguage(languageCode: languageCode)
        return overrides[OverrideKey(kind: kind, language: language, part: part)] != nil
            || overrides[OverrideKey(kind: kind, language: nil, part: part)] != nil
    }
}
