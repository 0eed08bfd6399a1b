import Crypto
import Foundation
import HTTPTypes
import HearthConfiguration
import HearthCore
import HearthServer
import HearthStorage
import HearthTesting
import HearthWire
import SQLKit
import Testing

/// Identity Platform's multi-factor API over HTTP: TOTP and SMS factors enrolled, asked for by every first factor,
/// finished with `mfaSignIn:finalize`, withdrawn; recovery codes; Firebase's error strings; codes that cannot be
/// replayed or guessed in parallel. TOTP codes are computed by ``RFC6238`` below, written from the RFC, not by
/// the server's library.
@Suite("Second factors")
struct MultiFactorHTTPTests {
    static let testNumber = "+16505551234"
    static let testCode = "123456"

    static func mfaOn(_ configuration: inout ServerConfiguration) {
        configuration.signIn.multiFactor = MultiFactorSettings(
            state: .enabled, phoneEnabled: true, totpEnabled: true, totpAdjacentIntervals: 1, recoveryCodesEnabled: true)
        configuration.signIn.testPhoneNumbers = [testNumber: testCode, "+16505550000": "000000"]
        configuration.signIn.emailLinkEnabled = true
        configuration.signIn.phoneEnabled = true
    }

    /// A password account with a verified e-mail, signed in now: its ID token.
    static func verifiedUser(_ hearth: TestHearth, _ client: FirebaseTestClient, _ email: String = "mfa@example.com") async throws -> (
        uid: String, idToken: String
    ) {
        let created = try await client.signUp(email: email)
        _ = try await hearth.services.store.updateUser(uid: created.localId, session: nil) { $0.emailVerified = true }
        let signedIn = try await client.signIn(email: email)
        return (created.localId, try #require(signedIn.string("idToken")))
    }

    /// Enrols a TOTP factor: its secret's key bytes and its enrolment id, and the new ID token.
    static func enrolTOTP(_ hearth: TestHearth, _ client: FirebaseTestClient, idToken: String, name: String = "Phone app") async throws -> (
        key: [UInt8], enrollmentID: String, idToken: String
    ) {
        try await enrolTOTP(clock: hearth.clock, client, idToken: idToken, name: name)
    }

    static func enrolTOTP(clock: ManualClock, _ client: FirebaseTestClient, idToken: String, name: String = "Phone app") async throws -> (
        key: [UInt8], enrollmentID: String, idToken: String
    ) {
        let started = try await client.post("/v2/accounts/mfaEnrollment:start", ["idToken": .string(idToken), "totpEnrollmentInfo": .object([:])])
        try #require(started.status == .ok, "\(String(decoding: started.body, as: UTF8.self))")
        let info = try #require(try started.decode(StartMFAEnrollmentResponse.self).totpSessionInfo)
        #expect(info.verificationCodeLength == 6 && info.hashingAlgorithm == "SHA1" && info.periodSec == 30)
        let key = try #require(RFC6238.base32Decode(info.sharedSecretKey))
        let finalized = try await client.post(
            "/v2/accounts/mfaEnrollment:finalize",
            [
                "idToken": .string(idToken), "displayName": .string(name),
                "totpVerificationInfo": .object([
                    "sessionInfo": .string(info.sessionInfo), "verificationCode": .string(RFC6238.code(key: key, at: clock.now)),
                ]),
            ])
        try #require(finalized.status == .ok, "\(String(decoding: finalized.body, as: UTF8.self))")
        let tokens = try finalized.decode(MFATokensResponse.self)
        let claims = jwtClaims(tokens.idToken)
        guard case .object(let firebase)? = claims["firebase"], case .string(let id)? = firebase["second_factor_identifier"] else {
            Issue.record("no second_factor_identifier in \(claims)")
            throw CancellationError()
        }
        #expect(firebase["sign_in_second_factor"] == .string("totp"))
        return (key, id, tokens.idToken)
    }

    /// A password sign-in that must stop at the first factor: its pending credential.
    static func pendingCredential(_ client: FirebaseTestClient, _ email: String = "mfa@example.com") async throws -> MFARequiredResponse {
        let result = try await client.signIn(email: email)
        try #require(result.status == .ok)
        #expect(result.json["idToken"] == nil && result.json["refreshToken"] == nil)
        return try result.decode(MFARequiredResponse.self)
    }

    static func finalizeTOTP(_ client: FirebaseTestClient, pending: String, enrollmentID: String, code: String) async throws -> WireResult {
        try await client.post(
            "/v2/accounts/mfaSignIn:finalize",
            [
                "mfaPendingCredential": .string(pending), "mfaEnrollmentId": .string(enrollmentID),
                "totpVerificationInfo": .object(["verificationCode": .string(code)]),
            ])
    }

    @Test("TOTP: enrolled, asked for by a password sign-in, finished; claims survive a refresh; lookup lists it; withdrawn")
    func totpRoundTrip() async throws {
        try await withHearth(Self.mfaOn) { hearth, client in
            let (uid, idToken) = try await Self.verifiedUser(hearth, client)
            let (key, enrollmentID, _) = try await Self.enrolTOTP(hearth, client, idToken: idToken)

            let pending = try await Self.pendingCredential(client)
            #expect(pending.localId == uid && pending.email == "mfa@example.com")
            #expect(pending.mfaInfo.count == 1 && pending.mfaInfo[0].totpInfo != nil && pending.mfaInfo[0].displayName == "Phone app")
            #expect(pending.mfaInfo[0].mfaEnrollmentId == enrollmentID && pending.mfaInfo[0].phoneInfo == nil)
            // No session was started, and it is not the last sign-in yet.
            let before = try #require(try await hearth.services.store.user(uid: uid))

            hearth.clock.advance(by: 30)
            let done = try await Self.finalizeTOTP(
                client, pending: pending.mfaPendingCredential, enrollmentID: enrollmentID, code: RFC6238.code(key: key, at: hearth.clock.now))
            #expect(done.status == .ok, "\(String(decoding: done.body, as: UTF8.self))")
            let tokens = try done.decode(MFATokensResponse.self)
            let claims = try await hearth.services.tokens.verifyIDToken(tokens.idToken)
            #expect(claims.firebase.signInProvider == "password" && claims.firebase.signInSecondFactor == "totp")
            #expect(claims.firebase.secondFactorIdentifier == enrollmentID)
            let after = try #require(try await hearth.services.store.user(uid: uid))
            #expect(after.lastLoginAt != before.lastLoginAt)

            let refreshed = try await client.refresh(tokens.refreshToken)
            let refreshedClaims = jwtClaims(try #require(refreshed.string("id_token")))
            guard case .object(let firebase)? = refreshedClaims["firebase"] else { throw CancellationError() }
            #expect(firebase["sign_in_second_factor"] == .string("totp") && firebase["second_factor_identifier"] == .string(enrollmentID))

            let lookup = try await client.lookup(tokens.idToken).decode(LookupResponse.self)
            let info = try #require(lookup.users?.first?.mfaInfo?.first)
            #expect(info.mfaEnrollmentId == enrollmentID && info.totpInfo != nil && info.enrolledAt?.hasSuffix("Z") == true)

            // A pending credential is spent by its sign-in.
            hearth.clock.advance(by: 30)
            let replayedCredential = try await Self.finalizeTOTP(
                client, pending: pending.mfaPendingCredential, enrollmentID: enrollmentID, code: RFC6238.code(key: key, at: hearth.clock.now))
            #expect(replayedCredential.errorMessage == "INVALID_MFA_PENDING_CREDENTIAL")

            let withdrawn = try await client.post(
                "/v2/accounts/mfaEnrollment:withdraw", ["idToken": .string(tokens.idToken), "mfaEnrollmentId": .string(enrollmentID)])
            #expect(withdrawn.status == .ok)
            let fresh = try withdrawn.decode(MFATokensResponse.self)
            // Withdrawing ends every earlier session; the answer's tokens start a new one.
            #expect(try await client.refresh(tokens.refreshToken).errorMessage == "TOKEN_EXPIRED")
            #expect(try await client.refresh(fresh.refreshToken).status == .ok)
            let plain = try await client.signIn(email: "mfa@example.com")
            #expect(plain.string("idToken") != nil && plain.json["mfaPendingCredential"] == nil)
            #expect(try await client.lookup(fresh.idToken).decode(LookupResponse.self).users?.first?.mfaInfo == nil)
        }
    }

    @Test("SMS: a test number enrolled; mfaSignIn:start sends to it, the code finishes; masked in mfaInfo, whole in lookup")
    func smsRoundTrip() async throws {
        try await withHearth(Self.mfaOn) { hearth, client in
            let (_, idToken) = try await Self.verifiedUser(hearth, client)
            let started = try await client.post(
                "/v2/accounts/mfaEnrollment:start",
                ["idToken": .string(idToken), "phoneEnrollmentInfo": .object(["phoneNumber": .string(Self.testNumber)])])
            let sessionInfo = try #require(try started.decode(StartMFAEnrollmentResponse.self).phoneSessionInfo?.sessionInfo)
            let finalized = try await client.post(
                "/v2/accounts/mfaEnrollment:finalize",
                [
                    "idToken": .string(idToken), "displayName": .string("Work phone"),
                    "phoneVerificationInfo": .object(["sessionInfo": .string(sessionInfo), "code": .string(Self.testCode)]),
                ])
            #expect(finalized.status == .ok, "\(String(decoding: finalized.body, as: UTF8.self))")
            let enrolledToken = try finalized.decode(MFATokensResponse.self).idToken
            let lookup = try await client.lookup(enrolledToken).decode(LookupResponse.self)
            let factor = try #require(lookup.users?.first?.mfaInfo?.first)
            #expect(factor.phoneInfo == Self.testNumber && factor.displayName == "Work phone")
            #expect(
                jwtClaims(enrolledToken)["firebase"].flatMap { value -> JSONValue? in
                    if case .object(let object) = value { return object["sign_in_second_factor"] }
                    return nil
                } == .string("phone"))

            let pending = try await Self.pendingCredential(client)
            #expect(pending.mfaInfo.first?.phoneInfo == "+*******1234")
            let sent = try await client.post(
                "/v2/accounts/mfaSignIn:start",
                [
                    "mfaPendingCredential": .string(pending.mfaPendingCredential),
                    "mfaEnrollmentId": .string(try #require(factor.mfaEnrollmentId)), "phoneSignInInfo": .object([:]),
                ])
            let signInSession = try #require(try sent.decode(StartMFASignInResponse.self).phoneResponseInfo.sessionInfo)
            let done = try await client.post(
                "/v2/accounts/mfaSignIn:finalize",
                [
                    "mfaPendingCredential": .string(pending.mfaPendingCredential),
                    "phoneVerificationInfo": .object(["sessionInfo": .string(signInSession), "code": .string(Self.testCode)]),
                ])
            #expect(done.status == .ok, "\(String(decoding: done.body, as: UTF8.self))")
            let claims = try await hearth.services.tokens.verifyIDToken(try done.decode(MFATokensResponse.self).idToken)
            #expect(claims.firebase.signInSecondFactor == "phone" && claims.firebase.secondFactorIdentifier == factor.mfaEnrollmentId)
        }
    }

    @Test("every first factor stops at the second: password, e-mail link, phone; a custom token does not; the v3 name too")
    func everyFirstFactor() async throws {
        try await withHearth(Self.mfaOn) { hearth, client in
            let (uid, idToken) = try await Self.verifiedUser(hearth, client)
            _ = try await Self.enrolTOTP(hearth, client, idToken: idToken)
            // The account also has a phone number as a first factor.
            _ = try await hearth.services.store.updateUser(uid: uid, session: nil) { $0.phoneNumber = "+16505550000" }

            let legacy = try await client.post(
                "/identitytoolkit/v3/relyingparty/verifyPassword",
                ["email": .string("mfa@example.com"), "password": .string("correct horse"), "returnSecureToken": .bool(true)])
            #expect(legacy.string("mfaPendingCredential") != nil && legacy.json["idToken"] == nil)

            let phoneSession = try await client.post("/v1/accounts:sendVerificationCode", ["phoneNumber": .string("+16505550000")])
            let phone = try await client.post(
                "/v1/accounts:signInWithPhoneNumber",
                ["sessionInfo": .string(try #require(phoneSession.string("sessionInfo"))), "code": .string("000000")])
            #expect(phone.string("mfaPendingCredential") != nil && phone.json["idToken"] == nil && phone.string("localId") == uid)

            let link = try await client.post(
                "/v1/accounts:sendOobCode",
                ["requestType": .string("EMAIL_SIGNIN"), "email": .string("mfa@example.com"), "continueUrl": .string("http://localhost/done")])
            #expect(link.status == .ok, "\(String(decoding: link.body, as: UTF8.self))")
            let code = try #require(EmailActionsTests.code(in: try await EmailActionsTests.latestLink(hearth)))
            let linked = try await client.post(
                "/v1/accounts:signInWithEmailLink", ["email": .string("mfa@example.com"), "oobCode": .string(code)])
            #expect(linked.string("mfaPendingCredential") != nil && linked.json["idToken"] == nil, "\(linked.json)")

            // A custom token is the developer's backend vouching for the person.
            let token = CustomTokenTests.unsigned(["uid": .string(uid)], now: hearth.clock.now)
            let custom = try await client.post("/v1/accounts:signInWithCustomToken", ["token": .string(token), "returnSecureToken": .bool(true)])
            #expect(custom.string("idToken") != nil)
        }
    }

    @Test("Apple through the sandbox: the second sign-in stops at the factor, TOTP finishes it as apple.com")
    func appleFirstFactor() async throws {
        try await withFederated(providers: { _ in }, { Self.mfaOn(&$0) }) { live, client in
            let first = try await client.signInWithIdp(try live.sandbox.signInCredential(for: .appleAlice, rawNonce: "first nonce").postBody)
            let idToken = try #require(first.string("idToken"), "\(first.json)")
            let (key, enrollmentID, _) = try await Self.enrolTOTP(clock: live.clock, client, idToken: idToken)
            live.clock.advance(by: 60)
            let again = try await client.signInWithIdp(try live.sandbox.signInCredential(for: .appleAlice, rawNonce: "second nonce").postBody)
            let pending = try #require(again.string("mfaPendingCredential"), "\(again.json)")
            #expect(again.json["idToken"] == nil)
            let done = try await Self.finalizeTOTP(
                client, pending: pending, enrollmentID: enrollmentID, code: RFC6238.code(key: key, at: live.clock.now))
            let claims = jwtClaims(try #require(done.string("idToken"), "\(done.json)"))
            guard case .object(let firebase)? = claims["firebase"] else { throw CancellationError() }
            #expect(firebase["sign_in_provider"] == .string("apple.com") && firebase["sign_in_second_factor"] == .string("totp"))
        }
    }

    @Test("the mail of a new factor: checkActionCode names REVERT_SECOND_FACTOR_ADDITION; applyActionCode withdraws it, once, audited")
    func revertByCode() async throws {
        try await withHearth(Self.mfaOn) { hearth, client in
            let (uid, idToken) = try await Self.verifiedUser(hearth, client)
            let (_, enrollmentID, _) = try await Self.enrolTOTP(hearth, client, idToken: idToken)
            let mail = try #require(try await EmailActionsTests.mails(hearth).first)
            #expect(mail.purpose == "REVERT_SECOND_FACTOR_ADDITION" && mail.recipient == "mfa@example.com")
            let link = try #require(EmailActionsTests.link(in: mail))
            let code = try #require(EmailActionsTests.code(in: link))
            let checked = try await client.post("/v1/accounts:resetPassword", ["oobCode": .string(code)])
            #expect(checked.string("requestType") == "REVERT_SECOND_FACTOR_ADDITION" && checked.string("email") == "mfa@example.com")
            hearth.clock.advance(by: 1)
            let applied = try await client.post("/v1/accounts:update", ["oobCode": .string(code)])
            #expect(applied.status == .ok, "\(applied.json)")
            #expect(try await hearth.services.store.user(uid: uid)?.secondFactors.isEmpty == true)
            #expect(try await client.post("/v1/accounts:update", ["oobCode": .string(code)]).errorMessage == "INVALID_OOB_CODE")
            let events = try await hearth.services.store.auditEvents(uid: uid, kind: .secondFactorWithdrawn, after: nil, limit: 10)
            #expect(events.first?.method == "revertLink" && events.first?.details["enrollment"] == enrollmentID)
            let enrolled = try await hearth.services.store.auditEvents(uid: uid, kind: .secondFactorEnrolled, after: nil, limit: 10)
            #expect(enrolled.first?.details == ["kind": "totp", "enrollment": enrollmentID])
            // A client cannot ask for such a mail.
            #expect(
                try await client.post(
                    "/v1/accounts:sendOobCode", ["requestType": .string("REVERT_SECOND_FACTOR_ADDITION"), "email": .string("mfa@example.com")]
                ).errorMessage == "INVALID_REQ_TYPE : Unsupported request parameters.")
        }
    }

    @Test(
        "an SMS factor on a real number behind proof of work: enrolment needs the proof, the sign-in's code does not (the client sees the number masked)"
    )
    func smsBehindProofOfWork() async throws {
        try await withFederated(
            providers: { _ in },
            {
                Self.mfaOn(&$0)
                $0.sms.appVerification = .proofOfWork(difficulty: 8)
            }
        ) { live, client in
            func listedCode(_ sessionInfo: String) async throws -> String {
                let listing = try await client.raw("/emulator/v1/projects/\(live.projectID)/verificationCodes", method: .get)
                guard case .array(let codes)? = listing["verificationCodes"] else { throw CancellationError() }
                for case .object(let entry) in codes where entry["sessionInfo"] == .string(sessionInfo) {
                    if case .string(let code)? = entry["code"] { return code }
                }
                throw CancellationError()
            }
            let created = try await client.signUp(email: "mfa@example.com")
            _ = try await live.services.store.updateUser(uid: created.localId, session: nil) { $0.emailVerified = true }
            let idToken = try #require(try await client.signIn(email: "mfa@example.com").string("idToken"))
            let number = "+919876543210"
            let start = "/v2/accounts/mfaEnrollment:start"
            #expect(
                try await client.post(start, ["idToken": .string(idToken), "phoneEnrollmentInfo": .object(["phoneNumber": .string(number)])])
                    .errorMessage == "MISSING_CLIENT_IDENTIFIER")
            let proof = ProofOfWork.solve(
                projectID: live.projectID, phoneNumber: number, time: Int(live.clock.now.timeIntervalSince1970), difficulty: 8)
            let started = try await client.post(
                start,
                ["idToken": .string(idToken), "phoneEnrollmentInfo": .object(["phoneNumber": .string(number), "recaptchaToken": .string(proof)])])
            let sessionInfo = try #require(try started.decode(StartMFAEnrollmentResponse.self).phoneSessionInfo?.sessionInfo)
            let enrolled = try await client.post(
                "/v2/accounts/mfaEnrollment:finalize",
                [
                    "idToken": .string(idToken),
                    "phoneVerificationInfo": .object(["sessionInfo": .string(sessionInfo), "code": .string(try await listedCode(sessionInfo))]),
                ])
            #expect(enrolled.status == .ok, "\(enrolled.json)")
            let factorID = try #require(try await live.services.store.user(uid: created.localId)?.secondFactors.first?.id)

            let pending = try await Self.pendingCredential(client)
            let sent = try await client.post(
                "/v2/accounts/mfaSignIn:start",
                [
                    "mfaPendingCredential": .string(pending.mfaPendingCredential), "mfaEnrollmentId": .string(factorID),
                    "phoneSignInInfo": .object([:]),
                ])
            let signInSession = try #require(try sent.decode(StartMFASignInResponse.self).phoneResponseInfo.sessionInfo, "\(sent.json)")
            let done = try await client.post(
                "/v2/accounts/mfaSignIn:finalize",
                [
                    "mfaPendingCredential": .string(pending.mfaPendingCredential),
                    "phoneVerificationInfo": .object(["sessionInfo": .string(signInSession), "code": .string(try await listedCode(signInSession))]),
                ])
            #expect(done.string("idToken") != nil, "\(done.json)")
        }
    }

    @Test("each error a person can cause, with Firebase's exact string")
    func errors() async throws {
        try await withHearth(Self.mfaOn) { hearth, client in
            func message(_ path: String, _ fields: [String: JSONValue]) async throws -> String? {
                let result = try await client.post(path, fields)
                #expect(result.status == .badRequest, "\(path) \(fields)")
                return result.errorMessage
            }
            let start = "/v2/accounts/mfaEnrollment:start"
            let finalize = "/v2/accounts/mfaEnrollment:finalize"
            let totp: [String: JSONValue] = ["totpEnrollmentInfo": .object([:])]

            // Anonymous users, and unverified e-mails, cannot enrol.
            let anonymous = try await client.signUpAnonymously()
            #expect(
                try await message(start, totp.merging(["idToken": .string(anonymous.idToken ?? "")]) { $1 })
                    == "UNSUPPORTED_FIRST_FACTOR : MFA is not available for the given first factor.")
            let unverified = try await client.signUp(email: "unverified@example.com")
            #expect(
                try await message(start, totp.merging(["idToken": .string(unverified.idToken ?? "")]) { $1 })
                    == "UNVERIFIED_EMAIL : Need to verify email first before enrolling second factors.")
            #expect(try await message(start, totp) == "MISSING_ID_TOKEN")
            #expect(try await message(start, totp.merging(["idToken": .string("forged")]) { $1 }) == "INVALID_ID_TOKEN")

            let (uid, idToken) = try await Self.verifiedUser(hearth, client)
            let withToken: [String: JSONValue] = ["idToken": .string(idToken)]
            #expect(try await message(start, withToken)?.hasPrefix("Invalid JSON payload received.") == true)
            #expect(
                try await message(start, withToken.merging(["phoneEnrollmentInfo": .object([:])]) { $1 }) == "MISSING_PHONE_NUMBER")
            #expect(
                try await message(start, withToken.merging(["phoneEnrollmentInfo": .object(["phoneNumber": .string("+1\u{0}650")])]) { $1 })
                    == "INVALID_PHONE_NUMBER : Invalid format.")
            #expect(
                try await message(
                    finalize,
                    withToken.merging(["totpVerificationInfo": .object(["sessionInfo": .string("forged"), "verificationCode": .string("1")])]) { $1 })
                    == "INVALID_SESSION_INFO")
            #expect(
                try await message(finalize, withToken.merging(["totpVerificationInfo": .object(["verificationCode": .string("123456")])]) { $1 })
                    == "MISSING_SESSION_INFO")

