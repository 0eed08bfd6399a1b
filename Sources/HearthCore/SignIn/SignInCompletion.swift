import Foundation

/// The one step every sign-in ends in: it writes the account and the new session in one transaction, records the
/// audit event, and signs the ID token.
///
/// Sign-up, password, federated, custom-token and e-mail-link sign-ins decide *which* account signs in and *what*
/// changes on it; this step is the only place a session is minted. What applies to every sign-in alike (a second
/// factor that answers `mfaPendingCredential` instead of tokens, an operator's blocking hook, a tenant's scope)
/// belongs here, once.
public struct SignInCompletion: Sendable {
    public let store: any AccountStore & MultiFactorSessionStore
    public let tokens: any IDTokenMinting
    public let audit: any AuditRecording
    public let clock: WallClock

    /// How long an `mfaPendingCredential` waits for its second factor.
    public static let pendingLifetime: TimeInterval = 600
    /// Wrong second factors one pending credential allows.
    public static let pendingAttempts = 5

    /// The tenant the store works in (`nil`: the project's): its refresh tokens name it.
    let tenantID: String?
    /// The operator's blocking hooks; `nil`: none are asked.
    public var hooks: BlockingHooks?

    public init(
        store: any AccountStore & MultiFactorSessionStore, tokens: any IDTokenMinting, audit: any AuditRecording, clock: WallClock,
        tenantID: String? = nil
    ) {
        self.tenantID = tenantID
        self.store = store
        self.tokens = tokens
        self.audit = audit
        self.clock = clock
    }

    /// What the sign-in writes.
    public enum Write: Sendable {
        /// A new account.
        case create(UserRecord)
        /// An existing account, changed by `change` as the transaction reads it. `change` re-checks what the
        /// decision rested on (the account still enabled, still holding the e-mail or the link it was chosen
        /// for) and throws to refuse; it may run more than once when the database retries.
        case update(uid: String, change: @Sendable (inout UserRecord) throws -> Void)
        /// A new account, or, when its uid exists already (a custom token's uid used before, or made by a
        /// parallel request), `change` applied to that account.
        case createOrUpdate(UserRecord, change: @Sendable (inout UserRecord) throws -> Void)
    }

    /// How the sign-in is recorded.
    public struct Record: Sendable {
        /// The session's `sign_in_provider`.
        public var provider: String
        /// The audit event's kind (signed up, signed in, linked) and `method`; a new account is always `signedUp`.
        public var event: AuditEvent.Kind
        public var method: String
        public var details: [String: String]
        public var origin: AuditOrigin
        /// Claims every ID token of the session carries (a custom token's developer claims).
        public var sessionClaims: [String: JSONValue]
        /// The second factor the sign-in passed (`mfaSignIn:finalize`, `mfaEnrollment:finalize`).
        public var secondFactor: SecondFactorUse?
        /// The sign-in continues a session the person holds (a factor withdrawn): no second factor is asked.
        public var continuesSession: Bool
        /// The first factor is multi-factor by itself (a passkey whose authenticator verified the user: a device held
        /// and a PIN or biometric): no second factor is asked, and the token names none.
        public var isMultiFactor = false
        /// The identity provider's tokens of a federated sign-in, which the blocking hooks may be sent.
        public var providerTokens: ProviderTokens?

        public init(
            provider: String, event: AuditEvent.Kind = .signedIn, method: String? = nil, details: [String: String] = [:],
            origin: AuditOrigin, sessionClaims: [String: JSONValue] = [:], secondFactor: SecondFactorUse? = nil, continuesSession: Bool = false
        ) {
            self.secondFactor = secondFactor
            self.continuesSession = continuesSession
            self.provider = provider
            self.event = event
            self.method = method ?? provider
            self.details = details
            self.origin = origin
            self.sessionClaims = sessionClaims
        }
    }

    /// Whether a sign-in recorded as `record` stops at the first factor for `user`: the account has second factors,
    /// and the sign-in is a first factor (not a link to a signed-in account, not the second factor itself, not a session
    /// continued, not a passkey that verified its user). A custom
    /// token is the developer's backend vouching for the person, which Identity Platform does not ask a second
    /// factor of either.
    public static func needsSecondFactor(_ user: UserRecord, _ record: Record) -> Bool {
        !user.secondFactors.isEmpty && record.secondFactor == nil && !record.continuesSession && !record.isMultiFactor
            && record.event != .linked && record.provider != "custom"
    }

