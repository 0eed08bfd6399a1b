import Foundation

/// Phone sign-in: `accounts:sendVerificationCode` sends a 6-digit code and answers a `sessionInfo`;
/// `accounts:signInWithPhoneNumber` takes the code back (or a `temporaryProof`) and signs in to the number's account,
/// makes one, links the number to the signed-in account (`idToken`), or reauthenticates (`operation: REAUTH`). The
/// session's provider is `phone`, as Firebase's is.
///
/// A code is single-use, lives ``codeLifetime``, and allows ``attempts`` wrong guesses before its session is void;
/// the store checks it in one conditional write, so parallel guesses cannot share an attempt or both win. Test phone
/// numbers (the project settings') get their fixed code and no SMS; other numbers need a ``sender``.
public struct PhoneSignIn: Sendable {
    public let settings: any ProjectSettingsReading
    public let store: any AccountStore & PhoneVerificationStore
    /// Delivers codes; `nil`: no SMS is sent, and only test phone numbers can sign in.
    public let sender: (any VerificationCodeSending)?
    public let abuse: AbuseCounter
    public let idTokens: any IDTokenAuthenticating
    public let completion: SignInCompletion
    /// Told after each code counted against the project's SMS budget: the codes of the window so far and the budget
    /// (the server's `hearth_sms_budget_used_ratio` and its warning near the end).
    public var budgetUsed: (@Sendable (_ used: Int, _ budget: Int) -> Void)?
    /// Checks the app's proof before a code goes to a number that is not a test number; `nil`: no check.
    public var appVerifier: (any AppVerifying)?
    /// A service that sends and checks the codes itself (Twilio Verify), used instead of ``sender``; test numbers keep
    /// their fixed codes.
    public var externalCodes: (any ExternalPhoneVerification)?
    /// The operator's blocking hooks: `beforeSendSms` is asked before a code goes out (never for a test number).
    public var hooks: BlockingHooks?

    /// How long a code can be entered.
    public static let codeLifetime: TimeInterval = 300
    /// Wrong codes a session allows; the next attempt finds it void.
    public static let attempts = 5
    /// How long a `temporaryProof` signs in (Firebase's `temporaryProofExpiresIn`).
    public static let proofLifetime: TimeInterval = 3_600
    /// How many times a decision that went stale (the number's account changed meanwhile) is made again.
    static let decisions = 3

    public init(
        settings: any ProjectSettingsReading, store: any AccountStore & PhoneVerificationStore, sender: (any VerificationCodeSending)?,
        abuse: AbuseCounter, idTokens: any IDTokenAuthenticating, completion: SignInCompletion
    ) {
        self.settings = settings
        self.store = store
        self.sender = sender
        self.abuse = abuse
        self.idTokens = idTokens
        self.completion = completion
    }

    // MARK: Sending a code

    /// Sends a code to `phoneNumber` and returns the session's `sessionInfo`. Throws `OPERATION_NOT_ALLOWED` (phone
    /// sign-in off, or no way to send an SMS to a number that is not a test number), `MISSING_PHONE_NUMBER`,
    /// `INVALID_PHONE_NUMBER`, `TOO_MANY_ATTEMPTS_TRY_LATER` (too many codes for the client's address or for the
    /// number) and `QUOTA_EXCEEDED` (the project's SMS budget spent); and ``appVerifier``'s `MISSING_CLIENT_IDENTIFIER`
    /// and `CAPTCHA_CHECK_FAILED` (test numbers need no proof).
    public func sendCode(to phoneNumber: String?, from origin: ClientOrigin, languageCode: String? = nil, proof: AppProof = AppProof()) async throws
        -> String
    {
        let settings = try await settings.projectSettings()
        guard settings.phoneEnabled else { throw HearthError(.operationNotAllowed, reason: "phone sign-in is off") }
        guard let phoneNumber, !phoneNumber.isEmpty else { throw HearthError(.missingPhoneNumber) }
        guard let number = PhoneNumber.validated(phoneNumber) else { throw HearthError(.invalidPhoneNumber) }
        return try await sendCode(toValidated: number, settings: settings, from: origin, languageCode: languageCode, proof: proof)
    }

