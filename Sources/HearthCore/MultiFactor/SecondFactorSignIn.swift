import Foundation

/// `mfaSignIn:start` and `mfaSignIn:finalize`: the second half of a sign-in whose first factor answered
/// `mfaPendingCredential` (``SecondFactorRequired``).
///
/// Guessing is bounded three ways: a pending credential allows ``SignInCompletion/pendingAttempts`` wrong factors
/// (reserved in one conditional write, so parallel guesses cannot share one), an account allows
/// ``AbuseLimits/secondFactorAttempts`` per window across all its pending credentials, and an SMS code's own session
/// allows its five. A TOTP code is taken once: the period it matched is recorded in the shared counters, so a
/// replay within its window, on any replica, is refused.
public struct SecondFactorSignIn: Sendable {
    public let settings: any ProjectSettingsReading
    public let store: any AccountStore & MultiFactorSessionStore & RateCounterStore
    public let phone: PhoneSignIn
    public let totp: TOTPCodes
    public let secrets: MultiFactorSecrets
    public let abuse: AbuseCounter
    public let completion: SignInCompletion

    public init(
        settings: any ProjectSettingsReading, store: any AccountStore & MultiFactorSessionStore & RateCounterStore, phone: PhoneSignIn,
        totp: TOTPCodes, secrets: MultiFactorSecrets, abuse: AbuseCounter, completion: SignInCompletion
    ) {
        self.settings = settings
        self.store = store
        self.phone = phone
        self.totp = totp
        self.secrets = secrets
        self.abuse = abuse
        self.completion = completion
    }

    /// Sends the code of the phone factor `enrollmentID` and returns its `sessionInfo`. Throws
    /// `MISSING_MFA_PENDING_CREDENTIAL`, `INVALID_MFA_PENDING_CREDENTIAL`, `MISSING_MFA_ENROLLMENT_ID`,
    /// `MFA_ENROLLMENT_NOT_FOUND` (no such phone factor), and what sending a code throws.
    public func start(
        pendingCredential: String?, enrollmentID: String?, proof: AppProof, languageCode: String?, from origin: ClientOrigin
    ) async throws -> String {
        let (_, user) = try await pending(pendingCredential)
        guard let enrollmentID, !enrollmentID.isEmpty else { throw HearthError(.missingMFAEnrollmentID) }
        guard let number = user.secondFactors.first(where: { $0.id == enrollmentID })?.phoneNumber else {
            throw HearthError(.mfaEnrollmentNotFound)
        }
        let settings = try await settings.projectSettings()
        return try await phone.sendCode(
            toValidated: number, settings: settings, from: origin, languageCode: languageCode, proof: proof, verifiesApp: false,
            smsType: "MULTI_FACTOR_SIGN_IN")
    }

    /// The second factor given to `mfaSignIn:finalize`.
    public enum Proof: Sendable {
        case phone(sessionInfo: String?, code: String?)
        case totp(enrollmentID: String?, code: String?)
        case recoveryCode(String?)
    }

