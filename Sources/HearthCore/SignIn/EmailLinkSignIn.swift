import Foundation

/// `accounts:signInWithEmailLink`: the code of a sign-in mail proves the address. It signs in to the address's
/// account, makes one, or (with an ID token) adds the address to the signed-in account. The sign-in's provider is
/// `password`, as Firebase's is.
public struct EmailLinkSignIn: Sendable {
    public let settings: any ProjectSettingsReading
    public let store: any AccountStore
    public let codes: ActionCodes
    public let abuse: AbuseCounter
    public let idTokens: any IDTokenAuthenticating
    public let completion: SignInCompletion

    public init(
        settings: any ProjectSettingsReading, store: any AccountStore, codes: ActionCodes, abuse: AbuseCounter,
        idTokens: any IDTokenAuthenticating, completion: SignInCompletion
    ) {
        self.settings = settings
        self.store = store
        self.codes = codes
        self.abuse = abuse
        self.idTokens = idTokens
        self.completion = completion
    }

    /// Throws `OPERATION_NOT_ALLOWED`, `MISSING_EMAIL`, `MISSING_OOB_CODE`, `INVALID_EMAIL` (also when the address is
    /// not the mail's), `INVALID_OOB_CODE`, `EXPIRED_OOB_CODE`, `EMAIL_EXISTS`, `USER_DISABLED`,
    /// `TOO_MANY_ATTEMPTS_TRY_LATER` and the ID token's errors.
    public func callAsFunction(email rawEmail: String?, code: String?, linkTo idToken: String?, from origin: ClientOrigin) async throws
        -> SignedIn
    {
        guard try await settings.projectSettings().emailLinkEnabled else { throw HearthError(.operationNotAllowed) }
        guard let rawEmail else { throw HearthError(.missingEmail) }
        guard let code, !code.isEmpty else { throw HearthError(.missingOOBCode) }
        guard let email = EmailAddress.normalize(rawEmail) else { throw HearthError(.invalidEmail) }
        let issued = try await codes.peek(code)
        guard issued.kind == .emailSignIn else { throw HearthError(.invalidOOBCode, reason: "not a sign-in code") }
        guard issued.email == email else {
            throw HearthError(.invalidEmail, detail: "The email provided does not match the sign-in email address.")
        }
        let current = try await idToken.asyncMap { try await idTokens.authenticate($0).user }
        let owner = try await store.user(email: email)
        if let current, let owner, owner.uid != current.uid { throw HearthError(.emailExists) }
        if current == nil, owner?.disabled == true { throw HearthError(.userDisabled) }
        if current == nil, owner == nil { try await abuse.count(\.newAccounts, address: origin.counterAddress) }
        _ = try await codes.redeem(code, kinds: [.emailSignIn])

        let now = completion.clock.now
        var record = SignInCompletion.Record(provider: "password", method: "emailLink", origin: origin.audit)
        if let existing = current ?? owner {
            // With an ID token the address joins the signed-in account: a link; else a sign-in.
            if current != nil { record.event = .linked }
            return try await StoreConflict.mapped {
                try await completion.complete(.update(uid: existing.uid, change: Self.proving(email, now: now)), record)
            }
        }
        let created = UserRecord(
            uid: UserRecord.makeUID(), email: email, emailVerified: true, emailLinkSignIn: true, createdAt: now, lastLoginAt: now,
            validSince: now)
        do {
            return try await completion.complete(.create(created), record)
        } catch StoreConflict.email {
            // A parallel sign-in with another link to the same new address made the account first: the link proves
            // this address as well as that one did, so it signs in to that account.
            guard let winner = try await store.user(email: email) else { throw StoreConflict.email.error }
            return try await StoreConflict.mapped {
                try await completion.complete(.update(uid: winner.uid, change: Self.proving(email, now: now)), record)
            }
        } catch let conflict as StoreConflict {
            throw conflict.error
        }
    }

    /// The account signs in with the proven address `email`, taking it when it had another.
    static func proving(_ email: String, now: Date) -> @Sendable (inout UserRecord) throws -> Void {
        { user in
            if user.disabled { throw HearthError(.userDisabled) }
            // A password set by someone who never proved the address is dropped once its owner does.
            if user.email == email, !user.emailVerified { user.passwordHash = nil }
            user.changeEmail(to: email)
            user.emailVerified = true
            user.emailLinkSignIn = true
            user.lastLoginAt = now
            user.scheduledDeletionAt = nil
        }
    }
}
