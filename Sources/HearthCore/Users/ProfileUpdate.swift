import Foundation

/// A signed-in user's change of their own account (`accounts:update` with an ID token): e-mail, password,
/// display name and photo set; attributes and providers removed. The rules it must meet, and how it
/// changes the account.
///
/// The caller checks it with ``check(_:authTime:now:recentLoginWindow:emailEnumerationProtection:)``, looks
/// up the owner of ``email`` for ``checkEmail(ownedBy:for:)``, hashes the password, and applies
/// ``apply(to:passwordHash:now:)`` to the account as the store reads it in the write's transaction.
public struct ProfileUpdate: Sendable, Equatable {
    /// What the update may remove from an account.
    public enum Attribute: Sendable, Hashable {
        case displayName, photoURL, email, password
    }

    /// The normalised e-mail the account will have, `nil` when the update leaves it alone.
    public var email: String?
    /// Whether the update sets a password.
    public var setsPassword: Bool
    /// A display name Hearth keeps (``UserText/displayName(_:)``), `nil` when left alone.
    public var displayName: String?
    /// A photo URL Hearth keeps (``UserText/photoURL(_:)``), `nil` when left alone.
    public var photoURL: String?
    /// Attributes removed, after the values above are set.
    public var deletedAttributes: Set<Attribute>
    /// Providers unlinked: provider ids, `password` (e-mail and password) and `phone`.
    public var deletedProviders: Set<String>

    public init(
        email: String? = nil, setsPassword: Bool = false, displayName: String? = nil, photoURL: String? = nil,
        deletedAttributes: Set<Attribute> = [], deletedProviders: Set<String> = []
    ) {
        self.email = email
        self.setsPassword = setsPassword
        self.displayName = displayName
        self.photoURL = photoURL
        self.deletedAttributes = deletedAttributes
        self.deletedProviders = deletedProviders
    }

    /// The e-mail and password part, under the rule ``CredentialChange`` shares with `accounts:signUp`.
    public var credentialChange: CredentialChange {
        CredentialChange(email: email, setsPassword: setsPassword)
    }

    /// Whether the update changes how `user` signs in: its sessions end, and the request gets new tokens.
    public func changesCredentials(of user: UserRecord) -> Bool {
        credentialChange.alters(user)
    }

    /// The checks that need no other account: a recent sign-in (`authTime`, seconds since 1970, within
    /// `recentLoginWindow` of `now`) for a credential change (``CredentialChange``); and with e-mail
    /// enumeration protection, no change of e-mail at all: only a verified link may change it, so that
    /// `EMAIL_EXISTS` cannot tell which addresses have accounts.
    /// - Throws: `CREDENTIAL_TOO_OLD_LOGIN_AGAIN`, ``HearthError/Code/emailChangeNeedsVerification``.
    public func check(_ user: UserRecord, authTime: Int64, now: Date, recentLoginWindow: TimeInterval, emailEnumerationProtection: Bool) throws {
        try credentialChange.check(user, authTime: authTime, now: now, window: recentLoginWindow)
        if emailEnumerationProtection, let email, email != user.email {
            throw HearthError(.emailChangeNeedsVerification)
        }
    }

    /// Throws `EMAIL_EXISTS` when ``email`` belongs to `owner`, a user other than `user`.
    public func checkEmail(ownedBy owner: UserRecord?, for user: UserRecord) throws {
        if email != nil, let owner, owner.uid != user.uid { throw HearthError(.emailExists) }
    }

    /// Changes `user`: a new e-mail (unverified) or password (`passwordHash`, the new password's hash) ends
    /// its sessions (`validSince` moves to `now`); then the display name and photo, the removals, and the
    /// anonymous clean-up, which keeps only accounts that stay anonymous.
    ///
    /// The last way to sign in may go, as Firebase allows (for the person's own update as for an administrator's):
    /// the account keeps its sessions, and as it was never an anonymous sign-in the clean-up leaves it alone.
    public func apply(to user: inout UserRecord, passwordHash: String?, now: Date) {
        let wasAnonymous = user.isAnonymous
        setCredentials(of: &user, passwordHash: passwordHash, now: now)
        if let displayName { user.displayName = displayName }
        if let photoURL { user.photoURL = photoURL }
        removeAttributes(of: &user)
        for providerID in deletedProviders {
            Self.unlink(providerID, from: &user)
        }
        if !user.isAnonymous {
            user.scheduledDeletionAt = nil
        } else if !wasAnonymous {
            user.scheduledDeletionAt = UserRecord.neverDeleted
        }
    }

    private func setCredentials(of user: inout UserRecord, passwordHash: String?, now: Date) {
        if let email, email != user.email {
            user.changeEmail(to: email)
            user.emailVerified = false
            user.validSince = now
        }
        if let passwordHash {
            user.passwordHash = passwordHash
            user.passwordUpdatedAt = now
            user.validSince = now
        }
    }

    private func removeAttributes(of user: inout UserRecord) {
        if deletedAttributes.contains(.displayName) { user.displayName = nil }
        if deletedAttributes.contains(.photoURL) { user.photoURL = nil }
        if deletedAttributes.contains(.email) {
            user.email = nil
            user.emailVerified = false
        }
        if deletedAttributes.contains(.password) {
            user.passwordHash = nil
            user.passwordUpdatedAt = nil
        }
    }

    /// Unlinks `providerID`: `password` takes the e-mail and password, `phone` the phone number.
    private static func unlink(_ providerID: String, from user: inout UserRecord) {
        switch providerID {
        case "password":
            user.email = nil
            user.emailVerified = false
            user.passwordHash = nil
            user.passwordUpdatedAt = nil
        case "phone":
            user.phoneNumber = nil
        default:
            user.providers.removeAll { $0.providerID == providerID }
        }
    }
}