    /// Writes `write` with a new session of `record.provider` signed in now, records the event, and signs the
    /// ID token. Store conflicts (an e-mail, phone number or identity taken meanwhile) are thrown as
    /// ``StoreConflict`` for the caller to decide again or answer (``StoreConflict/error``).
    ///
    /// An account with second factors (``needsSecondFactor(_:_:)``) gets the first factor's changes written (its
    /// last sign-in time excepted) but no session: ``SecondFactorRequired`` is thrown with a pending credential.
    public func complete(_ write: Write, _ proposed: Record) async throws -> SignedIn {
        let now = clock.now
        var hooked = proposed
        var write = write
        // The operator's hooks first: they may refuse, and what they change is written with the sign-in.
        if let hooks, BlockingHooks.applies(to: proposed), try await hooks.anyConfigured() {
            var changes = BlockingHookChanges.none
            switch write {
            case .create(var created):
                changes = try await hooks.run(for: created, creating: true, record: proposed, providerTokens: proposed.providerTokens)
                changes.apply(to: &created)
                write = .create(created)
            case .update(let uid, let change):
                guard var preview = try await store.user(uid: uid) else { throw HearthError(.userNotFound, reason: "gone before the hooks") }
                try change(&preview)
                // An account with second factors is asked about at its second factor, once the sign-in is whole.
                if Self.needsSecondFactor(preview, proposed) { break }
                let asked = try await hooks.run(for: preview, creating: false, record: proposed, providerTokens: proposed.providerTokens)
                write = .update(uid: uid) { user in
                    try change(&user)
                    asked.apply(to: &user)
                }
                changes = asked
            case .createOrUpdate:
                break
            }
            if let claims = changes.sessionClaims { hooked.sessionClaims.merge(claims) { _, hook in hook } }
        }
        let record = hooked
        let claimsText = record.sessionClaims.isEmpty ? nil : JSONValue.object(record.sessionClaims).jsonText
        let uid: String
        switch write {
        case .create(let user), .createOrUpdate(let user, _): uid = user.uid
        case .update(let existing, _): uid = existing
        }
        let session = RefreshSessionRecord.issue(
            uid: uid, signInProvider: record.provider, authTime: now, now: now, extraClaims: claimsText, secondFactor: record.secondFactor,
            tenantID: tenantID)

        let user: UserRecord
        let isNewUser: Bool
        let idToken: String
        switch write {
        case .create(let created) where created.disabled:
            // A hook disabled the new account: it is kept, disabled, and nobody is signed in.
            try await store.createUser(created, session: nil)
            throw HearthError(.userDisabled, reason: "a blocking hook disabled the new account")
        case .create(let made):
            var stamped = made
            stamped.lastRefreshAt = now
            let created = stamped
            // The token is signed while the user is being written: the signature does not depend on the write, and
            // the write (queued behind others on SQLite's single writer) does not hold up the CPU work. The token
            // leaves only once the user is stored.
            async let signed = tokens.mintIDToken(
                for: created, signInProvider: record.provider, authTime: now, sessionClaims: record.sessionClaims,
                secondFactor: record.secondFactor)
            try await store.createUser(created, session: session.record)
            (user, isNewUser, idToken) = (created, true, try await signed)
        case .update(_, let change):
            user = try await store.updateUser(
                uid: uid, session: session.record, startsSession: { !Self.needsSecondFactor($0, record) && !$0.disabled },
                { user in
                    let lastLogin = user.lastLoginAt
                    try change(&user)
                    // The sign-in is not done until the second factor: it is not the last sign-in yet.
                    if Self.needsSecondFactor(user, record) {
                        user.lastLoginAt = lastLogin
                    } else {
                        user.lastRefreshAt = now
                    }
                })
            isNewUser = false
            if user.disabled { throw HearthError(.userDisabled, reason: "disabled in the sign-in's write") }
            if Self.needsSecondFactor(user, record) { throw try await pendSecondFactor(user, record, now: now) }
            idToken = try await tokens.mintIDToken(
                for: user, signInProvider: record.provider, authTime: now, sessionClaims: record.sessionClaims,
                secondFactor: record.secondFactor)
        case .createOrUpdate(var created, let change):
            created.lastRefreshAt = now
            do {
                try await store.createUser(created, session: session.record)
                (user, isNewUser) = (created, true)
            } catch StoreConflict.uid {
                user = try await store.updateUser(uid: uid, session: session.record) { user in
                    try change(&user)
                    user.lastRefreshAt = now
                }
                isNewUser = false
            }
            idToken = try await tokens.mintIDToken(
                for: user, signInProvider: record.provider, authTime: now, sessionClaims: record.sessionClaims,
                secondFactor: record.secondFactor)
        }
        await audit.record(
            AuditEvent(
                time: now, kind: isNewUser ? .signedUp : record.event, uid: user.uid, actor: .user, actorID: record.origin.actorID,
                method: record.method, clientAddress: record.origin.address, details: record.details))
        return SignedIn(
            user: user, idToken: idToken, refreshToken: session.token, expiresIn: Int(tokens.idTokenLifetime), isNewUser: isNewUser,
            signInProvider: record.provider)
    }

    /// Stores the pending sign-in and makes the error that carries its credential.
    private func pendSecondFactor(_ user: UserRecord, _ record: Record, now: Date) async throws -> SecondFactorRequired {
        let credential = VerificationCode.makeHandle()
        let claims = record.sessionClaims.isEmpty ? nil : JSONValue.object(record.sessionClaims).jsonText
        try await store.insertMultiFactorSession(
            MultiFactorSessionRecord(
                key: VerificationCode.key(credential), kind: .signIn, uid: user.uid,
                payload: PendingSignIn(provider: record.provider, method: record.method, sessionClaims: claims).multiFactorJSON,
                attemptsLeft: Self.pendingAttempts, createdAt: now, expiresAt: now.addingTimeInterval(Self.pendingLifetime)))
        return SecondFactorRequired(user: user, pendingCredential: credential)
    }
}
