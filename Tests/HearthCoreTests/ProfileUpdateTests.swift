import Foundation
import HearthCore
import Testing

/// A user's change of their own account, as values: the checks and what it does to the account.
@Suite("ProfileUpdate: a user's change of their own account")
struct ProfileUpdateTests {
    static let then = Date(timeIntervalSince1970: 1_700_000_000)
    static let now = then.addingTimeInterval(3_600)
    static let window: TimeInterval = 300
    /// A sign-in long before `now`, and one just now.
    static let stale = Int64(then.timeIntervalSince1970)
    static let recent = Int64(now.timeIntervalSince1970) - 10

    static func anonymous() -> UserRecord {
        UserRecord(uid: "me", createdAt: then, validSince: then, scheduledDeletionAt: then.addingTimeInterval(86_400))
    }

    static func withPassword() -> UserRecord {
        UserRecord(
            uid: "me", email: "me@example.com", emailVerified: true, passwordHash: "old", passwordUpdatedAt: then, createdAt: then, validSince: then)
    }

    func check(_ update: ProfileUpdate, _ user: UserRecord, authTime: Int64, protection: Bool = false) throws {
        try update.check(user, authTime: authTime, now: Self.now, recentLoginWindow: Self.window, emailEnumerationProtection: protection)
    }

    // MARK: Checks

    @Test("a new e-mail or password needs a recent sign-in, unless the account is anonymous; a name change never does")
    func recentSignIn() throws {
        let newEmail = ProfileUpdate(email: "new@example.com")
        let newPassword = ProfileUpdate(setsPassword: true)
        #expect(throws: HearthError(.credentialTooOldLoginAgain)) { try check(newEmail, Self.withPassword(), authTime: Self.stale) }
        #expect(throws: HearthError(.credentialTooOldLoginAgain)) { try check(newPassword, Self.withPassword(), authTime: Self.stale) }
        try check(newEmail, Self.withPassword(), authTime: Self.recent)
        try check(newPassword, Self.anonymous(), authTime: Self.stale)
        try check(ProfileUpdate(email: "me@example.com", displayName: "Me"), Self.withPassword(), authTime: Self.stale)
    }

