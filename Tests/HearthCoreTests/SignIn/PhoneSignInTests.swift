import Foundation
import HearthCore
import Testing

/// Phone sign-in without HTTP or SQL: sending codes, signing in and up, linking, reauthenticating and temporary
/// proofs, each rule and each error a person can cause.
@Suite struct PhoneSignInTests {
    static let number = "+919876543210"
    static let testNumber = "+16505551234"

    /// A code sent to `number`: its session and the code the SMS carried.
    static func sent(_ kit: SignInKit, to number: String = number, from origin: ClientOrigin? = nil) async throws -> (String, String) {
        let sessionInfo = try await kit.phone.sendCode(to: number, from: origin ?? kit.origin)
        let message = try #require(kit.texts.last)
        #expect(message.sessionInfo == sessionInfo && message.phoneNumber == number)
        return (sessionInfo, message.code)
    }

    static func signIn(
        _ kit: SignInKit, _ sessionInfo: String?, _ code: String?, idToken: String? = nil, reauthenticate: Bool = false
    ) async throws -> PhoneSignIn.Outcome {
        try await kit.phone.signIn(.code(sessionInfo: sessionInfo, code: code), linkTo: idToken, reauthenticate: reauthenticate, from: kit.origin)
    }

    static func signedIn(_ outcome: PhoneSignIn.Outcome) throws -> SignedIn {
        guard case .signedIn(let signedIn) = outcome else { throw HearthError(.internalError, reason: "expected a sign-in") }
        return signedIn
    }

    @Test("a code: 6 digits from the system's CSPRNG, sent once, stored only as a salted hash")
    func sendsCode() async throws {
        let kit = SignInKit()
        let (sessionInfo, code) = try await Self.sent(kit)
        #expect(VerificationCode.isWellFormed(code) && VerificationCode.isWellFormedHandle(sessionInfo) && kit.texts.count == 1)
        let codes = (0..<2_000).map { _ in VerificationCode.make() }
        #expect(codes.allSatisfy(VerificationCode.isWellFormed) && Set(codes).count > 1_900)
        #expect(Set(codes.map(\.first)).count == 10, "every leading digit, zeros kept")
        // Only the hash salted with the session: another session's same code hashes differently.
        #expect(VerificationCode.hash(code, sessionInfo: sessionInfo) != VerificationCode.hash(code, sessionInfo: VerificationCode.makeHandle()))
        #expect(kit.store.phoneVerificationCount == 1)
    }

    @Test("the SMS region policy refuses a denied or unlisted region before anything is counted or sent; test numbers are not held to it")
    func regionPolicy() async throws {
        let kit = SignInKit()
        kit.settings.change {
            $0.smsRegionPolicy = .allowByDefault(disallowedRegions: ["IN"])
            $0.testPhoneNumbers = ["+919999999999": "123456"]
        }
        let refused = await hearthError { try await kit.phone.sendCode(to: Self.number, from: kit.origin) }
        #expect(refused?.code == .operationNotAllowed)
        #expect(refused?.detail == "SMS unable to be sent until this region enabled by the app developer.")
        #expect(kit.texts.count == 0)
        _ = try await kit.phone.sendCode(to: "+919999999999", from: kit.origin)
        _ = try await Self.sent(kit, to: "+8801712345678")
        kit.settings.change { $0.smsRegionPolicy = .allowlistOnly(allowedRegions: ["ID"]) }
        #expect(await errorCode { try await kit.phone.sendCode(to: "+8801712345678", from: kit.origin) } == .operationNotAllowed)
        _ = try await Self.sent(kit, to: "+6281234567890")
        // A length no number of the region has is not a number at all.
        #expect(await errorCode { try await kit.phone.sendCode(to: "+62812", from: kit.origin) } == .invalidPhoneNumber)
        #expect(kit.texts.count == 2)
    }

    @Test("sending: OPERATION_NOT_ALLOWED when off or without a sender, MISSING_PHONE_NUMBER, INVALID_PHONE_NUMBER for anything not E.164")
    func sendRefusals() async throws {
        var kit = SignInKit()
        for bad in [
            "919876543210", "+91 98765 43210", "+91-9876543210", "+0123456", "+1", "+1234567890123456", "+91987654321a", "+91\u{0}98765",
            "+91\u{7}98765", "+９１９８７６５４３２１０", String(repeating: "9", count: 10_000),
        ] {
            #expect(await errorCode { try await kit.phone.sendCode(to: bad, from: kit.origin) } == .invalidPhoneNumber, "\(bad.prefix(20))")
        }
        #expect(await errorCode { try await kit.phone.sendCode(to: nil, from: kit.origin) } == .missingPhoneNumber)
        #expect(await errorCode { try await kit.phone.sendCode(to: "", from: kit.origin) } == .missingPhoneNumber)
        kit.settings.change { $0.phoneEnabled = false }
        #expect(await errorCode { try await kit.phone.sendCode(to: Self.number, from: kit.origin) } == .operationNotAllowed)
        kit.settings.change { $0.phoneEnabled = true }
        kit.sendsTexts = false
        #expect(await errorCode { try await kit.phone.sendCode(to: Self.number, from: kit.origin) } == .operationNotAllowed)
        // A test number needs no sender: its fixed code signs in.
        let sessionInfo = try await kit.phone.sendCode(to: Self.testNumber, from: kit.origin)
        let signedIn = try Self.signedIn(try await Self.signIn(kit, sessionInfo, "123456"))
        #expect(signedIn.user.phoneNumber == Self.testNumber && kit.texts.count == 0)
    }

