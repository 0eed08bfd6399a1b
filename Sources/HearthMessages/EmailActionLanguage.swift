/// A language the e-mail action mails and pages are written in. English is the fallback.
public enum EmailActionLanguage: String, Sendable, CaseIterable {
    case english = "en"
    case hindi = "hi"
    case indonesian = "id"
    case bengali = "bn"
    case spanish = "es"

    /// The language for a code as Firebase clients send it (`languageCode`, `X-Firebase-Locale`): `hi`, `hi-IN`,
    /// `pt_BR`, `EN`. Only the primary subtag counts, in any case; `in` (the old code Java's `Locale` still gives
    /// for Indonesian) is Indonesian; anything else, or nothing, is English.
    public init(languageCode: String?) {
        guard let languageCode else {
            self = .english
            return
        }
        let primary = languageCode.unicodeScalars
            .drop(while: { $0 == " " || $0 == "\t" })
            .prefix(while: { ($0 >= "a" && $0 <= "z") || ($0 >= "A" && $0 <= "Z") })
        guard primary.count <= 8 else {
            self = .english
            return
        }
        let code = String(String.UnicodeScalarView(primary)).lowercased()
        if code == "in" {
            self = .indonesian
        } else {
            self = Self(rawValue: code) ?? .english
        }
    }

    /// The BCP 47 code, for `lang` attributes and ``RenderedMail/languageCode``.
    public var code: String { rawValue }

    /// The writing direction, for `dir` attributes.
    public var direction: String {
        switch self {
        case .english, .hindi, .indonesian, .bengali, .spanish: "ltr"
        }
    }

    /// The strings of the mails and pages in this language.
    var strings: any EmailActionStrings {
        switch self {
        case .english: English()
        case .hindi: Hindi()
        case .indonesian: Indonesian()
        case .bengali: Bengali()
        case .spanish: Spanish()
        }
    }
}
