import Foundation

/// A signed-in person's own second factors: `mfaEnrollment:start`, `finalize` and `withdraw`, and recovery codes.
///
/// Firebase's rules: the project allows the kind (`OPERATION_NOT_ALLOWED`); the ID token's sign-in is a first factor
/// a second one can follow (not anonymous, phone or custom: `UNSUPPORTED_FIRST_FACTOR`); the e-mail is verified
/// (`UNVERIFIED_EMAIL`); at most ``SecondFactorEnrollment/limit`` factors (`SECOND_FACTOR_LIMIT_EXCEEDED`), a number
/// once (`SECOND_FACTOR_EXISTS`). Hearth also asks `mfaEnrollment:start` for a recent sign-in
/// (`CREDENTIAL_TOO_OLD_LOGIN_AGAIN`): a stolen week-old token must not be able to lock its owner out behind an
/// attacker's authenticator.
public struct SecondFactorEnrollments: Sendable {
    public let settings: any ProjectSettingsReading
    public let store: any AccountStore & MultiFactorSessionStore & RateCounterStore
    public let idTokens: any IDTokenAuthenticating
    public let phone: PhoneSignIn
    public let totp: TOTPCodes
    public let secrets: MultiFactorSecrets
    public let completion: SignInCompletion
    public let recentLoginWindow: TimeInterval
    /// The issuer an authenticator app shows beside the account (the project's name).
    public let issuer: String
    /// Mails the account's address a link that withdraws a new factor; `nil`: no mail.
    public var mail: (any AccountMailing)?

    /// How long a TOTP enrolment waits for its first code (`finalizeEnrollmentTime`).
    public static let totpEnrollmentLifetime: TimeInterval = 600

    public init(
        settings: any ProjectSettingsReading, store: any AccountStore & MultiFactorSessionStore & RateCounterStore,
        idTokens: any IDTokenAuthenticating, phone: PhoneSignIn, totp: TOTPCodes, secrets: MultiFactorSecrets, completion: SignInCompletion,
        recentLoginWindow: TimeInterval, issuer: String
    ) {
        self.settings = settings
        self.store = store
        self.idTokens = idTokens
        self.phone = phone
        self.totp = totp
        self.secrets = secrets
        self.completion = completion
        self.recentLoginWindow = recentLoginWindow
        self.issuer = issuer
    }

    /// What `mfaEnrollment:start` enrols.
    public enum Start: Sendable {
        case phone(String?, proof: AppProof)
        case totp
    }

    /// What `mfaEnrollment:start` answers.
    public enum Started: Sendable, Equatable {
        case phone(sessionInfo: String)
        /// The secret in base32 for an authenticator app, its `otpauth://` URL, the enrolment's session, and until when.
        case totp(sharedSecretKey: String, authenticatorURL: String, sessionInfo: String, finalizeBy: Date)
    }

    public func start(idToken: String?, _ start: Start, languageCode: String?, from origin: ClientOrigin) async throws -> Started {
        let kind: SecondFactorKind
        switch start {
        case .phone: kind = .phone
        case .totp: kind = .totp
        }
        let (current, settings) = try await eligible(idToken, kind: kind)
        try RecentSignIn.require(authTime: current.authTime, now: completion.clock.now, window: recentLoginWindow)
        let user = current.user
        switch start {
        case .phone(let rawNumber, let proof):
            guard let rawNumber, !rawNumber.isEmpty else { throw HearthError(.missingPhoneNumber) }
            guard let number = PhoneNumber.validated(rawNumber) else { throw HearthError(.invalidPhoneNumber) }
            guard !user.secondFactors.contains(where: { $0.phoneNumber == number }) else { throw Self.numberEnrolled }
            return .phone(
                sessionInfo: try await phone.sendCode(
                    toValidated: number, settings: settings, from: origin, languageCode: languageCode, proof: proof,
                    smsType: "MULTI_FACTOR_ENROLLMENT")
            )
        case .totp:
            let secret = TOTPCodes.makeSecret()
            let enrollmentID = SecondFactorEnrollment.makeID()
            let sessionInfo = VerificationCode.makeHandle()
            let now = completion.clock.now
            let finalizeBy = now.addingTimeInterval(Self.totpEnrollmentLifetime)
            let pending = PendingTOTPEnrollment(
                enrollmentID: enrollmentID, sealedSecret: try secrets.seal(secret, uid: user.uid, enrollmentID: enrollmentID))
            try await store.insertMultiFactorSession(
                MultiFactorSessionRecord(
                    key: VerificationCode.key(sessionInfo), kind: .totpEnrollment, uid: user.uid, payload: pending.multiFactorJSON,
                    attemptsLeft: SignInCompletion.pendingAttempts, createdAt: now, expiresAt: finalizeBy))
            return .totp(
                sharedSecretKey: totp.algorithm.sharedSecretKey(for: secret),
                authenticatorURL: totp.algorithm.authenticatorURL(secret: secret, accountName: user.email ?? user.uid, issuer: issuer),
                sessionInfo: sessionInfo, finalizeBy: finalizeBy)
        }
    }