    @Test("signs up, then signs in: isNewUser, phoneNumber, the phone provider, sign_in_provider phone")
    func signsUpAndIn() async throws {
        let kit = SignInKit()
        let (first, code) = try await Self.sent(kit)
        let created = try Self.signedIn(try await Self.signIn(kit, first, code))
        #expect(created.isNewUser && created.signInProvider == "phone" && created.user.phoneNumber == Self.number)
        #expect(!created.user.isAnonymous && created.user.identities["phone"] == [Self.number] && created.user.email == nil)
        let (second, again) = try await Self.sent(kit)
        let signedIn = try Self.signedIn(try await Self.signIn(kit, second, again))
        #expect(!signedIn.isNewUser && signedIn.user.uid == created.user.uid && signedIn.signInProvider == "phone")
        #expect(kit.audit.kinds == [.signedUp, .signedIn])
    }

    @Test("the code: MISSING_SESSION_INFO, MISSING_CODE, INVALID_SESSION_INFO, INVALID_CODE, SESSION_EXPIRED once used or old")
    func codeRefusals() async throws {
        let kit = SignInKit()
        let (sessionInfo, code) = try await Self.sent(kit)
        #expect(await errorCode { try await Self.signIn(kit, nil, code) } == .missingSessionInfo)
        #expect(await errorCode { try await Self.signIn(kit, "", code) } == .missingSessionInfo)
        #expect(await errorCode { try await Self.signIn(kit, sessionInfo, nil) } == .missingCode)
        #expect(await errorCode { try await Self.signIn(kit, sessionInfo, "") } == .missingCode)
        #expect(await errorCode { try await Self.signIn(kit, "not-a-session", code) } == .invalidSessionInfo)
        #expect(await errorCode { try await Self.signIn(kit, sessionInfo + "\u{0}", code) } == .invalidSessionInfo)
        #expect(await errorCode { try await Self.signIn(kit, VerificationCode.makeHandle(), code) } == .invalidSessionInfo)
        let wrong = code == "000000" ? "000001" : "000000"
        #expect(await errorCode { try await Self.signIn(kit, sessionInfo, wrong) } == .invalidCode)
        #expect(await errorCode { try await Self.signIn(kit, sessionInfo, "12345\u{0}") } == .invalidCode)
        _ = try await Self.signIn(kit, sessionInfo, code)
        #expect(await errorCode { try await Self.signIn(kit, sessionInfo, code) } == .sessionExpired, "a code is used once")

        let (late, lateCode) = try await Self.sent(kit)
        kit.clock.advance(by: PhoneSignIn.codeLifetime)
        #expect(await errorCode { try await Self.signIn(kit, late, lateCode) } == .sessionExpired)
        let (lateWrong, _) = try await Self.sent(kit)
        kit.clock.advance(by: PhoneSignIn.codeLifetime + 1)
        #expect(await errorCode { try await Self.signIn(kit, lateWrong, wrong) } == .sessionExpired)
    }

    @Test("five wrong codes void the session: the right code then finds it expired")
    func attempts() async throws {
        let kit = SignInKit()
        let (sessionInfo, code) = try await Self.sent(kit)
        let wrong = code == "999999" ? "999998" : "999999"
        for _ in 0..<PhoneSignIn.attempts {
            #expect(await errorCode { try await Self.signIn(kit, sessionInfo, wrong) } == .invalidCode)
        }
        #expect(await errorCode { try await Self.signIn(kit, sessionInfo, code) } == .sessionExpired)
        #expect(try await kit.store.user(phoneNumber: Self.number) == nil)
    }