    @Test("with e-mail enumeration protection an e-mail changes only through a verified link; the same e-mail passes")
    func enumerationProtection() throws {
        let newEmail = ProfileUpdate(email: "new@example.com")
        #expect(throws: HearthError(.emailChangeNeedsVerification)) {
            try check(newEmail, Self.withPassword(), authTime: Self.recent, protection: true)
        }
        #expect(throws: HearthError(.emailChangeNeedsVerification)) {
            try check(newEmail, Self.anonymous(), authTime: Self.stale, protection: true)
        }
        // The recent sign-in is checked first.
        #expect(throws: HearthError(.credentialTooOldLoginAgain)) {
            try check(newEmail, Self.withPassword(), authTime: Self.stale, protection: true)
        }
        try check(ProfileUpdate(email: "me@example.com"), Self.withPassword(), authTime: Self.recent, protection: true)
        try check(ProfileUpdate(setsPassword: true), Self.withPassword(), authTime: Self.recent, protection: true)
    }

    @Test("an e-mail another account has is EMAIL_EXISTS; the account's own, or no owner, passes")
    func emailOwner() throws {
        let me = Self.withPassword()
        let other = UserRecord(uid: "other", email: "new@example.com", createdAt: Self.then, validSince: Self.then)
        #expect(throws: HearthError(.emailExists)) { try ProfileUpdate(email: "new@example.com").checkEmail(ownedBy: other, for: me) }
        try ProfileUpdate(email: "me@example.com").checkEmail(ownedBy: me, for: me)
        try ProfileUpdate(email: "new@example.com").checkEmail(ownedBy: nil, for: me)
        try ProfileUpdate(displayName: "Me").checkEmail(ownedBy: other, for: me)
    }

    @Test("credentials change with a password, or an e-mail other than the account's")
    func changesCredentials() {
        let user = Self.withPassword()
        #expect(ProfileUpdate(setsPassword: true).changesCredentials(of: user))
        #expect(ProfileUpdate(email: "new@example.com").changesCredentials(of: user))
        #expect(!ProfileUpdate(email: "me@example.com").changesCredentials(of: user))
        #expect(!ProfileUpdate(displayName: "Me", deletedAttributes: [.photoURL]).changesCredentials(of: user))
    }

    // MARK: apply

    @Test("a new e-mail is unverified and ends the sessions; the same e-mail changes nothing")
    func applyEmail() throws {
        var user = Self.withPassword()
        ProfileUpdate(email: "new@example.com").apply(to: &user, passwordHash: nil, now: Self.now)
        #expect(user.email == "new@example.com" && !user.emailVerified && user.validSince == Self.now)
        var same = Self.withPassword()
        ProfileUpdate(email: "me@example.com").apply(to: &same, passwordHash: nil, now: Self.now)
        #expect(same == Self.withPassword())
    }

    @Test("a new password is stored with its date and ends the sessions")
    func applyPassword() throws {
        var user = Self.withPassword()
        ProfileUpdate(setsPassword: true).apply(to: &user, passwordHash: "new", now: Self.now)
        #expect(user.passwordHash == "new" && user.passwordUpdatedAt == Self.now && user.validSince == Self.now)
        #expect(user.email == "me@example.com" && user.emailVerified)
    }

    @Test("an anonymous account upgraded with e-mail and password leaves the clean-up schedule")
    func applyUpgrade() throws {
        var user = Self.anonymous()
        ProfileUpdate(email: "new@example.com", setsPassword: true).apply(to: &user, passwordHash: "hash", now: Self.now)
        #expect(user.hasPasswordProvider && !user.isAnonymous && user.scheduledDeletionAt == nil)
        var named = Self.anonymous()
        ProfileUpdate(displayName: "Me").apply(to: &named, passwordHash: nil, now: Self.now)
        #expect(named.isAnonymous && named.scheduledDeletionAt == Self.anonymous().scheduledDeletionAt)
    }

    @Test("display name and photo are set, then removed attributes cleared")
    func applyProfileAndAttributes() throws {
        var user = Self.withPassword()
        ProfileUpdate(displayName: "Me", photoURL: "https://example.com/me.png").apply(to: &user, passwordHash: nil, now: Self.now)
        #expect(user.displayName == "Me" && user.photoURL == "https://example.com/me.png")
        ProfileUpdate(displayName: "Ignored", deletedAttributes: [.displayName, .photoURL]).apply(to: &user, passwordHash: nil, now: Self.now)
        #expect(user.displayName == nil && user.photoURL == nil)
        #expect(user.validSince == Self.then)

        var email = Self.withPassword()
        ProfileUpdate(deletedAttributes: [.email]).apply(to: &email, passwordHash: nil, now: Self.now)
        #expect(email.email == nil && !email.emailVerified && email.passwordHash == "old")
        var password = Self.withPassword()
        ProfileUpdate(deletedAttributes: [.password]).apply(to: &password, passwordHash: nil, now: Self.now)
        #expect(password.passwordHash == nil && password.passwordUpdatedAt == nil && password.email == "me@example.com")
    }

    @Test("unlinking password takes e-mail and password, phone the number, any other id its links")
    func applyUnlink() throws {
        var user = Self.withPassword()
        user.phoneNumber = "+15555550100"
        user.providers = [ProviderLink(providerID: "google.com", rawID: "g-1"), ProviderLink(providerID: "github.com", rawID: "gh-1")]
        ProfileUpdate(deletedProviders: ["password", "google.com"]).apply(to: &user, passwordHash: nil, now: Self.now)
        #expect(user.email == nil && !user.emailVerified && user.passwordHash == nil && user.passwordUpdatedAt == nil)
        #expect(user.providers.map(\.providerID) == ["github.com"])
        #expect(user.phoneNumber == "+15555550100")
        ProfileUpdate(deletedProviders: ["phone", "unknown.com"]).apply(to: &user, passwordHash: nil, now: Self.now)
        #expect(user.phoneNumber == nil && user.providers.map(\.providerID) == ["github.com"])
    }

    @Test("the last way to sign in may go, as Firebase allows: the account leaves the clean-up; an anonymous account stays in it")
    func applyLastProvider() throws {
        var user = Self.withPassword()
        ProfileUpdate(deletedProviders: ["password"]).apply(to: &user, passwordHash: nil, now: Self.now)
        #expect(user.email == nil && user.passwordHash == nil && user.isAnonymous)
        #expect(user.scheduledDeletionAt == UserRecord.neverDeleted)
        var linked = UserRecord(
            uid: "me", createdAt: Self.then, validSince: Self.then, providers: [ProviderLink(providerID: "google.com", rawID: "g-1")])
        ProfileUpdate(deletedProviders: ["google.com"]).apply(to: &linked, passwordHash: nil, now: Self.now)
        #expect(linked.providers.isEmpty && linked.scheduledDeletionAt == UserRecord.neverDeleted)
        // Linking again puts it back among accounts that can sign in.
        var relinked = linked
        relinked.providers = [ProviderLink(providerID: "google.com", rawID: "g-1")]
        ProfileUpdate(displayName: "Again").apply(to: &relinked, passwordHash: nil, now: Self.now)
        #expect(relinked.scheduledDeletionAt == nil)
        var anonymous = Self.anonymous()
        ProfileUpdate(deletedProviders: ["google.com"]).apply(to: &anonymous, passwordHash: nil, now: Self.now)
        #expect(anonymous.isAnonymous && anonymous.scheduledDeletionAt != nil && anonymous.scheduledDeletionAt != UserRecord.neverDeleted)
    }
}
