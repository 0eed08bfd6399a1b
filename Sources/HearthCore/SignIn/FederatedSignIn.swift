import Foundation

/// The account part of `accounts:signInWithIdp`, once the provider's identity is verified: link it to the signed-in
/// account, sign in its account, take over the account of the e-mail it vouches for, ask the person to confirm, or
/// make an account (the rules are ``AccountLinking``'s).
///
/// The decision rests on reads made before the write; the write re-checks each of them on the account as its
/// transaction reads it (the link still there, the e-mail still the account's, the account still enabled), and a
/// decision that went stale meanwhile, or a new account that lost a race for its e-mail or identity, is made again
/// on fresh reads.
public struct FederatedSignIn: Sendable {
    public let settings: any ProjectSettingsReading
    public let store: any AccountStore
    public let abuse: AbuseCounter
    public let idTokens: any IDTokenAuthenticating
    public let completion: SignInCompletion

    public init(
        settings: any ProjectSettingsReading, store: any AccountStore, abuse: AbuseCounter, idTokens: any IDTokenAuthenticating,
        completion: SignInCompletion
    ) {
        self.settings = settings
        self.store = store
        self.abuse = abuse
        self.idTokens = idTokens
        self.completion = completion
    }

    public enum Outcome: Sendable {
        case signedIn(SignedIn)
        /// The identity's e-mail has an account the provider does not vouch for: the person must first sign in to
        /// `owner` another way (`needConfirmation`).
        case needsConfirmation(owner: UserRecord)
    }

    /// The session claim that holds a SAML sign-in's attributes; the token minter moves it into
    /// `firebase.sign_in_attributes` (a reserved name no developer claim can take).
    public static let signInAttributesClaim = "firebase.sign_in_attributes"

    /// How many times a decision that went stale is made again before the sign-in gives up.
    static let attempts = 3

    /// A decision the write found stale.
    struct Stale: Error {}

    /// Decides and writes. `linkTo` is the ID token of the account the identity is linked to; `autoCreate` false
    /// refuses to make an account (`USER_NOT_FOUND`). Throws `FEDERATED_USER_ID_ALREADY_LINKED`, `EMAIL_EXISTS`,
    /// `USER_DISABLED`, `TOO_MANY_ATTEMPTS_TRY_LATER` and the ID token's errors.
    /// `providerTokens`: the identity provider's tokens, which the operator's blocking hooks may be sent.
    public func callAsFunction(
        _ profile: FederatedProfile, linkTo idToken: String?, autoCreate: Bool, from origin: ClientOrigin, providerTokens: ProviderTokens? = nil
    ) async throws -> Outcome {
        let rules = AccountLinking(profile: profile, oneAccountPerEmail: try await settings.projectSettings().oneAccountPerEmail)
        let signedIn = try await idToken.asyncMap { try await idTokens.authenticate($0).user }
        for attempt in 1...Self.attempts {
            do {
                return try await decide(rules, signedIn: signedIn, autoCreate: autoCreate, from: origin, providerTokens: providerTokens)
            } catch is Stale where attempt < Self.attempts {
                continue
            } catch let conflict as StoreConflict where conflict != .uid && signedIn == nil && attempt < Self.attempts {
                // A parallel sign-in made the account of this identity or e-mail first: decide again, on it.
                continue
            } catch is Stale {
                throw HearthError(.internalError, reason: "the accounts kept changing under a federated sign-in")
            } catch let conflict as StoreConflict {
                throw conflict.error
            }
        }
        throw HearthError(.internalError, reason: "unreachable")
    }

    private func decide(
        _ rules: AccountLinking, signedIn: UserRecord?, autoCreate: Bool, from origin: ClientOrigin, providerTokens: ProviderTokens?
    ) async throws -> Outcome {
        let profile = rules.profile
        let identityOwner = try await store.user(providerID: profile.providerID, rawID: profile.rawID)
        var emailOwner: UserRecord?
        if let email = rules.emailToCheck(signedIn: signedIn, identityOwner: identityOwner) { emailOwner = try await store.user(email: email) }
        let now = completion.clock.now
        // A SAML sign-in's attributes ride with the session: every ID token of it carries them as
        // `firebase.sign_in_attributes` (``signInAttributesClaim``).
        var record = SignInCompletion.Record(
            provider: profile.providerID, origin: origin.audit,
            sessionClaims: profile.signInAttributes.map { [Self.signInAttributesClaim: .object($0)] } ?? [:])
        record.providerTokens = providerTokens
        switch try rules.decide(signedIn: signedIn, identityOwner: identityOwner, emailOwner: emailOwner, autoCreate: autoCreate) {
        case .link(let uid):
            var linked = record
            linked.event = .linked
            return .signedIn(
                try await completion.complete(
                    .update(uid: uid) { user in
                        if user.disabled { throw HearthError(.userDisabled) }
                        rules.link(into: &user, now: now)
                    }, linked))
        case .signIn(let uid):
            return .signedIn(
                try await completion.complete(
                    .update(uid: uid) { user in
                        guard user.providers.contains(where: { $0.providerID == profile.providerID && $0.rawID == profile.rawID }) else {
                            throw Stale()
                        }
                        if user.disabled { throw HearthError(.userDisabled) }
                        rules.signIn(&user, now: now)
                    }, record))
        case .takeOver(let uid):
            // The provider vouched for the account's e-mail: its unverified sign-in methods go (see takeOver). Only
            // while the account still holds that e-mail.
            var tookOver = record
            tookOver.details = ["tookOver": "true"]
            return .signedIn(
                try await completion.complete(
                    .update(uid: uid) { user in
                        guard user.email == profile.email else { throw Stale() }
                        if user.disabled { throw HearthError(.userDisabled) }
                        rules.takeOver(&user, now: now)
                    }, tookOver))
        case .needsConfirmation(let owner):
            return .needsConfirmation(owner: owner)
        case .create:
            try await abuse.count(\.newAccounts, address: origin.counterAddress)
            return .signedIn(try await completion.complete(.create(rules.newUser(uid: UserRecord.makeUID(), now: now)), record))
        }
    }
}