    /// Sends a code to `number` (E.164, validated) under every limit and check of ``sendCode(to:from:languageCode:proof:)``
    /// but whether phone sign-in is on: a phone second factor's code (the caller checked that SMS factors are on).
    /// `verifiesApp` false skips the app's proof: a second-factor sign-in's code goes to a number the account enrolled,
    /// not one the client chose, after a first factor passed (and the client knows the number only masked, so it
    /// could not make a proof for it); the limits per address, number, range and project still count.
    public func sendCode(
        toValidated number: String, settings: ProjectSettings, from origin: ClientOrigin, languageCode: String?, proof: AppProof,
        verifiesApp: Bool = true, smsType: String = "SIGN_IN_OR_SIGN_UP"
    ) async throws -> String {
        let testCode = settings.testPhoneNumbers[number]
        if testCode == nil {
            // A number no region has is refused before anything is counted or paid for.
            guard let region = PhoneRegions.region(of: number) else {
                throw HearthError(.invalidPhoneNumber, detail: "The phone number has a length its country's numbers do not have.")
            }
            guard settings.smsRegionPolicy.allows(region: region) else {
                throw HearthError(
                    .operationNotAllowed, detail: "SMS unable to be sent until this region enabled by the app developer.",
                    reason: "SMS region policy refuses \(region)")
            }
            // Satellite, international-network and premium-rate numbers are where SMS pumping's money is made.
            guard region != PhoneRegions.nonGeographic, !PhoneRegions.isPremiumRate(number) else {
                throw HearthError(.invalidPhoneNumber, reason: "no verification codes to premium-rate or non-geographic numbers")
            }
            guard sender != nil || externalCodes != nil else {
                throw HearthError(.operationNotAllowed, detail: "SMS delivery is not configured.", reason: "no SMS sender")
            }
            if verifiesApp { try await appVerifier?.verify(proof, phoneNumber: number, clientAddress: origin.counterAddress) }
            try await abuse.count(\.phoneCodes, address: origin.counterAddress)
            try await abuse.count(\.phoneCodesPerNumber, address: number)
            try await abuse.count(\.phoneCodesPerPrefix, address: String(number.dropLast(3)))
            try await countBudget()
            try await hooks?.beforeSending(.beforeSendSMS, to: number, messageType: smsType, origin: origin.audit)
        }
        let sessionInfo = VerificationCode.makeHandle()
        let now = completion.clock.now
        if testCode == nil, let externalCodes {
            try await externalCodes.start(phoneNumber: number, languageCode: languageCode)
            try await store.insertPhoneVerification(
                PhoneVerificationRecord(
                    key: VerificationCode.key(sessionInfo), kind: .external, phoneNumber: number, codeHash: nil, attemptsLeft: Self.attempts,
                    createdAt: now, expiresAt: now.addingTimeInterval(Self.codeLifetime)))
            return sessionInfo
        }
        let code = testCode ?? VerificationCode.make()
        try await store.insertPhoneVerification(
            PhoneVerificationRecord(
                key: VerificationCode.key(sessionInfo), kind: .code, phoneNumber: number,
                codeHash: VerificationCode.hash(code, sessionInfo: sessionInfo), attemptsLeft: Self.attempts, createdAt: now,
                expiresAt: now.addingTimeInterval(Self.codeLifetime)))
        if testCode == nil, let sender {
            try await sender.send(
                VerificationCodeMessage(
                    phoneNumber: number, code: code, sessionInfo: sessionInfo, createdAt: now, expiresAt: now.addingTimeInterval(Self.codeLifetime),
                    languageCode: languageCode))
        }
        return sessionInfo
    }

    /// Counts the code against the project's SMS budget and tells ``budgetUsed`` how much of it is spent.
    private func countBudget() async throws {
        let limit = abuse.limits.phoneCodesPerProject.limit
        do {
            if let used = try await abuse.count(\.phoneCodesPerProject, address: "project", refusal: .quotaExceeded) {
                budgetUsed?(used, limit)
            }
        } catch let error as HearthError where error.code == .quotaExceeded {
            budgetUsed?(limit + 1, limit)
            throw error
        }
    }

    // MARK: Signing in

    /// What proves the number: the session's code, or a temporary proof with its number.
    public enum Credential: Sendable {
        case code(sessionInfo: String?, code: String?)
        case temporaryProof(String, phoneNumber: String?)
    }

    public enum Outcome: Sendable {
        case signedIn(SignedIn)
        /// Linking found the number on another account: no change, and a proof that signs in to that account
        /// (Firebase answers it with `temporaryProof` and `phoneNumber`; clients raise credential-already-in-use).
        case numberInUse(phoneNumber: String, temporaryProof: String, expiresIn: Int)
    }

    /// A decision the write found stale.
    struct Stale: Error {}

