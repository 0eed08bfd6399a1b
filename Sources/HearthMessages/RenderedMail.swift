/// A mail ready to send: a one-line subject and the plain-text and HTML bodies.
public struct RenderedMail: Sendable, Equatable {
    /// Never holds a control character, so never a CR or LF.
    public var subject: String
    public var text: String
    public var html: String
    /// The language actually used (`en`, `hi`, `id`, `bn`, `es`).
    public var languageCode: String

    public init(subject: String, text: String, html: String, languageCode: String) {
        self.subject = subject
        self.text = text
        self.html = html
        self.languageCode = languageCode
    }
}
