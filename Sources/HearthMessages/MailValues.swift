import HearthCore

/// What a mail says: the values its templates fill in.
public struct MailValues: Sendable, Equatable {
    /// The project's display name. Control characters and line breaks become spaces before use.
    public var appName: String
    /// The action URL the mail's button and plain link point to.
    public var link: String
    /// The address the mail goes to. For ``ActionCodeKind/verifyAndChangeEmail`` that is the new address; for
    /// ``ActionCodeKind/recoverEmail`` the previous one, which the link restores.
    public var email: String
    /// For ``ActionCodeKind/recoverEmail``: the address the account was changed to (the mail says "changed to
    /// another address" without it). For ``ActionCodeKind/verifyAndChangeEmail``: the new address, the same as
    /// ``email``; the built-in text shows only ``email``, so that a mistyped new address never learns the old
    /// one. Unused by the other kinds.
    public var newEmail: String?

    public init(appName: String, link: String, email: String, newEmail: String? = nil) {
        self.appName = appName
        self.link = link
        self.email = email
        self.newEmail = newEmail
    }
}
