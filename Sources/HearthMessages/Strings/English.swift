import HearthCore

/// English, the fallback.
struct English: EmailActionStrings {
    func mail(_ kind: ActionCodeKind, appName: String, email: String, newEmail: String?) -> MailText {
        switch kind {
        case .passwordReset:
            MailText(
                subject: "Reset your password for \(appName)",
                heading: "Reset your password",
                paragraphs: [
                    "Someone asked to reset the password of the \(appName) account for \(email).",
                    "To choose a new password, use the button below. The link works only once and expires after a short time.",
                ],
                button: "Reset password",
                footer: "If you did not ask to reset your password, you can ignore this e-mail; your password stays the same.")
        case .verifyEmail:
            MailText(
                subject: "Verify your e-mail address for \(appName)",
                heading: "Verify your e-mail address",
                paragraphs: ["Please confirm that \(email) is your e-mail address for \(appName)."],
                button: "Verify e-mail address",
                footer: "If you did not ask for this, you can ignore this e-mail.")
        case .emailSignIn:
            MailText(
                subject: "Sign in to \(appName)",
                heading: "Sign in to \(appName)",
                paragraphs: [
                    "Someone asked to sign in to \(appName) as \(email). Use the button below to sign in. The link works only once and expires after a short time."
                ],
                button: "Sign in",
                footer: "If you did not ask to sign in, you can ignore this e-mail.")
        case .verifyAndChangeEmail:
            MailText(
                subject: "Confirm your new e-mail address for \(appName)",
                heading: "Confirm your new e-mail address",
                paragraphs: [
                    "Someone asked to use \(email) as the sign-in e-mail address of a \(appName) account.",
                    "To confirm the change, use the button below. Until you do, the account keeps its current address.",
                ],
                button: "Confirm new address",
                footer: "If you did not ask for this, you can ignore this e-mail; nothing will change.")
        case .recoverEmail:
            MailText(
                subject: "Your sign-in e-mail address for \(appName) was changed",
                heading: "Your sign-in e-mail address was changed",
                paragraphs: [
                    newEmail.map { "The sign-in e-mail address of your \(appName) account was changed from \(email) to \($0)." }
                        ?? "The sign-in e-mail address of your \(appName) account was changed from \(email) to another address.",
                    "If you did not make this change, use the button below to restore your previous address, \(email).",
                ],
                button: "Restore my e-mail address",
                footer: "If you made this change yourself, you can ignore this e-mail.")
        case .revertSecondFactorAddition:
            MailText(
                subject: "A second factor was added to your \(appName) account",
                heading: "A second sign-in step was added",
                paragraphs: [
                    "\(newEmail ?? "") was added as a second sign-in step of the \(appName) account for \(email).",
                    "If you did not add it, use the button below to remove it and end every signed-in session.",
                ],
                button: "Remove this second factor",
                footer: "If you added it yourself, you can ignore this e-mail.")
        }
    }

    func verificationSMS(code: String, appName: String) -> String { "\(code) is your verification code for \(appName)." }
    var linkHint: String { "If the button does not work, copy this link into your browser:" }

    func resetPasswordForm(email: String) -> PageText {
        PageText(heading: "Reset your password", paragraphs: ["Choose a new password for \(email)."], button: "Save password")
    }

    var newPasswordLabel: String { "New password" }
    var confirmPasswordLabel: String { "Confirm new password" }

    func resetFormError(_ error: ActionPage.ResetFormError) -> String {
        switch error {
        case .passwordsDiffer: "The two passwords do not match."
        case .tooShort(let minimumLength): "The password must be at least \(minimumLength) characters long."
        case .requirementsNotMet: "This password does not meet the requirements:"
        case .failed: "The password could not be changed. Please try again."
        }
    }

    func resetPasswordDone() -> PageText {
        PageText(heading: "Your password was changed", paragraphs: ["You can now sign in with your new password."])
    }

    func confirm(_ kind: ActionCodeKind, appName: String, email: String, newEmail: String?) -> PageText {
        switch kind {
        case .passwordReset:
            PageText(heading: "Reset your password", paragraphs: ["Continue to choose a new password for \(email)."], button: "Continue")
        case .verifyEmail:
            PageText(
                heading: "Verify your e-mail address", paragraphs: ["Confirm that \(email) is your e-mail address for \(appName)."],
                button: "Verify e-mail address")
        case .emailSignIn:
            PageText(heading: "Sign in to \(appName)", paragraphs: ["Continue to sign in as \(email)."], button: "Sign in")
        case .verifyAndChangeEmail:
            PageText(
                heading: "Change your e-mail address",
                paragraphs: ["Confirm that you want to use \(newEmail ?? email) as the sign-in e-mail address of your \(appName) account."],
                button: "Change e-mail address")
        case .recoverEmail:
            PageText(
                heading: "Restore your e-mail address",
                paragraphs: [
                    newEmail.map {
                        "Your sign-in e-mail address was changed to \($0). Restore \(email) as the sign-in address of your \(appName) account."
                    }
                        ?? "Restore \(email) as the sign-in e-mail address of your \(appName) account."
                ],
                button: "Restore e-mail address")
        case .revertSecondFactorAddition:
            PageText(
                heading: "Remove the second factor",
                paragraphs: ["Remove \(newEmail ?? "") from the second sign-in steps of your \(appName) account. Every signed-in session will end."],
                button: "Remove second factor")
        }
    }

    func emailVerified(appName: String) -> PageText {
        PageText(heading: "Your e-mail address is verified", paragraphs: ["You can now use your \(appName) account with this address."])
    }

    func emailChanged(newEmail: String) -> PageText {
        PageText(heading: "Your e-mail address was changed", paragraphs: ["From now on, sign in with \(newEmail)."])
    }

    func emailRecovered(email: String) -> PageText {
        PageText(heading: "Your e-mail address was restored", paragraphs: ["Your sign-in e-mail address is \(email) again."])
    }

    func secondFactorReverted(appName: String) -> PageText {
        PageText(
            heading: "The second factor was removed",
            paragraphs: ["Sign in again. If someone else added it, they may know your password: reset it to be safe."])
    }

    var resetOffer: String { "If someone else changed your address, they may know your password. Reset it to be safe." }
    var resetOfferButton: String { "Send a password reset e-mail" }

    func resetMailSent(email: String) -> PageText {
        PageText(heading: "Check your e-mail", paragraphs: ["We sent a link to reset your password to \(email)."])
    }

    func failed(_ reason: ActionPage.FailureReason, appName: String) -> PageText {
        switch reason {
        case .expired:
            PageText(
                heading: "This link has expired",
                paragraphs: ["Links in these e-mails work only for a short time. Request a new one in \(appName)."])
        case .invalid:
            PageText(
                heading: "This link is not valid",
                paragraphs: ["The link may have been changed or copied only in part. Request a new one in \(appName)."])
        case .used:
            PageText(
                heading: "This link was already used",
                paragraphs: ["Each link works only once. If you still need one, request a new link in \(appName)."])
        case .unknownMode:
            PageText(
                heading: "This link is not supported",
                paragraphs: ["This page cannot handle this kind of link. Request a new one in \(appName)."])
        case .missingCode:
            PageText(
                heading: "This link is incomplete",
                paragraphs: ["The link is missing its code. Open it again from the e-mail, or request a new one in \(appName)."])
        }
    }

    var continueLabel: String { "Continue" }
}
