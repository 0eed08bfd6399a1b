import Foundation
import HearthCore
import Testing

/// The account rules of a federated sign-in, as values: every decision and what each does to an account.
@Suite("AccountLinking: the account rules of a federated sign-in")
struct AccountLinkingTests {
    static let then = Date(timeIntervalSince1970: 1_700_000_000)
    static let now = then.addingTimeInterval(3_600)

    static func profile(email: String? = "ada@example.com", verified: Bool = true) -> FederatedProfile {
        FederatedProfile(
            providerID: "github.com", rawID: "gh-1", email: email, emailVerified: verified,
            displayName: "Ada (GitHub)", photoURL: "https://example.com/gh.png")
    }

    static func rules(email: String? = "ada@example.com", verified: Bool = true, oneAccountPerEmail: Bool = true) -> AccountLinking {
        AccountLinking(profile: profile(email: email, verified: verified), oneAccountPerEmail: oneAccountPerEmail)
    }

    static func user(_ uid: String, email: String? = nil, verified: Bool = false, disabled: Bool = false) -> UserRecord {
        UserRecord(uid: uid, email: email, emailVerified: verified, disabled: disabled, createdAt: then, validSince: then)
    }

    // MARK: emailToCheck

    @Test("the e-mail is looked up when linking or when no account has the identity, under one account per e-mail only")
    func emailToCheck() {
        let owner = Self.user("owner")
        #expect(Self.rules().emailToCheck(signedIn: nil, identityOwner: nil) == "ada@example.com")
        #expect(Self.rules().emailToCheck(signedIn: Self.user("me"), identityOwner: owner) == "ada@example.com")
        #expect(Self.rules().emailToCheck(signedIn: nil, identityOwner: owner) == nil)
        #expect(Self.rules(oneAccountPerEmail: false).emailToCheck(signedIn: nil, identityOwner: nil) == nil)
        #expect(Self.rules(email: nil).emailToCheck(signedIn: Self.user("me"), identityOwner: nil) == nil)
    }

    // MARK: decide