            // A wrong TOTP code at enrolment; then the session is used up after its attempts.
            let started = try await client.post(start, totp.merging(withToken) { $1 })
            let session = try #require(try started.decode(StartMFAEnrollmentResponse.self).totpSessionInfo)
            let key = try #require(RFC6238.base32Decode(session.sharedSecretKey))
            let wrongCode = RFC6238.code(key: key, at: hearth.clock.now.addingTimeInterval(3_600))
            func finalizeTOTP(_ code: String) -> [String: JSONValue] {
                withToken.merging([
                    "totpVerificationInfo": .object(["sessionInfo": .string(session.sessionInfo), "verificationCode": .string(code)])
                ]) { $1 }
            }
            #expect(try await message(finalize, finalizeTOTP(wrongCode)) == "INVALID_CODE")
            #expect(try await message(finalize, finalizeTOTP("")) == "MISSING_CODE")
            #expect(try await message(finalize, finalizeTOTP("12\u{0}456")) == "INVALID_CODE")
            hearth.clock.advance(by: SecondFactorEnrollments.totpEnrollmentLifetime + 1)
            #expect(try await message(finalize, finalizeTOTP(RFC6238.code(key: key, at: hearth.clock.now))) == "SESSION_EXPIRED")

            // A signed-in session older than the recent-login window cannot enrol.
            #expect(try await message(start, totp.merging(withToken) { $1 }) == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
            let fresh = try #require(try await client.signIn(email: "mfa@example.com").string("idToken"))
            let (_, enrollmentID, enrolledToken) = try await Self.enrolTOTP(hearth, client, idToken: fresh)

