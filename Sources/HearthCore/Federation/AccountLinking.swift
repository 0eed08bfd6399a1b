import Foundation

/// The account rules of a sign-in with a verified provider identity (`signInWithIdp`): which account it
/// links to, signs in or takes over, when the person must first prove the account is theirs, and what each
/// does to the account.
///
/// The caller reads the accounts involved (the signed-in user, the identity's owner, the owner of the
/// identity's e-mail when ``emailToCheck(signedIn:identityOwner:)`` names one), asks
/// ``decide(signedIn:identityOwner:emailOwner:autoCreate:)``, and writes what the decision says, applying
/// ``link(into:now:)``, ``signIn(_:now:)`` or ``takeOver(_:now:)`` to the account as the store reads it in
/// the write's transaction, or storing ``newUser(uid:now:)``.
public struct AccountLinking: Sendable {
    /// The provider's identity, as Hearth keeps it (``FederatedProfile/storable()``).
    public var profile: FederatedProfile
    /// Whether an e-mail names at most one account (`signIn.oneAccountPerEmail`): an identity whose e-mail
    /// has an account signs in to that account, and accounts take their e-mail from their providers.
    public var oneAccountPerEmail: Bool

    public init(profile: FederatedProfile, oneAccountPerEmail: Bool) {
        self.profile = profile
        self.oneAccountPerEmail = oneAccountPerEmail
    }

    /// What a sign-in does.
    public enum Decision: Sendable, Equatable {
        /// Link the identity to the signed-in user: ``AccountLinking/link(into:now:)``.
        case link(uid: String)
        /// Sign in the user the identity is linked to: ``AccountLinking/signIn(_:now:)``.
        case signIn(uid: String)
        /// Sign in the user whose e-mail the provider vouches for: ``AccountLinking/takeOver(_:now:)``.
        case takeOver(uid: String)
        /// The identity's e-mail has an account, but the provider does not vouch for the address: the person
        /// must first sign in to `owner` another way (`needConfirmation`).
        case needsConfirmation(owner: UserRecord)
        /// A new user: ``AccountLinking/newUser(uid:now:)``.
        case create
    }

    /// The e-mail whose account the decision depends on, `nil` when it depends on none: the identity's
    /// e-mail under one account per e-mail, when linking or when no account has the identity yet.
    public func emailToCheck(signedIn: UserRecord?, identityOwner: UserRecord?) -> String? {
        guard oneAccountPerEmail, let email = profile.email else { return nil }
        return signedIn != nil || identityOwner == nil ? email : nil
    }

    /// The rules, in order: link to the signed-in user; sign in the identity's user; take over the account
    /// of an e-mail the provider vouches for, or ask for confirmation when it does not; create a user.
    ///
    /// - Parameters:
    ///   - signedIn: the user of the request's ID token, when it links.
    ///   - identityOwner: the user the identity is linked to.
    ///   - emailOwner: the user of ``emailToCheck(signedIn:identityOwner:)``'s e-mail.
    ///   - autoCreate: whether a sign-in without an account makes one.
    /// - Throws: `FEDERATED_USER_ID_ALREADY_LINKED` when linking an identity any user has, the signed-in user included
    ///   (as Firebase answers), `EMAIL_EXISTS` when linking the e-mail of another user; `USER_DISABLED`; `USER_NOT_FOUND`
    ///   when there is no account and none may be made.
    public func decide(signedIn: UserRecord?, identityOwner: UserRecord?, emailOwner: UserRecord?, autoCreate: Bool) throws -> Decision {
        let emailOwner = oneAccountPerEmail && profile.email != nil ? emailOwner : nil
        if let signedIn {
            if identityOwner != nil { throw HearthError(.federatedUserIDAlreadyLinked) }
            if let emailOwner, emailOwner.uid != signedIn.uid { throw HearthError(.emailExists) }
            return .link(uid: signedIn.uid)
        }
        if let identityOwner {
            if identityOwner.disabled { throw HearthError(.userDisabled) }
            return .signIn(uid: identityOwner.uid)
        }
        if let emailOwner {
            guard profile.emailVerified else { return .needsConfirmation(owner: emailOwner) }
            if emailOwner.disabled { throw HearthError(.userDisabled) }
            return .takeOver(uid: emailOwner.uid)
        }
        guard autoCreate else { throw HearthError(.userNotFound) }
        return .create
    }

    /// Links the identity to `user`, replacing its link to the same provider: an account without an e-mail
    /// takes the identity's (under one account per e-mail), a provider vouching for the account's e-mail
    /// verifies it, and a missing display name or photo comes from the provider. The account leaves the
    /// anonymous clean-up.
    public func link(into user: inout UserRecord, now: Date) {
        let previous = user.providers.first { $0.providerID == profile.providerID }
        user.providers.removeAll { $0.providerID == profile.providerID }
        user.providers.append(link(keepingNameOf: previous))
        if oneAccountPerEmail, user.email == nil, let email = profile.email {
            user.email = email
            user.emailVerified = profile.emailVerified
        } else if let email = profile.email, user.email == email, profile.emailVerified {
            // Only an address the provider names can be vouched for: an account without one stays unverified.
            user.emailVerified = true
        }
        if user.displayName == nil { user.displayName = profile.displayName }
        if user.photoURL == nil { user.photoURL = profile.photoURL }
        user.scheduledDeletionAt = nil
        user.lastLoginAt = now
    }

    /// Signs in `user`, the identity's owner: its link takes the provider's current profile.
    public func signIn(_ user: inout UserRecord, now: Date) {
        if let index = user.providers.firstIndex(where: { $0.providerID == profile.providerID && $0.rawID == profile.rawID }) {
            user.providers[index] = link(keepingNameOf: user.providers[index])
        }
        user.lastLoginAt = now
    }

    /// Signs in `user`, the owner of the e-mail the provider vouches for, and links the identity.
    ///
    /// If the account's own claim to the address was never verified, everything it signs in with could
    /// belong to someone who registered the address first (a pre-registration hijack): its password, its
    /// phone and every provider it linked go, its sessions end (`validSince` moves to `now`), and its
    /// display name and photo become the provider's. Either way the e-mail is verified from now on.
    public func takeOver(_ user: inout UserRecord, now: Date) {
        if !user.emailVerified {
            user.passwordHash = nil
            user.passwordUpdatedAt = nil
            user.phoneNumber = nil
            user.providers.removeAll()
            user.displayName = profile.displayName
            user.photoURL = profile.photoURL
            user.validSince = now
        }
        user.emailVerified = true
        user.providers.removeAll { $0.providerID == profile.providerID }
        user.providers.append(profile.link)
        user.lastLoginAt = now
    }

    /// The user a sign-in creates: the provider's profile, and its e-mail under one account per e-mail.
    public func newUser(uid: String, now: Date) -> UserRecord {
        let email = oneAccountPerEmail ? profile.email : nil
        return UserRecord(
            uid: uid, email: email, emailVerified: email != nil && profile.emailVerified,
            displayName: profile.displayName, photoURL: profile.photoURL,
            createdAt: now, lastLoginAt: now, validSince: now, providers: [profile.link])
    }

    /// The identity's link; a provider sends some profile fields only once (Apple's name), so what the
    /// `previous` link kept stays when the profile lacks it.
    private func link(keepingNameOf previous: ProviderLink?) -> ProviderLink {
        var link = profile.link
        if link.displayName == nil { link.displayName = previous?.displayName }
        if link.email == nil { link.email = previous?.email }
        return link
    }
}
