import Foundation

/// `accounts:signInWithPassword`: an e-mail and password, under the abuse limits and the password lockout, and
/// with e-mail enumeration protection: with it on, an unknown e-mail, an account without a password and a wrong
/// password all answer `INVALID_LOGIN_CREDENTIALS`, after the same work (a decoy check).
public struct PasswordSignIn: Sendable {
    public let settings: any ProjectSettingsReading
    public let store: any AccountStore
    public let passwords: any PasswordChecking
    public let abuse: AbuseCounter
    public let audit: any AuditRecording
    public let completion: SignInCompletion

    public init(
        settings: any ProjectSettingsReading, store: any AccountStore, passwords: any PasswordChecking, abuse: AbuseCounter,
        audit: any AuditRecording, completion: SignInCompletion
    ) {
        self.settings = settings
        self.store = store
        self.passwords = passwords
        self.abuse = abuse
        self.audit = audit
        self.completion = completion
    }

    /// Signs in. Throws `OPERATION_NOT_ALLOWED`, `MISSING_EMAIL`, `INVALID_EMAIL`, `MISSING_PASSWORD`,
    /// `TOO_MANY_ATTEMPTS_TRY_LATER` (with or without the account's lockout message), `USER_DISABLED`, and
    /// `INVALID_LOGIN_CREDENTIALS` or, without enumeration protection, `EMAIL_NOT_FOUND` / `INVALID_PASSWORD`.
    /// Returns the normalised e-mail with the sign-in.
    public func callAsFunction(email rawEmail: String?, password: String?, from origin: ClientOrigin) async throws -> (
        email: String, signedIn: SignedIn
    ) {
        let settings = try await settings.projectSettings()
        guard settings.passwordEnabled else { throw HearthError(.operationNotAllowed) }
        guard let rawEmail else { throw HearthError(.missingEmail) }
        guard let email = EmailAddress.normalize(rawEmail) else { throw HearthError(.invalidEmail) }
        guard let password else { throw HearthError(.missingPassword) }
        let protected = settings.emailEnumerationProtection

        // The attempt is counted (per address, and by the lockout per account and address) BEFORE the password is
        // checked: parallel guesses cannot all pass a check that counts finished ones.
        try await abuse.count(\.passwordSignIns, address: origin.counterAddress)
        let reservation = try await abuse.reservePasswordAttempt(email: email, address: origin.counterAddress)

        // A refusal is recorded with the account when there is one; for an unknown e-mail without anything that
        // identifies the person (see AuditEvent). Every path writes one event, so timing tells them apart no better.
        func failed(_ reason: String, uid: String?) async {
            await audit.record(
                AuditEvent(
                    time: completion.clock.now, kind: .signInFailed, uid: uid, actor: .user, actorID: origin.audit.actorID,
                    method: "password", clientAddress: origin.audit.address, details: ["reason": reason]))
        }
        let wrong = HearthError(protected ? .invalidLoginCredentials : .invalidPassword)
        guard let found = try await store.user(email: email) else {
            // Spend the time a real check takes, so timing does not tell which e-mails exist.
            try await passwords.verifyDecoy(password)
            await failed("unknownEmail", uid: nil)
            throw HearthError(protected ? .invalidLoginCredentials : .emailNotFound)
        }
        if found.disabled {
            await failed("disabled", uid: found.uid)
            throw HearthError(.userDisabled)
        }
        guard let hash = found.passwordHash else {
            // No password: as long as a wrong one, so timing does not tell such accounts apart either.
            try await passwords.verifyDecoy(password)
            await failed("noPassword", uid: found.uid)
            throw wrong
        }
        guard try await passwords.verify(password, against: hash) else {
            await failed("wrongPassword", uid: found.uid)
            throw wrong
        }
        try await abuse.passwordAttemptSucceeded(reservation, email: email, address: origin.counterAddress)
        // A hash imported from elsewhere, or made at an older cost, is redone now that the password is known.
        let rehashed = passwords.needsRehash(hash) ? try await passwords.hash(password) : nil
        let now = completion.clock.now
        let signedIn = try await StoreConflict.mapped {
            try await completion.complete(
                .update(uid: found.uid) { user in
                    // The decision rested on this account holding this e-mail and this password, enabled: a change
                    // made meanwhile (a new password, a disabled account, the address moved) refuses the sign-in.
                    if user.disabled { throw HearthError(.userDisabled) }
                    guard user.email == email, user.passwordHash == hash else { throw wrong }
                    user.lastLoginAt = now
                    if let rehashed { user.passwordHash = rehashed }
                },
                .init(provider: "password", origin: origin.audit))
        }
        return (email, signedIn)
    }
}