    @Test("20 parallel sign-ins with one code: one wins, the others find the session spent")
    func parallel() async throws {
        let kit = SignInKit()
        let (sessionInfo, code) = try await Self.sent(kit)
        let results = await withTaskGroup(of: HearthError.Code?.self) { group in
            for _ in 0..<20 { group.addTask { await errorCode { try await Self.signIn(kit, sessionInfo, code) } } }
            return await group.reduce(into: [HearthError.Code?]()) { $0.append($1) }
        }
        #expect(results.filter { $0 == nil }.count == 1 && results.filter { $0 == .sessionExpired }.count == 19)
        #expect(kit.store.sessionCount == 1)
    }

    @Test("limits: per client address and per number TOO_MANY_ATTEMPTS_TRY_LATER, the project's budget QUOTA_EXCEEDED; test numbers free")
    func limits() async throws {
        var kit = SignInKit()
        kit.limits.phoneCodes = RateLimit("phone-codes", limit: 2, window: 3_600)
        for _ in 0..<2 { _ = try await kit.phone.sendCode(to: "+919876543211", from: kit.origin) }
        #expect(await errorCode { try await kit.phone.sendCode(to: "+919876543212", from: kit.origin) } == .tooManyAttempts)
        for _ in 0..<5 { _ = try await kit.phone.sendCode(to: Self.testNumber, from: kit.origin) }

        kit.limits.phoneCodes = RateLimit("phone-codes", limit: 100, window: 3_600)
        kit.limits.phoneCodesPerNumber = RateLimit("phone-codes-per-number", limit: 2, window: 3_600)
        func from(_ index: Int) -> ClientOrigin {
            ClientOrigin(counterAddress: "198.51.100.\(index)", audit: AuditOrigin(address: "198.51.100.\(index)"))
        }
        for index in 0..<2 { _ = try await kit.phone.sendCode(to: Self.number, from: from(index)) }
        #expect(await errorCode { try await kit.phone.sendCode(to: Self.number, from: from(9)) } == .tooManyAttempts)
        let sentBefore = kit.texts.count

        kit.limits.phoneCodesPerProject = RateLimit("phone-codes-per-project", limit: 5, window: 3_600)
        _ = try await kit.phone.sendCode(to: "+919876543213", from: kit.origin)
        #expect(await errorCode { try await kit.phone.sendCode(to: "+919876543214", from: kit.origin) } == .quotaExceeded)
        #expect(kit.texts.count == sentBefore + 1, "no SMS leaves for a refused send")
        kit.clock.advance(by: 3_600)
        _ = try await kit.phone.sendCode(to: "+919876543214", from: kit.origin)
    }