    @Test("linking: to the signed-in user, unless a user has the identity (the signed-in one too) or another the e-mail")
    func decideLink() throws {
        let me = Self.user("me")
        #expect(try Self.rules().decide(signedIn: me, identityOwner: nil, emailOwner: nil, autoCreate: false) == .link(uid: "me"))
        #expect(try Self.rules().decide(signedIn: me, identityOwner: nil, emailOwner: me, autoCreate: true) == .link(uid: "me"))
        // Linking an identity again to the user who has it: Firebase's FEDERATED_USER_ID_ALREADY_LINKED.
        #expect(throws: HearthError(.federatedUserIDAlreadyLinked)) {
            try Self.rules().decide(signedIn: me, identityOwner: me, emailOwner: me, autoCreate: true)
        }
        #expect(throws: HearthError(.federatedUserIDAlreadyLinked)) {
            try Self.rules().decide(signedIn: me, identityOwner: Self.user("other"), emailOwner: nil, autoCreate: true)
        }
        #expect(throws: HearthError(.emailExists)) {
            try Self.rules().decide(signedIn: me, identityOwner: nil, emailOwner: Self.user("other"), autoCreate: true)
        }
        // The identity's conflict is named before the e-mail's.
        #expect(throws: HearthError(.federatedUserIDAlreadyLinked)) {
            try Self.rules().decide(signedIn: me, identityOwner: Self.user("a"), emailOwner: Self.user("b"), autoCreate: true)
        }
        // Without one account per e-mail, another account's e-mail is no conflict.
        let free = Self.rules(oneAccountPerEmail: false)
        #expect(try free.decide(signedIn: me, identityOwner: nil, emailOwner: Self.user("other"), autoCreate: true) == .link(uid: "me"))
    }

    @Test("signing in: the identity's user, before any e-mail rule; a disabled one is USER_DISABLED")
    func decideSignIn() throws {
        let owner = Self.user("owner")
        #expect(
            try Self.rules().decide(signedIn: nil, identityOwner: owner, emailOwner: Self.user("other"), autoCreate: false) == .signIn(uid: "owner"))
        #expect(throws: HearthError(.userDisabled)) {
            try Self.rules().decide(signedIn: nil, identityOwner: Self.user("owner", disabled: true), emailOwner: nil, autoCreate: true)
        }
    }

    @Test("an e-mail with an account: taken over when the provider vouches for it, else confirmation first")
    func decideEmailOwner() throws {
        let owner = Self.user("owner", email: "ada@example.com")
        #expect(try Self.rules().decide(signedIn: nil, identityOwner: nil, emailOwner: owner, autoCreate: false) == .takeOver(uid: "owner"))
        #expect(
            try Self.rules(verified: false).decide(signedIn: nil, identityOwner: nil, emailOwner: owner, autoCreate: true)
                == .needsConfirmation(owner: owner))
        let disabled = Self.user("owner", email: "ada@example.com", disabled: true)
        #expect(throws: HearthError(.userDisabled)) {
            try Self.rules().decide(signedIn: nil, identityOwner: nil, emailOwner: disabled, autoCreate: true)
        }
        // Confirmation is asked for before the account's state is told.
        #expect(
            try Self.rules(verified: false).decide(signedIn: nil, identityOwner: nil, emailOwner: disabled, autoCreate: true)
                == .needsConfirmation(owner: disabled))
    }

    @Test("no account: a new user when autoCreate allows, else USER_NOT_FOUND; without one account per e-mail the e-mail's account is ignored")
    func decideCreate() throws {
        #expect(try Self.rules().decide(signedIn: nil, identityOwner: nil, emailOwner: nil, autoCreate: true) == .create)
        #expect(throws: HearthError(.userNotFound)) {
            try Self.rules().decide(signedIn: nil, identityOwner: nil, emailOwner: nil, autoCreate: false)
        }
        let owner = Self.user("owner", email: "ada@example.com")
        #expect(try Self.rules(oneAccountPerEmail: false).decide(signedIn: nil, identityOwner: nil, emailOwner: owner, autoCreate: true) == .create)
        #expect(try Self.rules(email: nil).decide(signedIn: nil, identityOwner: nil, emailOwner: owner, autoCreate: true) == .create)
    }

    // MARK: link

    @Test("linking replaces the provider's link, keeping the name and e-mail a provider sent only once")
    func linkReplacesTheLink() {
        var user = Self.user("me", email: "me@example.com")
        user.providers = [
            ProviderLink(providerID: "github.com", rawID: "old", email: "first@example.com", displayName: "First name"),
            ProviderLink(providerID: "google.com", rawID: "g-1"),
        ]
        user.scheduledDeletionAt = Self.then
        var profile = Self.profile(email: nil)
        profile.displayName = nil
        AccountLinking(profile: profile, oneAccountPerEmail: true).link(into: &user, now: Self.now)
        #expect(user.providers.map(\.providerID) == ["google.com", "github.com"])
        let link = user.providers[1]
        #expect(link.rawID == "gh-1" && link.displayName == "First name" && link.email == "first@example.com")
        #expect(user.scheduledDeletionAt == nil)
        #expect(user.lastLoginAt == Self.now)
        #expect(user.email == "me@example.com" && !user.emailVerified)
    }

    @Test("linking gives an account without e-mail the provider's, under one account per e-mail only")
    func linkTakesTheEmail() {
        var user = Self.user("me")
        Self.rules(verified: false).link(into: &user, now: Self.now)
        #expect(user.email == "ada@example.com" && !user.emailVerified)
        var verified = Self.user("me")
        Self.rules().link(into: &verified, now: Self.now)
        #expect(verified.email == "ada@example.com" && verified.emailVerified)
        var free = Self.user("me")
        Self.rules(oneAccountPerEmail: false).link(into: &free, now: Self.now)
        #expect(free.email == nil && !free.emailVerified)
    }

    @Test("linking verifies the account's e-mail when the provider vouches for the same address, never another")
    func linkVerifiesTheSameEmail() {
        var same = Self.user("me", email: "ada@example.com")
        Self.rules().link(into: &same, now: Self.now)
        #expect(same.emailVerified)
        var unvouched = Self.user("me", email: "ada@example.com")
        Self.rules(verified: false).link(into: &unvouched, now: Self.now)
        #expect(!unvouched.emailVerified)
        var other = Self.user("me", email: "me@example.com")
        Self.rules().link(into: &other, now: Self.now)
        #expect(other.email == "me@example.com" && !other.emailVerified)
        // A provider that names no address (yet says email_verified) verifies nothing: there is nothing to verify.
        var noEmail = Self.user("me")
        Self.rules(email: nil, verified: true).link(into: &noEmail, now: Self.now)
        #expect(noEmail.email == nil && !noEmail.emailVerified)
        var keptApart = Self.user("me")
        AccountLinking(profile: Self.profile(email: nil, verified: true), oneAccountPerEmail: false).link(into: &keptApart, now: Self.now)
        #expect(!keptApart.emailVerified)
    }

    @Test("linking fills a missing display name and photo from the provider, never replaces them")
    func linkFillsTheProfile() {
        var empty = Self.user("me")
        Self.rules().link(into: &empty, now: Self.now)
        #expect(empty.displayName == "Ada (GitHub)" && empty.photoURL == "https://example.com/gh.png")
        var named = Self.user("me")
        named.displayName = "Ada"
        named.photoURL = "https://example.com/me.png"
        Self.rules().link(into: &named, now: Self.now)
        #expect(named.displayName == "Ada" && named.photoURL == "https://example.com/me.png")
    }

    // MARK: signIn

    @Test("signing in refreshes the identity's link from the provider, keeps what it sent only once, and touches nothing else")
    func signInRefreshesTheLink() {
        var user = Self.user("owner", email: "owner@example.com")
        user.displayName = "Owner"
        user.providers = [
            ProviderLink(
                providerID: "github.com", rawID: "gh-1", email: "old@example.com", displayName: "Old", photoURL: "https://example.com/old.png"),
            ProviderLink(providerID: "google.com", rawID: "g-1", displayName: "Google"),
        ]
        var profile = Self.profile(email: nil)
        profile.displayName = nil
        let before = user
        AccountLinking(profile: profile, oneAccountPerEmail: true).signIn(&user, now: Self.now)
        #expect(
            user.providers[0]
                == ProviderLink(
                    providerID: "github.com", rawID: "gh-1", email: "old@example.com", displayName: "Old", photoURL: "https://example.com/gh.png"))
        #expect(user.providers[1] == before.providers[1])
        #expect(user.lastLoginAt == Self.now)
        var rest = user
        rest.providers = before.providers
        rest.lastLoginAt = nil
        #expect(rest == before)
    }

    // MARK: takeOver

    @Test("taking over an account whose e-mail was never verified removes the first owner's password, phone and providers and ends its sessions")
    func takeOverUnverified() {
        var user = Self.user("owner", email: "ada@example.com")
        user.passwordHash = "hash"
        user.passwordUpdatedAt = Self.then
        user.phoneNumber = "+15555550100"
        user.displayName = "Attacker"
        user.photoURL = "https://example.com/attacker.png"
        user.providers = [ProviderLink(providerID: "google.com", rawID: "attacker"), ProviderLink(providerID: "github.com", rawID: "attacker-gh")]
        Self.rules().takeOver(&user, now: Self.now)
        #expect(user.passwordHash == nil && user.passwordUpdatedAt == nil && user.phoneNumber == nil)
        #expect(user.providers == [Self.profile().link])
        #expect(user.displayName == "Ada (GitHub)" && user.photoURL == "https://example.com/gh.png")
        #expect(user.validSince == Self.now)
        #expect(user.emailVerified && user.email == "ada@example.com")
        #expect(user.lastLoginAt == Self.now)
    }

    @Test("taking over an account with a verified e-mail keeps what it signs in with and its sessions, and replaces the provider's link")
    func takeOverVerified() {
        var user = Self.user("owner", email: "ada@example.com", verified: true)
        user.passwordHash = "hash"
        user.phoneNumber = "+15555550100"
        user.displayName = "Ada"
        user.providers = [ProviderLink(providerID: "github.com", rawID: "old"), ProviderLink(providerID: "google.com", rawID: "g-1")]
        Self.rules().takeOver(&user, now: Self.now)
        #expect(user.passwordHash == "hash" && user.phoneNumber == "+15555550100" && user.displayName == "Ada")
        #expect(user.providers == [ProviderLink(providerID: "google.com", rawID: "g-1"), Self.profile().link])
        #expect(user.validSince == Self.then)
        #expect(user.emailVerified && user.lastLoginAt == Self.now)
    }

    // MARK: newUser

    @Test("a new user has the provider's profile and link, and its e-mail only under one account per e-mail")
    func newUser() {
        let user = Self.rules().newUser(uid: "new", now: Self.now)
        #expect(user.uid == "new" && user.email == "ada@example.com" && user.emailVerified)
        #expect(user.displayName == "Ada (GitHub)" && user.photoURL == "https://example.com/gh.png")
        #expect(user.providers == [Self.profile().link])
        #expect(user.createdAt == Self.now && user.lastLoginAt == Self.now && user.validSince == Self.now)
        #expect(!user.isAnonymous)
        let unverified = Self.rules(verified: false).newUser(uid: "new", now: Self.now)
        #expect(unverified.email == "ada@example.com" && !unverified.emailVerified)
        let free = Self.rules(oneAccountPerEmail: false).newUser(uid: "new", now: Self.now)
        #expect(free.email == nil && !free.emailVerified)
    }
}