    /// Checks `proof` and signs in with the first factor's provider, the session's tokens carrying the factor. Throws
    /// the pending credential's and enrolment's errors as ``start(pendingCredential:enrollmentID:proof:languageCode:from:)``,
    /// `MISSING_CODE`, `INVALID_CODE`, `SESSION_EXPIRED`, `TOO_MANY_ATTEMPTS_TRY_LATER`, `USER_DISABLED`.
    public func finalize(pendingCredential: String?, proof: Proof, from origin: ClientOrigin) async throws -> SignedIn {
        let (record, _) = try await pending(pendingCredential)
        // Counted before anything is checked: parallel guesses cannot pass a check that counts finished ones.
        try await abuse.count(\.secondFactorAttempts, address: record.uid)
        let reserved: MultiFactorSessionRecord
        switch try await store.reserveMultiFactorAttempt(key: record.key) {
        case .reserved(let taken): reserved = taken
        case .spent, .unknown: throw HearthError(.invalidMFAPendingCredential, reason: "pending credential used or out of attempts")
        }
        guard let user = try await store.user(uid: reserved.uid) else { throw HearthError(.invalidMFAPendingCredential, reason: "no such user") }
        if user.disabled { throw HearthError(.userDisabled) }
        let settings = try await settings.projectSettings()
        let use: SecondFactorUse
        var spentRecoveryCode: String?
        do {
            switch proof {
            case .phone(let sessionInfo, let code):
                let number = try await phone.verifiedNumber(code: code, sessionInfo: sessionInfo)
                guard let factor = user.secondFactors.first(where: { $0.phoneNumber == number }) else {
                    throw HearthError(.mfaEnrollmentNotFound, reason: "the verified number is no factor of the account")
                }
                use = SecondFactorUse(kind: .phone, enrollmentID: factor.id)
            case .totp(let enrollmentID, let code):
                guard let enrollmentID, !enrollmentID.isEmpty else { throw HearthError(.missingMFAEnrollmentID) }
                guard let factor = user.secondFactors.first(where: { $0.id == enrollmentID }), case .totp(let sealed) = factor.factor else {
                    throw HearthError(.mfaEnrollmentNotFound)
                }
                guard let code, !code.isEmpty else { throw HearthError(.missingCode) }
                let secret = try secrets.open(sealed, uid: user.uid, enrollmentID: factor.id)
                guard
                    let step = totp.matchingStep(
                        code, secret: secret, at: completion.clock.now, adjacentIntervals: settings.multiFactor.totpAdjacentIntervals)
                else { throw HearthError(.invalidCode, reason: "wrong TOTP code") }
                guard try await TOTPReplay.firstUse(of: step, uid: user.uid, enrollmentID: factor.id, in: store) else {
                    throw HearthError(.invalidCode, reason: "TOTP code used before")
                }
                use = SecondFactorUse(kind: .totp, enrollmentID: factor.id)
            case .recoveryCode(let code):
                guard settings.multiFactor.recoveryCodesEnabled else {
                    throw HearthError(.operationNotAllowed, detail: "Recovery codes are not enabled.")
                }
                guard let code, !code.isEmpty else { throw HearthError(.missingCode) }
                guard let hash = RecoveryCodes.matchingHash(code, uid: user.uid, in: user.recoveryCodeHashes) else {
                    throw HearthError(.invalidCode, reason: "wrong recovery code")
                }
                spentRecoveryCode = hash
                use = SecondFactorUse(kind: .recoveryCode, enrollmentID: SecondFactorKind.recoveryCode.rawValue)
            }
        } catch let error as HearthError where [.invalidCode, .sessionExpired, .mfaEnrollmentNotFound].contains(error.code) {
            await completion.audit.record(
                AuditEvent(
                    time: completion.clock.now, kind: .secondFactorFailed, uid: user.uid, actor: .user, actorID: origin.audit.actorID,
                    method: kindName(proof), clientAddress: origin.audit.address, details: ["reason": error.code.rawValue]))
            throw error
        }
        guard try await store.spendMultiFactorSession(key: reserved.key) else {
            throw HearthError(.invalidMFAPendingCredential, reason: "pending credential used by a parallel request")
        }
        guard let signIn = try? JSONDecoder().decode(PendingSignIn.self, from: Data(reserved.payload.utf8)) else {
            throw HearthError(.internalError, reason: "unreadable pending sign-in")
        }
        let claims = signIn.sessionClaims.flatMap(JSONValue.object(fromJSON:)) ?? [:]
        let now = completion.clock.now
        let spentCode = spentRecoveryCode
        var details = ["secondFactor": use.kind.rawValue]
        if use.kind != .recoveryCode { details["enrollment"] = use.enrollmentID }
        return try await StoreConflict.mapped {
            try await completion.complete(
                .update(uid: user.uid) { account in
                    if account.disabled { throw HearthError(.userDisabled) }
                    if let spentCode {
                        // Spent in the same write as the session: of parallel uses of one code, one signs in.
                        guard let index = account.recoveryCodeHashes.firstIndex(of: spentCode) else {
                            throw HearthError(.invalidCode, reason: "recovery code used by a parallel request")
                        }
                        account.recoveryCodeHashes.remove(at: index)
                    } else if !account.secondFactors.contains(where: { $0.id == use.enrollmentID }) {
                        throw HearthError(.mfaEnrollmentNotFound, reason: "factor withdrawn meanwhile")
                    }
                    account.lastLoginAt = now
                },
                .init(
                    provider: signIn.provider, method: signIn.method, details: details, origin: origin.audit, sessionClaims: claims, secondFactor: use
                ))
        }
    }

    private func kindName(_ proof: Proof) -> String {
        switch proof {
        case .phone: return SecondFactorKind.phone.rawValue
        case .totp: return SecondFactorKind.totp.rawValue
        case .recoveryCode: return SecondFactorKind.recoveryCode.rawValue
        }
    }

    /// The pending sign-in of `credential`, unexpired, and its account.
    private func pending(_ credential: String?) async throws -> (MultiFactorSessionRecord, UserRecord) {
        guard let credential, !credential.isEmpty else { throw HearthError(.missingMFAPendingCredential) }
        guard VerificationCode.isWellFormedHandle(credential), let record = try await store.multiFactorSession(key: VerificationCode.key(credential)),
            record.kind == .signIn, record.attemptsLeft > 0, !record.isExpired(at: completion.clock.now)
        else { throw HearthError(.invalidMFAPendingCredential) }
        guard let user = try await store.user(uid: record.uid) else { throw HearthError(.invalidMFAPendingCredential, reason: "no such user") }
        if user.disabled { throw HearthError(.userDisabled) }
        return (record, user)
    }
}

/// A TOTP code is taken once: the period it matched, per factor, is counted in the shared counters.
enum TOTPReplay {
    /// `true` the first time `step` of the factor is used (on any replica sharing the store).
    static func firstUse(of step: Int64, uid: String, enrollmentID: String, in store: any RateCounterStore) async throws -> Bool {
        // The window containing the last instant the code is taken (10 adjacent periods, the most a project can
        // allow), so both uses land on one row wherever the window boundaries fall, and the row outlives the code
        // (counters are pruned only once their window has ended).
        let lastAccepted = Double(step + Int64(MultiFactorSettings.maxAdjacentIntervals) + 1) * Double(TOTPCodes.period)
        return try await store.incrementCounter(
            "totp-used:\(uid):\(enrollmentID):\(step)", window: 3_600, now: Date(timeIntervalSince1970: lastAccepted)) == 1
    }
}
