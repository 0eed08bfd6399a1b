import Foundation

/// `accounts:signUp` for a person (an administrator's create is the admin API's): an anonymous account, an
/// account with an e-mail and password, or an account signed in (usually anonymous) that adds them.
public struct SignUp: Sendable {
    public let settings: any ProjectSettingsReading
    public let store: any AccountStore
    public let passwords: any PasswordChecking
    public let abuse: AbuseCounter
    public let idTokens: any IDTokenAuthenticating
    public let completion: SignInCompletion
    /// How long an anonymous account lives unused when the clean-up is on.
    public let anonymousMaxAge: TimeInterval
    /// How recent a sign-in must be to change the e-mail or password of a non-anonymous account.
    public let recentLoginWindow: TimeInterval

    public init(
        settings: any ProjectSettingsReading, store: any AccountStore, passwords: any PasswordChecking, abuse: AbuseCounter,
        idTokens: any IDTokenAuthenticating, completion: SignInCompletion, anonymousMaxAge: TimeInterval, recentLoginWindow: TimeInterval
    ) {
        self.settings = settings
        self.store = store
        self.passwords = passwords
        self.abuse = abuse
        self.idTokens = idTokens
        self.completion = completion
        self.anonymousMaxAge = anonymousMaxAge
        self.recentLoginWindow = recentLoginWindow
    }

    /// What the person sends (the wire request's fields, unchecked).
    public struct Input: Sendable {
        public var email: String?
        public var password: String?
        public var displayName: String?
        /// The ID token of the account that adds an e-mail and password.
        public var idToken: String?

        public init(email: String? = nil, password: String? = nil, displayName: String? = nil, idToken: String? = nil) {
            self.email = email
            self.password = password
            self.displayName = displayName
            self.idToken = idToken
        }
    }

    /// Signs up. Throws `ADMIN_ONLY_OPERATION` (anonymous sign-in off), `MISSING_EMAIL`, `MISSING_PASSWORD`,
    /// `OPERATION_NOT_ALLOWED` (password sign-in off), `INVALID_EMAIL`, `WEAK_PASSWORD`, `INVALID_DISPLAY_NAME`,
    /// `EMAIL_EXISTS`, `CREDENTIAL_TOO_OLD_LOGIN_AGAIN`, `TOO_MANY_ATTEMPTS_TRY_LATER`, and the ID token's errors.
    public func callAsFunction(_ input: Input, from origin: ClientOrigin) async throws -> SignedIn {
        guard input.idToken != nil || input.email != nil || input.password != nil else { return try await anonymous(from: origin) }
        guard let rawEmail = input.email else { throw HearthError(.missingEmail) }
        guard let password = input.password else { throw HearthError(.missingPassword) }
        guard try await settings.projectSettings().passwordEnabled else { throw HearthError(.operationNotAllowed) }
        guard let email = EmailAddress.normalize(rawEmail) else { throw HearthError(.invalidEmail) }
        try PasswordPolicy.check(password)
        let displayName = try input.displayName.map(UserText.displayName)
        if let idToken = input.idToken {
            return try await addPassword(email: email, password: password, displayName: displayName, to: idToken, from: origin)
        }

        // Counted before the e-mail check, so that probing for EMAIL_EXISTS is limited too.
        try await abuse.count(\.newAccounts, address: origin.counterAddress)
        if try await store.user(email: email) != nil { throw HearthError(.emailExists) }
        let hash = try await passwords.hash(password)
        let now = completion.clock.now
        let user = UserRecord(
            uid: UserRecord.makeUID(), email: email, displayName: displayName, passwordHash: hash, passwordUpdatedAt: now,
            createdAt: now, lastLoginAt: now, validSince: now)
        return try await StoreConflict.mapped {
            try await completion.complete(.create(user), .init(provider: "password", event: .signedUp, origin: origin.audit))
        }
    }

    private func anonymous(from origin: ClientOrigin) async throws -> SignedIn {
        let settings = try await settings.projectSettings()
        guard settings.anonymousEnabled else { throw HearthError(.adminOnlyOperation) }
        try await abuse.count(\.anonymousSignUps, address: origin.counterAddress)
        try await abuse.count(\.newAccounts, address: origin.counterAddress)
        let now = completion.clock.now
        let user = UserRecord(
            uid: UserRecord.makeUID(), createdAt: now, lastLoginAt: now, validSince: now,
            scheduledDeletionAt: settings.anonymousCleanupEnabled ? now.addingTimeInterval(anonymousMaxAge) : nil)
        return try await StoreConflict.mapped {
            try await completion.complete(.create(user), .init(provider: "anonymous", event: .signedUp, origin: origin.audit))
        }
    }

    /// The signed-in account takes the e-mail and password (the anonymous upgrade): ``ProfileUpdate``'s change
    /// of credentials, re-checked in the write (the account still without another owner of the e-mail, which the
    /// store's uniqueness guarantees, and still allowed to change them).
    private func addPassword(
        email: String, password: String, displayName: String?, to idToken: String, from origin: ClientOrigin
    ) async throws -> SignedIn {
        let current = try await idTokens.authenticate(idToken)
        let update = ProfileUpdate(email: email, setsPassword: true, displayName: displayName)
        let now = completion.clock.now
        try update.credentialChange.check(current.user, authTime: current.authTime, now: now, window: recentLoginWindow)
        try update.checkEmail(ownedBy: try await store.user(email: email), for: current.user)
        let hash = try await passwords.hash(password)
        let window = recentLoginWindow
        return try await StoreConflict.mapped {
            try await completion.complete(
                .update(uid: current.user.uid) { user in
                    if user.disabled { throw HearthError(.userDisabled) }
                    // Checked again on the account as the transaction reads it: it may have stopped being anonymous.
                    try update.credentialChange.check(user, authTime: current.authTime, now: now, window: window)
                    update.apply(to: &user, passwordHash: hash, now: now)
                    // Firebase's sign-up leaves the new address unverified even when it was the account's already.
                    user.emailVerified = false
                    user.lastLoginAt = now
                },
                .init(provider: "password", event: .linked, origin: origin.audit))
        }
    }
}
