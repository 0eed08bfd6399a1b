/// What an e-mail action code is for, with FirebaseAuth's raw values.
public enum ActionCodeOperation: Int, Sendable, CaseIterable {
    /// A kind this SDK does not know.
    case unknown = 0
    /// Sets a new password (`PASSWORD_RESET`, link mode `resetPassword`).
    case passwordReset = 1
    /// Confirms the account's address (`VERIFY_EMAIL`, `verifyEmail`).
    case verifyEmail = 2
    /// Restores the address an e-mail change replaced (`RECOVER_EMAIL`, `recoverEmail`).
    case recoverEmail = 3
    /// Signs in (`EMAIL_SIGNIN`, `signIn`).
    case emailLink = 4
    /// Changes the address to a new one that received the link (`VERIFY_AND_CHANGE_EMAIL`, `verifyAndChangeEmail`).
    case verifyAndChangeEmail = 5
    /// Removes a second factor that was added (`REVERT_SECOND_FACTOR_ADDITION`); Hearth never issues it.
    case revertSecondFactorAddition = 6

    /// The operation of a `requestType` in the server's answers.
    init(requestType: String?) {
        switch requestType {
        case "PASSWORD_RESET": self = .passwordReset
        case "VERIFY_EMAIL": self = .verifyEmail
        case "RECOVER_EMAIL": self = .recoverEmail
        case "EMAIL_SIGNIN": self = .emailLink
        case "VERIFY_AND_CHANGE_EMAIL": self = .verifyAndChangeEmail
        case "REVERT_SECOND_FACTOR_ADDITION": self = .revertSecondFactorAddition
        default: self = .unknown
        }
    }

    /// The operation of a link's `mode`.
    init(mode: String?) {
        switch mode {
        case "resetPassword": self = .passwordReset
        case "verifyEmail": self = .verifyEmail
        case "recoverEmail": self = .recoverEmail
        case "signIn": self = .emailLink
        case "verifyAndChangeEmail": self = .verifyAndChangeEmail
        case "revertSecondFactorAddition": self = .revertSecondFactorAddition
        default: self = .unknown
        }
    }
}

/// What ``Auth/checkActionCode(_:)`` learns about a code without using it.
public final class ActionCodeInfo: Sendable {
    /// What the code does.
    public let operation: ActionCodeOperation
    /// The address the code acts on; for ``ActionCodeOperation/verifyAndChangeEmail`` the new address, and
    /// empty when the server does not say (e-mail sign-in codes).
    public let email: String
    /// For a change of address, the address before it (FirebaseAuth's reading: set whenever the server names
    /// a `newEmail`, which then becomes ``email``).
    public let previousEmail: String?

    init(operation: ActionCodeOperation, email: String, newEmail: String?) {
        self.operation = operation
        if let newEmail, !newEmail.isEmpty {
            self.email = newEmail
            previousEmail = email
        } else {
            self.email = email
            previousEmail = nil
        }
    }
}