            // Withdrawing: no id, an unknown one.
            let withdraw = "/v2/accounts/mfaEnrollment:withdraw"
            #expect(
                try await message(withdraw, ["idToken": .string(enrolledToken)])
                    == "MISSING_MFA_ENROLLMENT_ID : No second factor identifier is provided.")
            #expect(
                try await message(withdraw, ["idToken": .string(enrolledToken), "mfaEnrollmentId": .string("nope")]) == "MFA_ENROLLMENT_NOT_FOUND")

            // Sign-in errors.
            let signInStart = "/v2/accounts/mfaSignIn:start"
            let signInFinalize = "/v2/accounts/mfaSignIn:finalize"
            #expect(try await message(signInStart, [:]) == "MISSING_MFA_PENDING_CREDENTIAL : Request does not have MFA pending credential.")
            #expect(
                try await message(signInFinalize, ["totpVerificationInfo": .object(["verificationCode": .string("123456")])])
                    == "MISSING_MFA_PENDING_CREDENTIAL : Request does not have MFA pending credential.")
            #expect(try await message(signInStart, ["mfaPendingCredential": .string("forged")]) == "INVALID_MFA_PENDING_CREDENTIAL")
            let pending = try await Self.pendingCredential(client)
            let credential: [String: JSONValue] = ["mfaPendingCredential": .string(pending.mfaPendingCredential)]
            #expect(try await message(signInStart, credential) == "MISSING_MFA_ENROLLMENT_ID : No second factor identifier is provided.")
            // A TOTP factor gets no SMS.
            #expect(
                try await message(signInStart, credential.merging(["mfaEnrollmentId": .string(enrollmentID)]) { $1 }) == "MFA_ENROLLMENT_NOT_FOUND")
            #expect(
                try await message(
                    signInFinalize, credential.merging(["totpVerificationInfo": .object(["verificationCode": .string("123456")])]) { $1 })
                    == "MISSING_MFA_ENROLLMENT_ID : No second factor identifier is provided.")
            #expect(
                try await message(
                    signInFinalize,
                    credential.merging([
                        "mfaEnrollmentId": .string("unknown"), "totpVerificationInfo": .object(["verificationCode": .string("123456")]),
                    ]) { $1 }) == "MFA_ENROLLMENT_NOT_FOUND")
            #expect(
                try await message(
                    signInFinalize,
                    credential.merging(["phoneVerificationInfo": .object(["sessionInfo": .string("forged"), "code": .string("123456")])]) { $1 })
                    == "INVALID_SESSION_INFO")
            // A pending credential expires.
            hearth.clock.advance(by: SignInCompletion.pendingLifetime + 1)
            #expect(
                try await message(
                    signInFinalize,
                    credential.merging([
                        "mfaEnrollmentId": .string(enrollmentID), "totpVerificationInfo": .object(["verificationCode": .string("123456")]),
                    ]) { $1 }) == "INVALID_MFA_PENDING_CREDENTIAL")
            _ = uid
        }
    }

    @Test("a TOTP code is taken once: replayed with another pending credential, or raced by two at once, one sign-in gets it")
    func totpReplay() async throws {
        try await withHearth(Self.mfaOn) { hearth, client in
            let (_, idToken) = try await Self.verifiedUser(hearth, client)
            let (key, enrollmentID, _) = try await Self.enrolTOTP(hearth, client, idToken: idToken)
            hearth.clock.advance(by: 30)
            let code = RFC6238.code(key: key, at: hearth.clock.now)
            let first = try await Self.pendingCredential(client)
            #expect(try await Self.finalizeTOTP(client, pending: first.mfaPendingCredential, enrollmentID: enrollmentID, code: code).status == .ok)
            let second = try await Self.pendingCredential(client)
            #expect(
                try await Self.finalizeTOTP(client, pending: second.mfaPendingCredential, enrollmentID: enrollmentID, code: code).errorMessage
                    == "INVALID_CODE")

            // Ten pending credentials race one fresh code: exactly one signs in.
            hearth.clock.advance(by: 30)
            let fresh = RFC6238.code(key: key, at: hearth.clock.now)
            var pendings: [String] = []
            for _ in 0..<4 { pendings.append(try await Self.pendingCredential(client).mfaPendingCredential) }
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for pending in pendings {
                    group.addTask { try await Self.finalizeTOTP(client, pending: pending, enrollmentID: enrollmentID, code: fresh).status }
                }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .ok }.count == 1, "\(statuses)")
        }
    }

    @Test("guessing: parallel wrong codes use up a pending credential's 5 attempts and no more; the account's limit stops new credentials")
    func parallelGuesses() async throws {
        try await withHearth({
            Self.mfaOn(&$0)
            $0.abuse.limitsEnabled = true
        }) { hearth, client in
            let (_, idToken) = try await Self.verifiedUser(hearth, client)
            let (key, enrollmentID, _) = try await Self.enrolTOTP(hearth, client, idToken: idToken)
            let right = RFC6238.code(key: key, at: hearth.clock.now.addingTimeInterval(60))
            let wrong = (0..<20).map { String(format: "%06d", (Int(right)! + 1 + $0 * 7_919) % 1_000_000) }
            let pending = try await Self.pendingCredential(client).mfaPendingCredential
            let messages = try await withThrowingTaskGroup(of: String?.self) { group in
                for code in wrong {
                    group.addTask { try await Self.finalizeTOTP(client, pending: pending, enrollmentID: enrollmentID, code: code).errorMessage }
                }
                return try await group.reduce(into: [String?]()) { $0.append($1) }
            }
            // Five reach the code check; the rest find the credential used up (or the account's limit reached).
            #expect(messages.filter { $0 == "INVALID_CODE" }.count == SignInCompletion.pendingAttempts, "\(messages)")
            #expect(messages.allSatisfy { ["INVALID_CODE", "INVALID_MFA_PENDING_CREDENTIAL", "TOO_MANY_ATTEMPTS_TRY_LATER"].contains($0 ?? "") })
            // Even the right code no longer works with that credential.
            hearth.clock.advance(by: 60)
            #expect(
                try await Self.finalizeTOTP(client, pending: pending, enrollmentID: enrollmentID, code: right).errorMessage
                    == "INVALID_MFA_PENDING_CREDENTIAL")
            // New credentials: the account allows 10 tries per 15 minutes across all of them.
            var last: String?
            for _ in 0..<3 {
                let another = try await Self.pendingCredential(client).mfaPendingCredential
                for code in wrong.prefix(3) {
                    last = try await Self.finalizeTOTP(client, pending: another, enrollmentID: enrollmentID, code: code).errorMessage
                }
            }
            #expect(last == "TOO_MANY_ATTEMPTS_TRY_LATER")
            let audit = try await hearth.services.store.auditEvents(uid: nil, kind: .secondFactorFailed, after: nil, limit: 100)
            #expect(audit.count >= 5 && audit.allSatisfy { !$0.details.values.contains(right) })
        }
    }

    @Test("recovery codes: shown once, each signs in once in place of a factor, counted; off unless enabled")
    func recoveryCodes() async throws {
        try await withHearth(Self.mfaOn) { hearth, client in
            let (uid, idToken) = try await Self.verifiedUser(hearth, client)
            let generate = "/v2/accounts/mfaRecoveryCodes:generate"
            #expect(
                try await client.post(generate, ["idToken": .string(idToken)]).errorMessage
                    == "OPERATION_NOT_ALLOWED : Enroll a second factor before generating recovery codes.")
            let (_, _, enrolled) = try await Self.enrolTOTP(hearth, client, idToken: idToken)
            let generated = try await client.post(generate, ["idToken": .string(enrolled)])
            let codes = try generated.decode(GenerateRecoveryCodesResponse.self).recoveryCodes
            #expect(codes.count == RecoveryCodes.count && Set(codes).count == codes.count)
            #expect(codes.allSatisfy { $0.count == 14 && $0.split(separator: "-").count == 3 })
            // Only hashes are kept.
            let stored = try #require(try await hearth.services.store.user(uid: uid))
            #expect(stored.recoveryCodeHashes.count == codes.count && !stored.recoveryCodeHashes.contains(codes[0]))

            func useCode(_ code: String) async throws -> WireResult {
                let pending = try await Self.pendingCredential(client)
                return try await client.post(
                    "/v2/accounts/mfaSignIn:finalize",
                    [
                        "mfaPendingCredential": .string(pending.mfaPendingCredential),
                        "recoveryCodeVerificationInfo": .object(["recoveryCode": .string(code)]),
                    ])
            }
            let used = try await useCode(codes[0].lowercased())
            #expect(used.status == .ok, "\(used.json)")
            let claims = try await hearth.services.tokens.verifyIDToken(try used.decode(MFATokensResponse.self).idToken)
            #expect(claims.firebase.signInSecondFactor == "recovery_code")
            #expect(try await useCode(codes[0]).errorMessage == "INVALID_CODE")
            #expect(try await useCode("AAAA-AAAA-AAAA").errorMessage == "INVALID_CODE")
            #expect(try await useCode("").errorMessage == "MISSING_CODE")
            #expect(try await hearth.services.store.user(uid: uid)?.recoveryCodeHashes.count == codes.count - 1)
            // Two parallel uses of one code: one signs in.
            let pendings = [try await Self.pendingCredential(client), try await Self.pendingCredential(client)]
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for pending in pendings {
                    group.addTask {
                        try await client.post(
                            "/v2/accounts/mfaSignIn:finalize",
                            [
                                "mfaPendingCredential": .string(pending.mfaPendingCredential),
                                "recoveryCodeVerificationInfo": .object(["recoveryCode": .string(codes[1])]),
                            ]
                        ).status
                    }
                }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .ok }.count == 1, "\(statuses)")
        }
        try await withHearth({
            Self.mfaOn(&$0)
            $0.signIn.multiFactor.recoveryCodesEnabled = false
        }) { hearth, client in
            let (_, idToken) = try await Self.verifiedUser(hearth, client)
            #expect(
                try await client.post("/v2/accounts/mfaRecoveryCodes:generate", ["idToken": .string(idToken)]).errorMessage
                    == "OPERATION_NOT_ALLOWED : Recovery codes are not enabled.")
        }
    }

    @Test("limits: five factors, a number once, an MFA kind the project has off")
    func limits() async throws {
        try await withHearth(Self.mfaOn) { hearth, client in
            var (_, idToken) = try await Self.verifiedUser(hearth, client)
            func enrolPhone(_ number: String, code: String) async throws -> WireResult {
                let started = try await client.post(
                    "/v2/accounts/mfaEnrollment:start",
                    ["idToken": .string(idToken), "phoneEnrollmentInfo": .object(["phoneNumber": .string(number)])])
                guard let sessionInfo = try? started.decode(StartMFAEnrollmentResponse.self).phoneSessionInfo?.sessionInfo else { return started }
                return try await client.post(
                    "/v2/accounts/mfaEnrollment:finalize",
                    ["idToken": .string(idToken), "phoneVerificationInfo": .object(["sessionInfo": .string(sessionInfo), "code": .string(code)])])
            }
            let enrolled = try await enrolPhone(Self.testNumber, code: Self.testCode)
            idToken = try enrolled.decode(MFATokensResponse.self).idToken
            #expect(
                try await enrolPhone(Self.testNumber, code: Self.testCode).errorMessage
                    == "SECOND_FACTOR_EXISTS : Phone number already enrolled as second factor for this account.")
            for _ in 0..<4 { idToken = try await Self.enrolTOTP(hearth, client, idToken: idToken).idToken }
            #expect(try await enrolPhone("+16505550000", code: "000000").errorMessage == "SECOND_FACTOR_LIMIT_EXCEEDED")
            #expect(try await client.lookup(idToken).decode(LookupResponse.self).users?.first?.mfaInfo?.count == 5)
        }
        try await withHearth({
            Self.mfaOn(&$0)
            $0.signIn.multiFactor.phoneEnabled = false
            $0.signIn.multiFactor.totpEnabled = false
        }) {
            hearth, client in
            let (_, idToken) = try await Self.verifiedUser(hearth, client)
            #expect(
                try await client.post(
                    "/v2/accounts/mfaEnrollment:start",
                    ["idToken": .string(idToken), "phoneEnrollmentInfo": .object(["phoneNumber": .string(Self.testNumber)])]
                ).errorMessage == "OPERATION_NOT_ALLOWED : SMS based MFA not enabled.")
            #expect(
                try await client.post("/v2/accounts/mfaEnrollment:start", ["idToken": .string(idToken), "totpEnrollmentInfo": .object([:])])
                    .errorMessage == "OPERATION_NOT_ALLOWED : TOTP based MFA not enabled.")
        }
    }

    @Test("a TOTP secret is sealed at rest, bound to its account, and rewrapped with the other secrets")
    func sealedSecret() async throws {
        try await withHearth({
            Self.mfaOn(&$0)
            $0.mode = .production
            $0.apiKeys = ["test-api-key"]
        }) { hearth, client in
            let (uid, idToken) = try await Self.verifiedUser(hearth, client)
            let (key, enrollmentID, _) = try await Self.enrolTOTP(hearth, client, idToken: idToken)
            let secret = String(decoding: key, as: UTF8.self)
            let sql = try #require(hearth.services.store as? SQLStore)
            let raw = try await sql.transactor.read { database in
                try await database.raw("SELECT second_factors FROM users WHERE uid = \(bind: uid)").all().first?.decode(
                    column: "second_factors", as: String.self)
            }
            let column = try #require(raw)
            #expect(column.contains("hearth-sealed:") && !column.contains(secret))
            let newKey = KeyEncryptionKey.generate()
            let counts = try await sql.rewrapStoredSecrets(to: SecretSealer(key: newKey))
            #expect(counts.totpSecrets == 1)
            let rewrapped = try #require(try await hearth.services.store.user(uid: uid)?.secondFactors.first)
            guard case .totp(let sealed) = rewrapped.factor else { throw CancellationError() }
            #expect(try MultiFactorSecrets(sealer: SecretSealer(key: newKey)).open(sealed, uid: uid, enrollmentID: enrollmentID) == secret)
            #expect(throws: (any Error).self) {
                try MultiFactorSecrets(sealer: SecretSealer(key: newKey)).open(sealed, uid: "other", enrollmentID: enrollmentID)
            }
        }
    }
}