    @Test("linking: the number joins the signed-in account; another account's number answers a proof that signs in to it once")
    func linking() async throws {
        let kit = SignInKit()
        let anonymous = try await kit.signUp(.init(), from: kit.origin)
        let (sessionInfo, code) = try await Self.sent(kit)
        let linked = try Self.signedIn(try await Self.signIn(kit, sessionInfo, code, idToken: anonymous.idToken))
        #expect(linked.user.uid == anonymous.user.uid && !linked.isNewUser && linked.user.phoneNumber == Self.number && !linked.user.isAnonymous)
        #expect(kit.audit.kinds.last == .linked)

        let other = try await kit.signUp(.init(email: "other@example.com", password: "secret1"), from: kit.origin)
        let (second, secondCode) = try await Self.sent(kit)
        guard case .numberInUse(let number, let proof, let expiresIn) = try await Self.signIn(kit, second, secondCode, idToken: other.idToken) else {
            Issue.record("expected the number in use")
            return
        }
        #expect(number == Self.number && expiresIn == 3_600 && VerificationCode.isWellFormedHandle(proof))
        #expect(try await kit.store.user(uid: other.user.uid)?.phoneNumber == nil)
        // Linking with the proof: PHONE_NUMBER_EXISTS, and the proof still signs in.
        #expect(
            await errorCode {
                try await kit.phone.signIn(
                    .temporaryProof(proof, phoneNumber: number), linkTo: other.idToken, reauthenticate: false, from: kit.origin)
            }
                == .phoneNumberExists)
        #expect(
            await errorCode {
                try await kit.phone.signIn(.temporaryProof(proof, phoneNumber: "+919876543219"), linkTo: nil, reauthenticate: false, from: kit.origin)
            }
                == .invalidTemporaryProof)
        #expect(
            await errorCode {
                try await kit.phone.signIn(.temporaryProof(proof, phoneNumber: nil), linkTo: nil, reauthenticate: false, from: kit.origin)
            }
                == .missingPhoneNumber)
        #expect(
            await errorCode {
                try await kit.phone.signIn(.temporaryProof(proof, phoneNumber: "12"), linkTo: nil, reauthenticate: false, from: kit.origin)
            }
                == .invalidPhoneNumber)
        let viaProof = try Self.signedIn(
            try await kit.phone.signIn(.temporaryProof(proof, phoneNumber: number), linkTo: nil, reauthenticate: false, from: kit.origin))
        #expect(viaProof.user.uid == anonymous.user.uid && viaProof.signInProvider == "phone" && !viaProof.isNewUser)
        #expect(
            await errorCode {
                try await kit.phone.signIn(.temporaryProof(proof, phoneNumber: number), linkTo: nil, reauthenticate: false, from: kit.origin)
            }
                == .invalidTemporaryProof, "a proof is used once")
        #expect(
            await errorCode {
                try await kit.phone.signIn(.temporaryProof("forged", phoneNumber: number), linkTo: nil, reauthenticate: false, from: kit.origin)
            }
                == .invalidTemporaryProof)

        // A proof expires.
        let (third, thirdCode) = try await Self.sent(kit)
        guard case .numberInUse(_, let late, _) = try await Self.signIn(kit, third, thirdCode, idToken: other.idToken) else {
            Issue.record("expected the number in use")
            return
        }
        kit.clock.advance(by: PhoneSignIn.proofLifetime)
        #expect(
            await errorCode {
                try await kit.phone.signIn(.temporaryProof(late, phoneNumber: Self.number), linkTo: nil, reauthenticate: false, from: kit.origin)
            }
                == .invalidTemporaryProof)
    }

    @Test("linking checks the ID token before it spends the code")
    func linkingBadToken() async throws {
        let kit = SignInKit()
        let (sessionInfo, code) = try await Self.sent(kit)
        #expect(await errorCode { try await Self.signIn(kit, sessionInfo, code, idToken: "garbage") } == .invalidIDToken)
        _ = try Self.signedIn(try await Self.signIn(kit, sessionInfo, code))
    }

    @Test("REAUTH: the number's account signs in; a number without one is USER_NOT_FOUND and makes none")
    func reauthenticate() async throws {
        let kit = SignInKit()
        let (unknown, unknownCode) = try await Self.sent(kit)
        #expect(await errorCode { try await Self.signIn(kit, unknown, unknownCode, reauthenticate: true) } == .userNotFound)
        #expect(try await kit.store.countUsers() == 0)
        let (first, code) = try await Self.sent(kit)
        let created = try Self.signedIn(try await Self.signIn(kit, first, code))
        let (again, againCode) = try await Self.sent(kit)
        let reauthenticated = try Self.signedIn(try await Self.signIn(kit, again, againCode, reauthenticate: true))
        #expect(reauthenticated.user.uid == created.user.uid && !reauthenticated.isNewUser)
    }

    @Test("USER_DISABLED, OPERATION_NOT_ALLOWED when off, new accounts counted per address")
    func refusals() async throws {
        var kit = SignInKit()
        let (first, code) = try await Self.sent(kit)
        let created = try Self.signedIn(try await Self.signIn(kit, first, code))
        _ = try await kit.store.updateUser(uid: created.user.uid, session: nil) { $0.disabled = true }
        let (second, secondCode) = try await Self.sent(kit)
        #expect(await errorCode { try await Self.signIn(kit, second, secondCode) } == .userDisabled)

        let (third, thirdCode) = try await Self.sent(kit)
        kit.settings.change { $0.phoneEnabled = false }
        #expect(await errorCode { try await Self.signIn(kit, third, thirdCode) } == .operationNotAllowed)
        kit.settings.change { $0.phoneEnabled = true }

        kit.limits.newAccounts = RateLimit("new-accounts", limit: 2, window: 3_600)
        let (fourth, fourthCode) = try await Self.sent(kit, to: "+919876543215")
        _ = try await Self.signIn(kit, fourth, fourthCode)
        let (fifth, fifthCode) = try await Self.sent(kit, to: "+919876543216")
        #expect(await errorCode { try await Self.signIn(kit, fifth, fifthCode) } == .tooManyAttempts)
    }

    @Test("test phone numbers: checked when set (E.164, 6 digits, at most 10)")
    func testNumbers() throws {
        #expect(try ProjectSettings.checkTestPhoneNumbers(["+16505551234": "123456"]) == ["+16505551234": "123456"])
        #expect(throws: HearthError(.invalidConfig)) { try ProjectSettings.checkTestPhoneNumbers(["16505551234": "123456"]) }
        #expect(throws: HearthError(.invalidConfig)) { try ProjectSettings.checkTestPhoneNumbers(["+16505551234": "12345"]) }
        #expect(throws: HearthError(.invalidConfig)) { try ProjectSettings.checkTestPhoneNumbers(["+16505551234": "12345a"]) }
        let eleven = Dictionary(uniqueKeysWithValues: (0..<11).map { ("+1650555123\($0)", "123456") })
        #expect(throws: HearthError(.invalidConfig)) { try ProjectSettings.checkTestPhoneNumbers(eleven) }
    }
}
