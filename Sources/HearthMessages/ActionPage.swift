import HearthCore

/// The pages of Hearth's hosted e-mail action handler (`/__/auth/action?mode=…&oobCode=…&continueUrl=…&lang=…`, as
/// Firebase's): complete HTML5 documents in every ``EmailActionLanguage``, without script or external resources,
/// so that they work under ``contentSecurityPolicy``. Opening a link never uses up its code: every page that would act
/// asks first and acts on a POST to ``path``.
public enum ActionPage {
    /// What the page shows.
    public enum State: Sendable, Equatable {
        /// Two password fields and a button; posts ``Field/mode`` `resetPassword`, ``Field/oobCode``,
        /// ``Field/continueURL``, ``Field/lang``, ``Field/newPassword`` and ``Field/confirmPassword``.
        case resetPasswordForm(email: String, oobCode: String, continueURL: String?, error: ResetFormError?)
        case resetPasswordDone(continueURL: String?)
        /// Asks before applying a code: one button that posts ``Field/mode`` (`kind.mode`), ``Field/oobCode``,
        /// ``Field/continueURL`` and ``Field/lang``. `email` is the account's address; `newEmail` the address a
        /// ``ActionCodeKind/verifyAndChangeEmail`` changes to (shown instead of `email`, which the holder of the link
        /// may not know) or a ``ActionCodeKind/recoverEmail`` undoes.
        case confirm(kind: ActionCodeKind, email: String, newEmail: String?, oobCode: String, continueURL: String?)
        case emailVerified(continueURL: String?)
        case emailChanged(newEmail: String, continueURL: String?)
        /// With `resetOffered`, a button that posts ``Field/mode`` ``sendPasswordResetMode``, ``Field/email``,
        /// ``Field/continueURL`` and ``Field/lang``.
        case emailRecovered(email: String, continueURL: String?, resetOffered: Bool)
        /// After the reset offered by ``emailRecovered(email:continueURL:resetOffered:)``: a reset mail went out.
        case resetMailSent(email: String, continueURL: String?)
        /// A second factor was withdrawn by a `REVERT_SECOND_FACTOR_ADDITION` link.
        case secondFactorReverted(continueURL: String?)
        /// The link cannot be used; the page says how to get a new one.
        case failed(reason: FailureReason)
    }

    /// Why the reset form is shown again.
    public enum ResetFormError: Sendable, Equatable {
        case passwordsDiffer
        case tooShort(minimumLength: Int)
        /// The password policy refused the password; `message` (from the policy) is shown as given.
        case requirementsNotMet(message: String)
        /// Anything else went wrong; the person may try again.
        case failed
    }

    /// Why a link cannot be used.
    public enum FailureReason: String, Sendable, CaseIterable {
        case expired
        case invalid
        case used
        case unknownMode
        case missingCode
    }

    /// Where every form posts.
    public static let path = "/__/auth/action"

    /// The names of the form fields, as the query of Firebase's action links spells them.
    public enum Field {
        public static let mode = "mode"
        public static let oobCode = "oobCode"
        public static let continueURL = "continueUrl"
        public static let lang = "lang"
        public static let newPassword = "newPassword"
        public static let confirmPassword = "confirmPassword"
        public static let email = "email"
    }

    /// The ``Field/mode`` of the form that asks for a password-reset mail after an address was restored.
    public static let sendPasswordResetMode = "sendPasswordReset"

    /// The `Content-Security-Policy` of the pages (the server sends it with the rest of its page headers): no
    /// script, styles only inline, forms only to this origin, never framed.
    public static let contentSecurityPolicy =
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

    /// The page for `state` in the language `languageCode` asks for (see ``EmailActionLanguage/init(languageCode:)``).
    /// `appName` is the project's display name. Every value is escaped; a continue URL that is not `http` or `https`
    /// gets no link.
    public static func render(_ state: State, languageCode: String?, appName: String) -> String {
        let language = EmailActionLanguage(languageCode: languageCode)
        let strings = language.strings
        let appName = DisplayText.singleLine(appName)
        var page = Builder(language: language)

        switch state {
        case .resetPasswordForm(let email, let oobCode, let continueURL, let error):
            let text = strings.resetPasswordForm(email: DisplayText.singleLine(email))
            page.heading(text)
            page.form(mode: ActionCodeKind.passwordReset.mode, fields: [(Field.oobCode, oobCode)], continueURL: continueURL) { form in
                form.append(
                    "<input type=\"email\" autocomplete=\"username\" value=\"\(DisplayText.html(DisplayText.singleLine(email)))\" readonly hidden>\n"
                )
                if let error {
                    var message = "<p>\(DisplayText.html(strings.resetFormError(error)))</p>"
                    if case .requirementsNotMet(let detail) = error, !detail.isEmpty {
                        message += "<p>\(DisplayText.html(detail))</p>"
                    }
                    form.append("<div class=\"error\" id=\"form-error\" role=\"alert\">\(message)</div>\n")
                }
                let described = error == nil ? "" : " aria-describedby=\"form-error\" aria-invalid=\"true\""
                form.append(
                    """
                    <div class="field"><label for="new-password">\(DisplayText.html(strings.newPasswordLabel))</label>
                    <input type="password" id="new-password" name="\(Field.newPassword)" autocomplete="new-password" required\(described)></div>
                    <div class="field"><label for="confirm-password">\(DisplayText.html(strings.confirmPasswordLabel))</label>
                    <input type="password" id="confirm-password" name="\(Field.confirmPassword)" autocomplete="new-password" required\(described)></div>

                    """)
                form.append(submit: text.button ?? "")
            }
            page.continueLink(continueURL, label: strings.continueLabel)
        case .resetPasswordDone(let continueURL):
            page.heading(strings.resetPasswordDone())
            page.continueLink(continueURL, label: strings.continueLabel)
        case .confirm(let kind, let email, let newEmail, let oobCode, let continueURL):
            let text = strings.confirm(
                kind, appName: appName, email: DisplayText.singleLine(email), newEmail: newEmail.map(DisplayText.singleLine))
            page.heading(text)
            page.form(mode: kind.mode, fields: [(Field.oobCode, oobCode)], continueURL: continueURL) { form in
                form.append(submit: text.button ?? "")
            }
        case .emailVerified(let continueURL):
            page.heading(strings.emailVerified(appName: appName))
            page.continueLink(continueURL, label: strings.continueLabel)
        case .emailChanged(let newEmail, let continueURL):
            page.heading(strings.emailChanged(newEmail: DisplayText.singleLine(newEmail)))
            page.continueLink(continueURL, label: strings.continueLabel)
        case .emailRecovered(let email, let continueURL, let resetOffered):
            page.heading(strings.emailRecovered(email: DisplayText.singleLine(email)))
            if resetOffered {
                page.paragraph(strings.resetOffer)
                page.form(mode: sendPasswordResetMode, fields: [(Field.email, email)], continueURL: continueURL) { form in
                    form.append(submit: strings.resetOfferButton)
                }
            }
            page.continueLink(continueURL, label: strings.continueLabel)
        case .resetMailSent(let email, let continueURL):
            page.heading(strings.resetMailSent(email: DisplayText.singleLine(email)))
            page.continueLink(continueURL, label: strings.continueLabel)
        case .secondFactorReverted(let continueURL):
            page.heading(strings.secondFactorReverted(appName: appName))
            page.continueLink(continueURL, label: strings.continueLabel)
        case .failed(let reason):
            page.heading(strings.failed(reason, appName: appName))
        }
        return page.document(appName: appName)
    }
}