    /// Verifies `credential` and signs in. `linkTo` is the ID token of the account the number is linked to;
    /// `reauthenticate` (`operation: REAUTH`) signs in only to an existing account (`USER_NOT_FOUND`). Throws
    /// `OPERATION_NOT_ALLOWED`, `MISSING_SESSION_INFO`, `MISSING_CODE`, `INVALID_SESSION_INFO`, `INVALID_CODE`,
    /// `SESSION_EXPIRED` (expired, used, or void after too many wrong codes), `MISSING_PHONE_NUMBER`,
    /// `INVALID_PHONE_NUMBER`, `INVALID_TEMPORARY_PROOF`, `PHONE_NUMBER_EXISTS` (linking with a proof of another
    /// account's number), `USER_NOT_FOUND`, `USER_DISABLED`, `TOO_MANY_ATTEMPTS_TRY_LATER` and the ID token's errors.
    public func signIn(_ credential: Credential, linkTo idToken: String?, reauthenticate: Bool, from origin: ClientOrigin) async throws
        -> Outcome
    {
        guard try await settings.projectSettings().phoneEnabled else { throw HearthError(.operationNotAllowed, reason: "phone sign-in is off") }
        switch credential {
        case .code(let sessionInfo, let code):
            guard let sessionInfo, !sessionInfo.isEmpty else { throw HearthError(.missingSessionInfo) }
            guard let code, !code.isEmpty else { throw HearthError(.missingCode) }
            guard VerificationCode.isWellFormedHandle(sessionInfo) else { throw HearthError(.invalidSessionInfo) }
            // The ID token first: a code is not spent on a request that cannot succeed.
            let current = try await authenticated(idToken, reauthenticate: reauthenticate)
            let number = try await redeem(code, sessionInfo: sessionInfo)
            return try await decide(number: number, current: current, proofKey: nil, reauthenticate: reauthenticate, from: origin)
        case .temporaryProof(let proof, let phoneNumber):
            guard let phoneNumber, !phoneNumber.isEmpty else { throw HearthError(.missingPhoneNumber) }
            guard let validated = PhoneNumber.validated(phoneNumber) else { throw HearthError(.invalidPhoneNumber) }
            let current = try await authenticated(idToken, reauthenticate: reauthenticate)
            let key = VerificationCode.key(proof)
            guard VerificationCode.isWellFormedHandle(proof), let record = try await store.phoneProof(key: key), record.kind == .proof,
                record.phoneNumber == validated, !record.isExpired(at: completion.clock.now)
            else { throw HearthError(.invalidTemporaryProof) }
            return try await decide(number: validated, current: current, proofKey: key, reauthenticate: reauthenticate, from: origin)
        }
    }

    private func authenticated(_ idToken: String?, reauthenticate: Bool) async throws -> UserRecord? {
        guard !reauthenticate, let idToken else { return nil }
        return try await idTokens.authenticate(idToken).user
    }

    /// Spends the session's code, or counts a wrong one: the number it verified. Throws `MISSING_SESSION_INFO`,
    /// `MISSING_CODE`, `INVALID_SESSION_INFO`, `INVALID_CODE` and `SESSION_EXPIRED`.
    public func verifiedNumber(code: String?, sessionInfo: String?) async throws -> String {
        guard let sessionInfo, !sessionInfo.isEmpty else { throw HearthError(.missingSessionInfo) }
        guard let code, !code.isEmpty else { throw HearthError(.missingCode) }
        guard VerificationCode.isWellFormedHandle(sessionInfo) else { throw HearthError(.invalidSessionInfo) }
        return try await redeem(code, sessionInfo: sessionInfo)
    }

    /// Spends the session's code, or counts a wrong one: the number it verified.
    private func redeem(_ code: String, sessionInfo: String) async throws -> String {
        let now = completion.clock.now
        if let externalCodes {
            switch try await store.reservePhoneAttempt(key: VerificationCode.key(sessionInfo)) {
            case .reserved(let record):
                guard !record.isExpired(at: now) else { throw HearthError(.sessionExpired, reason: "code expired") }
                // Only digits go to the service: Twilio Verify's codes are 4 to 10 of them.
                guard (4...10).contains(code.utf8.count), code.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                    try await externalCodes.check(phoneNumber: record.phoneNumber, code: code)
                else { throw HearthError(.invalidCode, reason: "wrong code, \(record.attemptsLeft) attempts left") }
                guard try await store.spendPhoneSession(key: record.key) else {
                    throw HearthError(.sessionExpired, reason: "session used by a parallel request")
                }
                return record.phoneNumber
            case .spent:
                throw HearthError(.sessionExpired, reason: "session used or void")
            case .unknown:
                break  // a test number's session, with its hashed code
            }
        }
        switch try await store.checkPhoneCode(key: VerificationCode.key(sessionInfo), codeHash: VerificationCode.hash(code, sessionInfo: sessionInfo))
        {
        case .verified(let record):
            guard !record.isExpired(at: now) else { throw HearthError(.sessionExpired, reason: "code expired") }
            return record.phoneNumber
        case .wrongCode(let left, let expiresAt):
            guard now < expiresAt else { throw HearthError(.sessionExpired, reason: "code expired") }
            throw HearthError(.invalidCode, reason: "wrong code, \(left) attempts left")
        case .spent:
            throw HearthError(.sessionExpired, reason: "session used or void")
        case .unknown:
            throw HearthError(.invalidSessionInfo)
        }
    }

