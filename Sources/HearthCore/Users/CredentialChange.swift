import Foundation

/// A change of what an account signs in with, its e-mail or its password, and the rule that
/// `accounts:signUp` with an ID token and `accounts:update` both apply to it: the same change meets the
/// same check whichever endpoint carries it.
///
/// The rule: an account that can sign in again (a password, a linked provider, a phone number or custom
/// tokens) needs a recent sign-in to replace its e-mail or password **and** to gain one it did not have,
/// since a password added to a Google-only account with a stolen ID token is as good as a stolen account.
/// Only an anonymous account, which has no way to sign in again and so could never meet the check, is
/// upgraded with its ID token alone.
public struct CredentialChange: Sendable, Equatable {
    /// The normalised e-mail the account will have, `nil` when the request leaves it alone.
    public var email: String?
    /// Whether the request sets a password.
    public var setsPassword: Bool

    public init(email: String?, setsPassword: Bool) {
        self.email = email
        self.setsPassword = setsPassword
    }

    /// Whether applying the change to `user` alters how it signs in.
    public func alters(_ user: UserRecord) -> Bool {
        setsPassword || (email != nil && email != user.email)
    }

    /// Whether `user` must have signed in recently for the change to be made.
    public func needsRecentSignIn(_ user: UserRecord) -> Bool {
        alters(user) && !user.isAnonymous
    }

    /// Throws `CREDENTIAL_TOO_OLD_LOGIN_AGAIN` when `user` needs a recent sign-in and its sign-in
    /// (`authTime`, seconds since 1970) is older than `window` at `now`.
    public func check(_ user: UserRecord, authTime: Int64, now: Date, window: TimeInterval) throws {
        guard needsRecentSignIn(user) else { return }
        try RecentSignIn.require(authTime: authTime, now: now, window: window)
    }
}

/// The recent-sign-in check of sensitive operations (credential changes, account deletion).
public enum RecentSignIn {
    /// Throws `CREDENTIAL_TOO_OLD_LOGIN_AGAIN` when the sign-in at `authTime` (seconds since 1970) is
    /// more than `window` seconds before `now`.
    public static func require(authTime: Int64, now: Date, window: TimeInterval) throws {
        let age = now.timeIntervalSince1970 - TimeInterval(authTime)
        guard age <= window else { throw HearthError(.credentialTooOldLoginAgain) }
    }
}