    /// What `mfaEnrollment:finalize` proves.
    public enum Finish: Sendable {
        case phone(sessionInfo: String?, code: String?)
        case totp(sessionInfo: String?, code: String?)
    }

    /// Checks the code and enrols the factor; the new session's tokens carry it as their second factor.
    public func finalize(idToken: String?, displayName: String?, _ finish: Finish, languageCode: String? = nil, from origin: ClientOrigin)
        async throws -> SignedIn
    {
        let kind: SecondFactorKind
        switch finish {
        case .phone: kind = .phone
        case .totp: kind = .totp
        }
        let (current, settings) = try await eligible(idToken, kind: kind)
        let uid = current.user.uid
        let displayName = try displayName.map { try UserText.displayName($0) }
        let now = completion.clock.now
        let enrollment: SecondFactorEnrollment
        switch finish {
        case .phone(let sessionInfo, let code):
            let number = try await phone.verifiedNumber(code: code, sessionInfo: sessionInfo)
            enrollment = SecondFactorEnrollment(
                id: SecondFactorEnrollment.makeID(), displayName: displayName, enrolledAt: now, factor: .phone(number))
        case .totp(let sessionInfo, let code):
            guard let sessionInfo, !sessionInfo.isEmpty else { throw HearthError(.missingSessionInfo) }
            guard let code, !code.isEmpty else { throw HearthError(.missingCode) }
            guard VerificationCode.isWellFormedHandle(sessionInfo) else { throw HearthError(.invalidSessionInfo) }
            let key = VerificationCode.key(sessionInfo)
            let record: MultiFactorSessionRecord
            switch try await store.reserveMultiFactorAttempt(key: key) {
            case .reserved(let taken) where taken.kind == .totpEnrollment && taken.uid == uid: record = taken
            case .reserved, .unknown: throw HearthError(.invalidSessionInfo)
            case .spent: throw HearthError(.sessionExpired, reason: "enrolment used or out of attempts")
            }
            guard !record.isExpired(at: now) else { throw HearthError(.sessionExpired, reason: "enrolment expired") }
            guard let pending = try? JSONDecoder().decode(PendingTOTPEnrollment.self, from: Data(record.payload.utf8)) else {
                throw HearthError(.internalError, reason: "unreadable TOTP enrolment")
            }
            let secret = try secrets.open(pending.sealedSecret, uid: uid, enrollmentID: pending.enrollmentID)
            guard let step = totp.matchingStep(code, secret: secret, at: now, adjacentIntervals: settings.multiFactor.totpAdjacentIntervals) else {
                throw HearthError(.invalidCode, reason: "wrong TOTP code")
            }
            guard try await TOTPReplay.firstUse(of: step, uid: uid, enrollmentID: pending.enrollmentID, in: store),
                try await store.spendMultiFactorSession(key: key)
            else { throw HearthError(.sessionExpired, reason: "enrolment finished by a parallel request") }
            enrollment = SecondFactorEnrollment(
                id: pending.enrollmentID, displayName: displayName, enrolledAt: now, factor: .totp(sealedSecret: pending.sealedSecret))
        }
        let use = SecondFactorUse(kind: kind, enrollmentID: enrollment.id)
        let signedIn = try await StoreConflict.mapped {
            try await completion.complete(
                .update(uid: uid) { user in
                    if user.disabled { throw HearthError(.userDisabled) }
                    // Re-checked in the write: parallel enrolments cannot pass the limit or enrol a number twice.
                    guard user.secondFactors.count < SecondFactorEnrollment.limit else { throw HearthError(.secondFactorLimitExceeded) }
                    if let number = enrollment.phoneNumber, user.secondFactors.contains(where: { $0.phoneNumber == number }) {
                        throw Self.numberEnrolled
                    }
                    user.secondFactors.append(enrollment)
                },
                .init(
                    provider: current.signInProvider, event: .secondFactorEnrolled, method: kind.rawValue,
                    details: ["kind": kind.rawValue, "enrollment": enrollment.id], origin: origin.audit, secondFactor: use))
        }
        // The factor is enrolled whether or not the mail can go: a failure to queue it is the mailer's to log.
        if let mail, let email = signedIn.user.email {
            try? await mail.mailSecondFactorAdded(uid: uid, email: email, factor: enrollment, languageCode: languageCode)
        }
        return signedIn
    }