    private func decide(number: String, current: UserRecord?, proofKey: String?, reauthenticate: Bool, from origin: ClientOrigin)
        async throws -> Outcome
    {
        // The proof is spent once, by the first attempt that writes; a later attempt signs in without it.
        var unspentProof = proofKey
        for attempt in 1...Self.decisions {
            do {
                return try await decideOnce(
                    number: number, current: current, viaProof: proofKey != nil, unspentProof: &unspentProof, reauthenticate: reauthenticate,
                    from: origin)
            } catch is Stale where attempt < Self.decisions {
                continue
            } catch StoreConflict.phoneNumber where current == nil && attempt < Self.decisions {
                // A parallel sign-in made the number's account first: sign in to it.
                continue
            } catch is Stale {
                throw HearthError(.internalError, reason: "the number's account kept changing under a phone sign-in")
            } catch let conflict as StoreConflict {
                throw conflict.error
            }
        }
        throw HearthError(.internalError, reason: "unreachable")
    }

    private func decideOnce(
        number: String, current: UserRecord?, viaProof: Bool, unspentProof: inout String?, reauthenticate: Bool, from origin: ClientOrigin
    ) async throws -> Outcome {
        let owner = try await store.user(phoneNumber: number)
        let now = completion.clock.now
        var record = SignInCompletion.Record(provider: "phone", origin: origin.audit)
        if let current {
            if let owner, owner.uid != current.uid {
                // Another account has the number. A proof answers with the error; a code with a proof for that account.
                if viaProof { throw HearthError(.phoneNumberExists) }
                let proof = VerificationCode.makeHandle()
                try await store.insertPhoneVerification(
                    PhoneVerificationRecord(
                        key: VerificationCode.key(proof), kind: .proof, phoneNumber: number, codeHash: nil, attemptsLeft: 1, createdAt: now,
                        expiresAt: now.addingTimeInterval(Self.proofLifetime)))
                return .numberInUse(phoneNumber: number, temporaryProof: proof, expiresIn: Int(Self.proofLifetime))
            }
            try await spendProof(&unspentProof)
            record.event = .linked
            return .signedIn(
                try await completion.complete(
                    .update(uid: current.uid) { user in
                        if user.disabled { throw HearthError(.userDisabled) }
                        user.phoneNumber = number
                        user.lastLoginAt = now
                        user.scheduledDeletionAt = nil
                    }, record))
        }
        if let owner {
            if owner.disabled { throw HearthError(.userDisabled) }
            try await spendProof(&unspentProof)
            if reauthenticate { record.details = ["reauthenticated": "true"] }
            return .signedIn(
                try await completion.complete(
                    .update(uid: owner.uid) { user in
                        guard user.phoneNumber == number else { throw Stale() }
                        if user.disabled { throw HearthError(.userDisabled) }
                        user.lastLoginAt = now
                    }, record))
        }
        if reauthenticate { throw HearthError(.userNotFound, reason: "no account has the number") }
        try await abuse.count(\.newAccounts, address: origin.counterAddress)
        try await spendProof(&unspentProof)
        let created = UserRecord(uid: UserRecord.makeUID(), phoneNumber: number, createdAt: now, lastLoginAt: now, validSince: now)
        return .signedIn(try await completion.complete(.create(created), record))
    }

    /// Uses the proof up before it signs in: of parallel sign-ins with one proof, one goes on.
    private func spendProof(_ key: inout String?) async throws {
        guard let unspent = key else { return }
        guard try await store.consumePhoneProof(key: unspent) != nil else {
            throw HearthError(.invalidTemporaryProof, reason: "used by a parallel request")
        }
        key = nil
    }
}
