import Crypto
import Foundation
import HearthCore
import HearthTesting
import Testing

@testable import HearthAuth

/// Second factors through the SDK against a live server: TOTP codes computed here (RFC 6238 over swift-crypto's
/// HMAC-SHA1, at the server's manual clock), SMS codes of test numbers or from the emulator's `verificationCodes`
/// listing.
@Suite struct MultiFactorTests {
    static let password = "correct horse battery"

    /// A server with SMS and TOTP factors and recovery codes on, and ``PhoneAuthTests/testNumbers``.
    static func withMFAHearth(_ body: (LiveHearth) async throws -> Void) async throws {
        try await withLiveHearth(
            {
                $0.signIn.testPhoneNumbers = PhoneAuthTests.testNumbers
                $0.signIn.multiFactor = MultiFactorSettings(state: .enabled, phoneEnabled: true, totpEnabled: true, recoveryCodesEnabled: true)
            }, body)
    }

    /// A password user with a verified e-mail (what enrolment needs), signed in.
    static func verifiedUser(_ auth: Auth, _ live: LiveHearth, email: String) async throws -> User {
        let user = try await auth.createUser(withEmail: email, password: password).user
        try await live.services.store.updateUser(uid: user.uid, session: nil) { $0.emailVerified = true }
        try await user.reload()
        #expect(user.isEmailVerified)
        return user
    }

    /// The error `body` throws, which must be ``AuthErrorCode/secondFactorRequired``, and its resolver.
    static func resolver(_ body: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) async throws -> MultiFactorResolver {
        let error = try #require(await nsError(body), sourceLocation: sourceLocation)
        #expect(AuthErrorCode(error) == .secondFactorRequired, "\(error)", sourceLocation: sourceLocation)
        #expect(error.code == 17078 && error.userInfo[AuthErrorUserInfoNameKey] as? String == "ERROR_SECOND_FACTOR_REQUIRED")
        return try #require(error.userInfo[AuthErrorUserInfoMultiFactorResolverKey] as? MultiFactorResolver, sourceLocation: sourceLocation)
    }

    /// `firebase.second_factor_identifier` of the user's ID token.
    static func secondFactorIdentifier(_ user: User) async throws -> String? {
        let firebase = try await user.getIDTokenResult().claims["firebase"] as? [String: Any]
        return firebase?["second_factor_identifier"] as? String
    }

    // MARK: TOTP