    /// Removes the factor `enrollmentID`. Every earlier session ends (as Firebase's does); the answer's tokens start
    /// a new one.
    public func withdraw(idToken: String?, enrollmentID: String?, from origin: ClientOrigin) async throws -> SignedIn {
        guard let idToken, !idToken.isEmpty else { throw HearthError(.missingIDToken) }
        let current = try await idTokens.authenticate(idToken)
        guard let enrollmentID, !enrollmentID.isEmpty else { throw HearthError(.missingMFAEnrollmentID) }
        guard current.user.secondFactors.contains(where: { $0.id == enrollmentID }) else { throw HearthError(.mfaEnrollmentNotFound) }
        let now = completion.clock.now
        let remaining = current.secondFactor.flatMap { used in used.enrollmentID == enrollmentID ? nil : used }
        return try await completion.complete(
            .update(uid: current.user.uid) { user in
                guard let index = user.secondFactors.firstIndex(where: { $0.id == enrollmentID }) else {
                    throw HearthError(.mfaEnrollmentNotFound, reason: "withdrawn by a parallel request")
                }
                user.secondFactors.remove(at: index)
                if user.secondFactors.isEmpty { user.recoveryCodeHashes = [] }
                user.validSince = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
            },
            .init(
                provider: current.signInProvider, event: .secondFactorWithdrawn, method: "withdraw", details: ["enrollment": enrollmentID],
                origin: origin.audit, secondFactor: remaining, continuesSession: true))
    }

    /// A new set of recovery codes, replacing any earlier one; shown once. Needs recovery codes on, a recent sign-in
    /// and at least one factor.
    public func generateRecoveryCodes(idToken: String?, from origin: ClientOrigin) async throws -> [String] {
        guard let idToken, !idToken.isEmpty else { throw HearthError(.missingIDToken) }
        let current = try await idTokens.authenticate(idToken)
        guard try await settings.projectSettings().multiFactor.recoveryCodesEnabled else {
            throw HearthError(.operationNotAllowed, detail: "Recovery codes are not enabled.")
        }
        try RecentSignIn.require(authTime: current.authTime, now: completion.clock.now, window: recentLoginWindow)
        guard !current.user.secondFactors.isEmpty else {
            throw HearthError(.operationNotAllowed, detail: "Enroll a second factor before generating recovery codes.")
        }
        let codes = RecoveryCodes.make()
        let hashes = codes.compactMap { RecoveryCodes.hash($0, uid: current.user.uid) }
        try await store.updateUser(uid: current.user.uid, session: nil) { user in
            guard !user.secondFactors.isEmpty else { throw HearthError(.operationNotAllowed, detail: "The second factors were withdrawn.") }
            user.recoveryCodeHashes = hashes
        }
        await completion.audit.record(
            AuditEvent(
                time: completion.clock.now, kind: .recoveryCodesGenerated, uid: current.user.uid, actor: .user, actorID: origin.audit.actorID,
                method: "generate", clientAddress: origin.audit.address, details: ["count": String(codes.count)]))
        return codes
    }

    static let numberEnrolled = HearthError(.secondFactorExists, detail: "Phone number already enrolled as second factor for this account.")

    /// The ID token's account and the project's settings, when the account may enrol a factor of `kind`.
    private func eligible(_ idToken: String?, kind: SecondFactorKind) async throws -> (AuthenticatedUser, ProjectSettings) {
        guard let idToken, !idToken.isEmpty else { throw HearthError(.missingIDToken) }
        let current = try await idTokens.authenticate(idToken)
        let settings = try await settings.projectSettings()
        guard settings.multiFactor.allowsEnrolment(of: kind) else {
            throw HearthError(.operationNotAllowed, detail: kind == .phone ? "SMS based MFA not enabled." : "TOTP based MFA not enabled.")
        }
        guard !["anonymous", "phone", "custom", "gc.apple.com"].contains(current.signInProvider), !current.user.isAnonymous else {
            throw HearthError(.unsupportedFirstFactor)
        }
        guard current.user.email != nil, current.user.emailVerified else { throw HearthError(.unverifiedEmail) }
        guard current.user.secondFactors.count < SecondFactorEnrollment.limit else { throw HearthError(.secondFactorLimitExceeded) }
        return (current, settings)
    }
}
