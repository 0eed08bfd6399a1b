import HearthCore

/// The words of one mail, values already filled in, nothing escaped yet.
struct MailText: Sendable {
    var subject: String
    var heading: String
    var paragraphs: [String]
    var button: String
    /// What to do if the mail was not asked for.
    var footer: String
}

/// The words of one action page, values already filled in, nothing escaped yet.
struct PageText: Sendable {
    var heading: String
    var paragraphs: [String]
    /// The label of the page's button, if it has one.
    var button: String?

    init(heading: String, paragraphs: [String], button: String? = nil) {
        self.heading = heading
        self.paragraphs = paragraphs
        self.button = button
    }
}

/// The mails' and pages' strings in one language: one file per language under `Strings/`. The values passed in are
/// already on one line (``DisplayText/singleLine(_:)``).
protocol EmailActionStrings: Sendable {
    /// The mail for `kind`. For ``ActionCodeKind/revertSecondFactorAddition``, `newEmail` names the factor added.
    func mail(_ kind: ActionCodeKind, appName: String, email: String, newEmail: String?) -> MailText
    /// The text message that carries a phone sign-in's code (the code first, as Firebase's does).
    func verificationSMS(code: String, appName: String) -> String
    /// Introduces the plain link under the button.
    var linkHint: String { get }

    /// The reset form: heading, introduction and the submit button.
    func resetPasswordForm(email: String) -> PageText
    var newPasswordLabel: String { get }
    var confirmPasswordLabel: String { get }
    func resetFormError(_ error: ActionPage.ResetFormError) -> String
    func resetPasswordDone() -> PageText
    /// The page that asks before a code is used; `email` and `newEmail` as in ``ActionPage/State/confirm``.
    func confirm(_ kind: ActionCodeKind, appName: String, email: String, newEmail: String?) -> PageText
    func emailVerified(appName: String) -> PageText
    func emailChanged(newEmail: String) -> PageText
    func emailRecovered(email: String) -> PageText
    /// After a second factor was removed by the link of the mail that announced it.
    func secondFactorReverted(appName: String) -> PageText
    /// The offer to reset the password after an address was restored, and its button.
    var resetOffer: String { get }
    var resetOfferButton: String { get }
    func resetMailSent(email: String) -> PageText
    func failed(_ reason: ActionPage.FailureReason, appName: String) -> PageText
    /// The link to the app's continue URL.
    var continueLabel: String { get }
}