    @Test(
        "TOTP: enrol with a code, sign-in asks for it, resolving signs in with the second-factor claims; replays, wrong codes, re-authentication, unenrol"
    )
    func totp() async throws {
        try await Self.withMFAHearth { live in
            let auth = makeAuth(live)
            let user = try await Self.verifiedUser(auth, live, email: "totp@example.com")
            #expect(user.multiFactor.enrolledFactors.isEmpty)

            let session = try await user.multiFactor.session()
            let secret = try await TOTPMultiFactorGenerator.generateSecret(with: session)
            let key = secret.sharedSecretKey()
            #expect(key.count >= 16 && key.allSatisfy { "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".contains($0) })
            #expect(
                secret.generateQRCodeURL(withAccountName: "totp@example.com", issuer: "Hearth Tests")
                    == "otpauth://totp/Hearth%20Tests:totp@example.com?secret=\(key)&issuer=Hearth%20Tests&algorithm=SHA1&digits=6&period=30")
            secret.openInOTPApp(withQRCodeURL: "otpauth://totp/x")

            let code = try TOTP.code(secret: key, at: live.clock.now)
            let wrong = TOTP.other(than: code)
            #expect(
                await authError {
                    try await user.multiFactor.enroll(
                        with: TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: wrong), displayName: "Authenticator")
                } == .invalidVerificationCode)
            let enrolled = await DeprecationsTests.outcome { done in
                user.multiFactor.enroll(
                    with: TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: code), displayName: "Authenticator"
                ) { done(true, $0) }
            }
            #expect(enrolled.error == nil, "\(String(describing: enrolled.error))")
            #expect(auth.currentUser === user)
            let factor = try #require(user.multiFactor.enrolledFactors.first)
            #expect(user.multiFactor.enrolledFactors.count == 1 && factor is TOTPMultiFactorInfo)
            #expect(factor.factorID == TOTPMultiFactorID && factor.factorID == PhoneMultiFactorInfo.TOTPMultiFactorID && factor.factorID == "totp")
            #expect(factor.displayName == "Authenticator" && !factor.uid.isEmpty)
            #expect(abs(factor.enrollmentDate.timeIntervalSince(live.clock.now)) < 5)

            // Signed out, the password alone no longer signs in.
            try auth.signOut()
            let states = Recorder<String?>()
            let handle = auth.addStateDidChangeListener(queue: DispatchQueue(label: "mfa-listener")) { _, user in states.append(user?.uid) }
            defer { auth.removeStateDidChangeListener(handle) }
            let resolver = try await Self.resolver { try await auth.signIn(withEmail: "totp@example.com", password: Self.password) }
            #expect(auth.currentUser == nil && resolver.auth === auth)
            let hint = try #require(resolver.hints.first)
            #expect(resolver.hints.count == 1 && hint is TOTPMultiFactorInfo && hint.uid == factor.uid && hint.displayName == "Authenticator")

            // The enrolment's code is used up; a wrong code is refused; the next period's code signs in.
            let used = TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: hint.uid, oneTimePassword: code)
            #expect(await authError { try await resolver.resolveSignIn(with: used) } == .invalidVerificationCode)
            let wrongSignIn = TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: hint.uid, oneTimePassword: wrong)
            #expect(await authError { try await resolver.resolveSignIn(with: wrongSignIn) } == .invalidVerificationCode)
            #expect(auth.currentUser == nil)
            live.clock.advance(by: 30)
            let next = try TOTP.code(secret: key, at: live.clock.now)
            let result = try await resolver.resolveSignIn(
                with: TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: hint.uid, oneTimePassword: next))
            #expect(result.user.uid == user.uid && auth.currentUser === result.user && result.additionalUserInfo == nil)
            let token = try await result.user.getIDTokenResult()
            #expect(token.signInProvider == "password" && token.signInSecondFactor == "totp")
            #expect(try await Self.secondFactorIdentifier(result.user) == hint.uid)
            #expect(result.user.multiFactor.enrolledFactors.map(\.uid) == [factor.uid])
            await eventually { states.all.last == .some(user.uid) }

            // The same code again, in another sign-in: refused. The completion form, with the next code, signs in.
            try auth.signOut()
            let again = try await Self.resolver { try await auth.signIn(withEmail: "totp@example.com", password: Self.password) }
            let replay = TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: hint.uid, oneTimePassword: next)
            #expect(await authError { try await again.resolveSignIn(with: replay) } == .invalidVerificationCode)
            live.clock.advance(by: 30)
            let viaCompletion = await DeprecationsTests.outcome { done in
                again.resolveSignIn(
                    with: TOTPMultiFactorGenerator.assertionForSignIn(
                        withEnrollmentID: hint.uid, oneTimePassword: try! TOTP.code(secret: key, at: live.clock.now)), completion: done)
            }
            let signedIn = try #require(viaCompletion.value?.user, "\(String(describing: viaCompletion.error))")
            #expect(auth.currentUser === signedIn)

            // Re-authentication asks too; resolving it keeps the current user object.
            let reauth = try await Self.resolver {
                try await signedIn.reauthenticate(with: EmailAuthProvider.credential(withEmail: "totp@example.com", password: Self.password))
            }
            live.clock.advance(by: 30)
            let reauthenticated = try await reauth.resolveSignIn(
                with: TOTPMultiFactorGenerator.assertionForSignIn(
                    withEnrollmentID: hint.uid, oneTimePassword: try TOTP.code(secret: key, at: live.clock.now)))
            #expect(reauthenticated.user === signedIn && auth.currentUser === signedIn)

            // An assertion of the wrong kind is refused without a call; so is an unknown factor's removal.
            #expect(await authError { try await signedIn.multiFactor.enroll(with: replay, displayName: nil) } == .internalError)
            #expect(await authError { try await signedIn.multiFactor.unenroll(withFactorUID: "no-such-factor") } == .multiFactorInfoNotFound)

            // Unenrolled, the password alone signs in again.
            try await signedIn.multiFactor.unenroll(with: hint)
            #expect(signedIn.multiFactor.enrolledFactors.isEmpty && auth.currentUser === signedIn)
            try auth.signOut()
            let plain = try await auth.signIn(withEmail: "totp@example.com", password: Self.password)
            #expect(try await plain.user.getIDTokenResult().signInSecondFactor == "")
        }
    }

    // MARK: SMS

    @Test("SMS: enrol a test number and a number whose code is in the outbox; sign-in sends the chosen factor's code and resolves with it")
    func sms() async throws {
        try await Self.withMFAHearth { live in
            let auth = makeAuth(live)
            let provider = PhoneAuthProvider.provider(auth: auth)
            let user = try await Self.verifiedUser(auth, live, email: "sms@example.com")

            // A test number: its fixed code; a wrong one first.
            let session = try await user.multiFactor.session()
            let testID = try await provider.verifyPhoneNumber("+16505551234", uiDelegate: nil, multiFactorSession: session)
            let wrong = PhoneMultiFactorGenerator.assertion(with: provider.credential(withVerificationID: testID, verificationCode: "654321"))
            #expect(await authError { try await user.multiFactor.enroll(with: wrong, displayName: "Desk") } == .invalidVerificationCode)
            let assertion = PhoneMultiFactorGenerator.assertion(with: provider.credential(withVerificationID: testID, verificationCode: "123456"))
            #expect(assertion.factorID == PhoneMultiFactorID && assertion.factorID == PhoneMultiFactorInfo.PhoneMultiFactorID)
            try await user.multiFactor.enroll(with: assertion, displayName: "Desk")

            // A number that gets an SMS, enrolled through the completion forms.
            let sent: DeprecationsTests.Outcome<String> = await DeprecationsTests.outcome { done in
                user.multiFactor.getSessionWithCompletion { session, error in
                    guard let session else { return done(nil, error) }
                    provider.verifyPhoneNumber("+919876543210", uiDelegate: nil, multiFactorSession: session, completion: done)
                }
            }
            let smsID = try #require(sent.value, "\(String(describing: sent.error))")
            let smsCode = try await PhoneAuthTests.smsCode(live, for: smsID)
            try await user.multiFactor.enroll(
                with: PhoneMultiFactorGenerator.assertion(with: provider.credential(withVerificationID: smsID, verificationCode: smsCode)),
                displayName: nil)
            let factors = user.multiFactor.enrolledFactors.compactMap { $0 as? PhoneMultiFactorInfo }
            #expect(factors.map(\.phoneNumber) == ["+16505551234", "+919876543210"] && factors.map(\.displayName) == ["Desk", nil])
            #expect(factors.allSatisfy { $0.factorID == "phone" })

            try auth.signOut()
            let resolver = try await Self.resolver { try await auth.signIn(withEmail: "sms@example.com", password: Self.password) }
            let hints = resolver.hints.compactMap { $0 as? PhoneMultiFactorInfo }
            #expect(hints.map(\.phoneNumber) == ["+*******1234", "+********3210"] && hints.map(\.uid) == factors.map(\.uid))

            // No session, or a sign-in session without the factor: refused.
            #expect(
                await authError { _ = try await provider.verifyPhoneNumber(with: hints[0], uiDelegate: nil, multiFactorSession: nil) }
                    == .missingMultiFactorSession)
            #expect(
                await authError { _ = try await provider.verifyPhoneNumber("+16505551234", uiDelegate: nil, multiFactorSession: resolver.session) }
                    == .missingMultiFactorInfo)
            #expect(await authError { _ = try await TOTPMultiFactorGenerator.generateSecret(with: resolver.session) } == .invalidMultiFactorSession)

            // The outbox number's code signs in.
            let signInID = try await provider.verifyPhoneNumber(with: hints[1], uiDelegate: nil, multiFactorSession: resolver.session)
            let signInCode = try await PhoneAuthTests.smsCode(live, for: signInID)
            let wrongCode = TOTP.other(than: signInCode)
            #expect(
                await authError {
                    try await resolver.resolveSignIn(
                        with: PhoneMultiFactorGenerator.assertion(
                            with: provider.credential(withVerificationID: signInID, verificationCode: wrongCode)))
                } == .invalidVerificationCode)
            let result = try await resolver.resolveSignIn(
                with: PhoneMultiFactorGenerator.assertion(with: provider.credential(withVerificationID: signInID, verificationCode: signInCode)))
            #expect(auth.currentUser === result.user && result.user.uid == user.uid)
            #expect(try await result.user.getIDTokenResult().signInSecondFactor == "phone")
            #expect(try await Self.secondFactorIdentifier(result.user) == hints[1].uid)

            // A phone first factor of the account asks for a second one as well (signInWithPhoneNumber).
            try await result.user.link(with: try await PhoneAuthTests.credential(auth, "+16505550000"))
            try auth.signOut()
            let byPhone = try await Self.resolver { try await auth.signIn(with: try await PhoneAuthTests.credential(auth, "+16505550000")) }
            #expect(byPhone.hints.count == 2 && auth.currentUser == nil)
            let testSignIn = try await provider.verifyPhoneNumber(
                with: try #require(byPhone.hints[0] as? PhoneMultiFactorInfo), multiFactorSession: byPhone.session)
            let byPhoneResult = try await byPhone.resolveSignIn(
                with: PhoneMultiFactorGenerator.assertion(with: provider.credential(withVerificationID: testSignIn, verificationCode: "123456")))
            let claims = try await byPhoneResult.user.getIDTokenResult()
            #expect(claims.signInProvider == "phone" && claims.signInSecondFactor == "phone")
            #expect(try await Self.secondFactorIdentifier(byPhoneResult.user) == hints[0].uid)

            // Unenrolled one by one.
            for factor in byPhoneResult.user.multiFactor.enrolledFactors {
                let removed = await DeprecationsTests.outcome { done in byPhoneResult.user.multiFactor.unenroll(with: factor) { done(true, $0) } }
                #expect(removed.error == nil)
            }
            #expect(byPhoneResult.user.multiFactor.enrolledFactors.isEmpty)
        }
    }

    // MARK: Refusals and recovery codes

    @Test("enrolment needs a verified e-mail and a supported first factor; a recovery code finishes a sign-in once")
    func refusalsAndRecoveryCodes() async throws {
        try await Self.withMFAHearth { live in
            let auth = makeAuth(live)
            let unverified = try await auth.createUser(withEmail: "unverified@example.com", password: Self.password).user
            let error = try #require(
                await nsError { _ = try await TOTPMultiFactorGenerator.generateSecret(with: try await unverified.multiFactor.session()) })
            #expect(
                AuthErrorCode(error) == .unverifiedEmail
                    && error.localizedDescription == "Need to verify email first before enrolling second factors.")

            let anonymous = try await auth.signInAnonymously().user
            #expect(
                await authError { _ = try await TOTPMultiFactorGenerator.generateSecret(with: try await anonymous.multiFactor.session()) }
                    == .unsupportedFirstFactor)
            let byPhone = try await auth.signIn(with: try await PhoneAuthTests.credential(auth, "+16505559999")).user
            let viaCompletion = await DeprecationsTests.outcome { done in
                byPhone.multiFactor.getSessionWithCompletion { session, _ in
                    TOTPMultiFactorGenerator.generateSecret(with: session!, completion: done)
                }
            }
            #expect(viaCompletion.value == nil && viaCompletion.error.flatMap { AuthErrorCode($0) } == .unsupportedFirstFactor)

            // Recovery codes (a Hearth extension), for an account with a TOTP factor.
            let user = try await Self.verifiedUser(auth, live, email: "recovery@example.com")
            let secret = try await TOTPMultiFactorGenerator.generateSecret(with: try await user.multiFactor.session())
            try await user.multiFactor.enroll(
                with: TOTPMultiFactorGenerator.assertionForEnrollment(
                    with: secret, oneTimePassword: try TOTP.code(secret: secret.sharedSecretKey(), at: live.clock.now)), displayName: nil)
            let codes = try await user.multiFactor.generateRecoveryCodes()
            #expect(!codes.isEmpty && Set(codes).count == codes.count)

            try auth.signOut()
            let resolver = try await Self.resolver { try await auth.signIn(withEmail: "recovery@example.com", password: Self.password) }
            let recovered = try await resolver.resolveSignIn(with: RecoveryCodeMultiFactorGenerator.assertion(withRecoveryCode: codes[0]))
            #expect(auth.currentUser === recovered.user && recovered.user.uid == user.uid)
            #expect(try await recovered.user.getIDTokenResult().signInSecondFactor == RecoveryCodeMultiFactorID)
            #expect(
                await authError {
                    try await recovered.user.multiFactor.enroll(
                        with: RecoveryCodeMultiFactorGenerator.assertion(withRecoveryCode: codes[1]), displayName: nil)
                } == .internalError)

            try auth.signOut()
            let again = try await Self.resolver { try await auth.signIn(withEmail: "recovery@example.com", password: Self.password) }
            #expect(
                await authError { try await again.resolveSignIn(with: RecoveryCodeMultiFactorGenerator.assertion(withRecoveryCode: codes[0])) }
                    == .invalidVerificationCode)
            #expect(auth.currentUser == nil)
        }
    }
}

/// TOTP codes of a base32 secret, by the test kit's ``RFC6238`` (a second party, not the server's library).
enum TOTP {
    struct BadSecret: Error {}

    static func code(secret base32: String, at date: Date) throws -> String {
        guard let key = RFC6238.base32Decode(base32) else { throw BadSecret() }
        return RFC6238.code(key: key, at: date)
    }

    /// A six-digit code that is not `code`.
    static func other(than code: String) -> String {
        let value = ((Int(code) ?? 0) + 500_001) % 1_000_000
        let text = String(value)
        return String(repeating: "0", count: 6 - text.count) + text
    }
}
