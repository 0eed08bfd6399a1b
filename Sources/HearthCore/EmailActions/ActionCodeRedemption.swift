import Foundation

/// Mails an account's address is owed by a change made to it.
public protocol AccountMailing: Sendable {
    /// After an e-mail change: a `RECOVER_EMAIL` link to the old address, which restores it (nothing when the server
    /// cannot send mail).
    func mailRecoveryLink(uid: String, oldEmail: String, newEmail: String, languageCode: String?) async throws
    /// After a second factor was enrolled: a `REVERT_SECOND_FACTOR_ADDITION` link to the account's address, which
    /// withdraws the factor (nothing when the server cannot send mail).
    func mailSecondFactorAdded(uid: String, email: String, factor: SecondFactorEnrollment, languageCode: String?) async throws
}

/// What using a code of an e-mail action does to the account: a password reset (`accounts:resetPassword`), and a
/// verification, change or recovery of the address (`accounts:update` with an `oobCode`).
public struct ActionCodeRedemption: Sendable {
    public typealias Store = AccountStore & ActionCodeStore & LoginFailureStore

    public let store: any Store
    public let codes: ActionCodes
    public let passwords: any PasswordChecking
    public let mail: any AccountMailing

    public init(store: any Store, clock: WallClock, passwords: any PasswordChecking, mail: any AccountMailing) {
        self.store = store
        self.codes = ActionCodes(store: store, clock: clock)
        self.passwords = passwords
        self.mail = mail
    }

    /// Sets a new password with a reset code: the password must be acceptable before the code is used up.
    /// The user's sessions end (`validSince` moves), the address counts as verified (the mail reached it),
    /// other reset links are voided and the account's password lockout is forgotten.
    public func resetPassword(code: String, newPassword: String) async throws -> ActionCodeRecord {
        let record = try await codes.peek(code)
        guard record.kind == .passwordReset else { throw HearthError(.invalidOOBCode, reason: "not a reset code") }
        try PasswordPolicy.check(newPassword)
        let hash = try await passwords.hash(newPassword)
        let used = try await codes.redeem(code, kinds: [.passwordReset])
        guard let uid = used.uid else { throw HearthError(.invalidOOBCode, reason: "reset code without account") }
        let now = codes.clock.now
        try await updateUser(uid) { user in
            guard user.email == used.email else { throw HearthError(.invalidOOBCode, reason: "address changed since the mail") }
            user.passwordHash = hash
            user.passwordUpdatedAt = now
            user.emailVerified = true
            user.validSince = now
            user.scheduledDeletionAt = nil
        }
        try await store.deleteActionCodes(uid: uid, kinds: [.passwordReset])
        try await store.deleteLoginFailures([PasswordLockout.accountSubject(email: used.email)])
        return used
    }

    /// Applies a verification, e-mail change, recovery or second-factor revert code. An e-mail change ends the user's
    /// sessions, voids links sent for the old address, and mails the old address a recovery link; a recovery ends the
    /// sessions too, as does a revert, which withdraws the factor the mail announced. `EMAIL_EXISTS` when the address the account moves to has another account.
    public func apply(code: String) async throws -> (record: ActionCodeRecord, user: UserRecord) {
        let kinds: Set<ActionCodeKind> = [.verifyEmail, .verifyAndChangeEmail, .recoverEmail, .revertSecondFactorAddition]
        let record = try await codes.peek(code)
        guard kinds.contains(record.kind), let uid = record.uid else { throw HearthError(.invalidOOBCode, reason: "not an apply code") }
        // The address the account moves to must be free; checked before the code is spent (the write checks again).
        let target: String? =
            switch record.kind {
            case .verifyAndChangeEmail: record.newEmail
            case .recoverEmail: record.email
            default: nil
            }
        if let target, let owner = try await store.user(email: target), owner.uid != uid { throw HearthError(.emailExists) }
        let used = try await codes.redeem(code, kinds: kinds)
        let now = codes.clock.now
        let user = try await updateUser(uid) { user in
            switch used.kind {
            case .verifyEmail:
                guard user.email == used.email else { throw HearthError(.invalidOOBCode, reason: "address changed since the mail") }
                user.emailVerified = true
            case .verifyAndChangeEmail:
                guard user.email == used.email, let newEmail = used.newEmail else {
                    throw HearthError(.invalidOOBCode, reason: "address changed since the mail")
                }
                user.changeEmail(to: newEmail)
                user.emailVerified = true
                user.validSince = now
            case .recoverEmail:
                guard user.email == used.newEmail else { throw HearthError(.invalidOOBCode, reason: "address changed again since the mail") }
                user.changeEmail(to: used.email)
                user.emailVerified = true
                user.validSince = now
            case .revertSecondFactorAddition:
                guard let index = user.secondFactors.firstIndex(where: { $0.id == used.mfaEnrollmentID }) else {
                    throw HearthError(.invalidOOBCode, reason: "the factor was withdrawn already")
                }
                // Whoever added it may hold a session that passed it: every session ends.
                user.secondFactors.remove(at: index)
                if user.secondFactors.isEmpty { user.recoveryCodeHashes = [] }
                user.validSince = now
            case .passwordReset, .emailSignIn:
                throw HearthError(.invalidOOBCode)
            }
        }
        switch used.kind {
        case .verifyAndChangeEmail:
            try await store.deleteActionCodes(uid: uid, kinds: [.passwordReset, .verifyEmail, .verifyAndChangeEmail, .emailSignIn])
            try await mail.mailRecoveryLink(uid: uid, oldEmail: used.email, newEmail: user.email ?? "", languageCode: used.languageCode)
        case .recoverEmail:
            try await store.deleteActionCodes(uid: uid, kinds: [.passwordReset, .verifyEmail, .verifyAndChangeEmail, .emailSignIn])
        default:
            break
        }
        return (used, user)
    }

    /// Changes the code's account; `INVALID_OOB_CODE` when it is gone, and a taken address as `EMAIL_EXISTS`.
    @discardableResult
    private func updateUser(_ uid: String, _ change: @escaping @Sendable (inout UserRecord) throws -> Void) async throws -> UserRecord {
        do {
            return try await StoreConflict.mapped { try await store.updateUser(uid: uid, session: nil, change) }
        } catch let error as HearthError where error.code == .userNotFound {
            throw HearthError(.invalidOOBCode, reason: "the code's account is gone")
        }
    }
}
