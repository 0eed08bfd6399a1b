import Foundation
import HearthCore
import HearthSMS
import HearthSandbox
import HearthTesting
import Testing

@testable import HearthAuth

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Phone sign-in through the SDK against a live server: codes read from development mode's SMS outbox (the
/// emulator's `verificationCodes` listing) or a test phone number's fixed code.
@Suite struct PhoneAuthTests {
    /// Numbers with fixed codes (no SMS) in the servers of these tests.
    static let testNumbers = ["+16505551234": "123456", "+16505550000": "000000", "+16505559999": "999999"]

    /// A server with phone sign-in on (development mode's default) and ``testNumbers``.
    static func withPhoneHearth(_ body: (LiveHearth) async throws -> Void) async throws {
        try await withLiveHearth({ $0.signIn.testPhoneNumbers = testNumbers }, body)
    }

    /// The code the server sent for `verificationID`, from the emulator's listing.
    static func smsCode(_ live: LiveHearth, for verificationID: String) async throws -> String {
        try #require(try await listedCodes(live)[verificationID])
    }

    /// The emulator's `verificationCodes` listing: each code by its `sessionInfo`.
    static func listedCodes(_ live: LiveHearth) async throws -> [String: String] {
        struct Listing: Decodable {
            struct Entry: Decodable {
                var phoneNumber: String
                var code: String
                var sessionInfo: String
            }
            var verificationCodes: [Entry]
        }
        let url = try #require(URL(string: "\(live.baseURL)/emulator/v1/projects/\(live.projectID)/verificationCodes"))
        let (data, response) = try await URLSessionTransport().send(URLRequest(url: url))
        try #require(response.statusCode == 200)
        let listing = try JSONDecoder().decode(Listing.self, from: data)
        return Dictionary(listing.verificationCodes.map { ($0.sessionInfo, $0.code) }, uniquingKeysWith: { $1 })
    }

    /// A credential of a test number: a code sent and its fixed code.
    static func credential(_ auth: Auth, _ number: String) async throws -> PhoneAuthCredential {
        let provider = PhoneAuthProvider.provider(auth: auth)
        let verificationID = try await provider.verifyPhoneNumber(number, uiDelegate: nil)
        return provider.credential(withVerificationID: verificationID, verificationCode: try #require(testNumbers[number]))
    }

    static func hasPhone(_ user: User, _ number: String) -> Bool {
        user.providerData.contains { $0.providerID == "phone" && $0.uid == number && $0.phoneNumber == number }
    }

    @Test("a code from the SMS outbox signs up, then in; completion and async forms")
    func signUpAndIn() async throws {
        try await Self.withPhoneHearth { live in
            #expect(PhoneAuthProvider.id == "phone" && PhoneAuthProviderID == "phone" && AuthProviderID.phone.rawValue == "phone")
            let auth = makeAuth(live)
            let provider = PhoneAuthProvider.provider(auth: auth)
            let number = "+919876543210"

            let sent = await DeprecationsTests.outcome { provider.verifyPhoneNumber(number, uiDelegate: nil, completion: $0) }
            let verificationID = try #require(sent.value, "\(String(describing: sent.error))")
            let code = try await Self.smsCode(live, for: verificationID)
            let created = try await auth.signIn(with: provider.credential(withVerificationID: verificationID, verificationCode: code))
            #expect(created.additionalUserInfo?.providerID == "phone" && created.additionalUserInfo?.isNewUser == true)
            #expect(created.credential == nil)
            let user = created.user
            #expect(auth.currentUser === user && !user.isAnonymous && user.phoneNumber == number && user.email == nil)
            #expect(Self.hasPhone(user, number))
            #expect(try await user.getIDTokenResult().signInProvider == "phone")

            try auth.signOut()
            let again = try await provider.verifyPhoneNumber(number, uiDelegate: nil, multiFactorSession: nil)
            let credential = provider.credential(withVerificationID: again, verificationCode: try await Self.smsCode(live, for: again))
            let signedIn = await DeprecationsTests.outcome { auth.signIn(with: credential, completion: $0) }
            let result = try #require(signedIn.value, "\(String(describing: signedIn.error))")
            #expect(result.additionalUserInfo?.isNewUser == false && result.user.uid == user.uid && result.user.phoneNumber == number)
        }
    }

    @Test("a test phone number signs in with its fixed code and no SMS")
    func testPhoneNumber() async throws {
        try await Self.withPhoneHearth { live in
            let auth = makeAuth(live)
            let provider = PhoneAuthProvider.provider(auth: auth)
            let verificationID = try await provider.verifyPhoneNumber("+16505551234")
            #expect(try await Self.listedCodes(live)[verificationID] == nil)
            let result = try await auth.signIn(with: provider.credential(withVerificationID: verificationID, verificationCode: "123456"))
            #expect(result.user.phoneNumber == "+16505551234" && result.additionalUserInfo?.isNewUser == true)
        }
    }

    @Test("linking a number to an anonymous user and to an e-mail user keeps their uid")
    func linking() async throws {
        try await Self.withPhoneHearth { live in
            let auth = makeAuth(live)
            let anonymous = try await auth.signInAnonymously().user
            let linked = try await anonymous.link(with: try await Self.credential(auth, "+16505551234"))
            #expect(linked.user === anonymous && linked.additionalUserInfo == nil && linked.credential == nil)
            #expect(!anonymous.isAnonymous && anonymous.phoneNumber == "+16505551234" && Self.hasPhone(anonymous, "+16505551234"))
            #expect(auth.currentUser === anonymous)
            #expect(try await anonymous.getIDTokenResult().claims["phone_number"] as? String == "+16505551234")
            // Already linked: refused before any call, as FirebaseAuth does.
            let twice = PhoneAuthProvider.provider(auth: auth).credential(withVerificationID: "unused", verificationCode: "000000")
            #expect(await authError { _ = try await anonymous.link(with: twice) } == .providerAlreadyLinked)

            try auth.signOut()
            let emailUser = try await auth.createUser(withEmail: "phone-link@example.com", password: "phone-link-1").user
            let second = try await Self.credential(auth, "+16505550000")
            let linkedAgain = await DeprecationsTests.outcome { emailUser.link(with: second, completion: $0) }
            #expect(linkedAgain.error == nil && linkedAgain.value?.user.uid == emailUser.uid)
            #expect(emailUser.phoneNumber == "+16505550000" && emailUser.email == "phone-link@example.com")
            #expect(Set(emailUser.providerData.map(\.providerID)) == ["password", "phone"])
        }
    }

    @Test("a number of another account: credentialAlreadyInUse with a PhoneAuthCredential that signs in to that account")
    func numberInUse() async throws {
        try await Self.withPhoneHearth { live in
            let auth = makeAuth(live)
            let owner = try await auth.signIn(with: try await Self.credential(auth, "+16505551234")).user
            try auth.signOut()

            let anonymous = try await auth.signInAnonymously().user
            let taken = try #require(await nsError { _ = try await anonymous.link(with: try await Self.credential(auth, "+16505551234")) })
            #expect(AuthErrorCode(taken) == .credentialAlreadyInUse)
            #expect(taken.userInfo[AuthErrorUserInfoEmailKey] == nil)
            let updated = try #require(taken.userInfo[AuthErrorUserInfoUpdatedCredentialKey] as? PhoneAuthCredential)
            #expect(updated.provider == "phone")
            #expect(anonymous.isAnonymous && anonymous.phoneNumber == nil && auth.currentUser === anonymous)

            // The proof cannot be linked either: the number stays the other account's, and the proof stays usable.
            let proofLink = try #require(await nsError { _ = try await anonymous.link(with: updated) })
            #expect(AuthErrorCode(proofLink) == .credentialAlreadyInUse)
            #expect(proofLink.userInfo[AuthErrorUserInfoUpdatedCredentialKey] as? PhoneAuthCredential === updated)
            // updatePhoneNumber is refused the same way.
            #expect(
                await authError { try await anonymous.updatePhoneNumber(try await Self.credential(auth, "+16505551234")) } == .credentialAlreadyInUse)

            let signedIn = try await auth.signIn(with: updated)
            #expect(signedIn.user.uid == owner.uid && signedIn.user.phoneNumber == "+16505551234" && auth.currentUser === signedIn.user)
            #expect(signedIn.additionalUserInfo?.isNewUser == false)
            // A proof signs in once (INVALID_TEMPORARY_PROOF).
            #expect(await authError { _ = try await auth.signIn(with: updated) } == .invalidCredential)
        }
    }

    @Test("reauthentication with the user's number; another account's number and an unknown one are userMismatch")
    func reauthentication() async throws {
        try await Self.withPhoneHearth { live in
            let auth = makeAuth(live)
            let other = try await auth.signIn(with: try await Self.credential(auth, "+16505550000")).user
            try auth.signOut()
            let user = try await auth.signIn(with: try await Self.credential(auth, "+16505551234")).user
            #expect(other.uid != user.uid)
            let before = try await user.getIDToken()
            live.clock.advance(by: 60)

            let reauthenticated = try await user.reauthenticate(with: try await Self.credential(auth, "+16505551234"))
            #expect(reauthenticated.user.uid == user.uid && reauthenticated.user !== user && auth.currentUser === user)
            #expect(try await user.getIDToken() != before)

            let credential = try await Self.credential(auth, "+16505551234")
            let viaCompletion = await DeprecationsTests.outcome { user.reauthenticate(with: credential, completion: $0) }
            #expect(viaCompletion.error == nil && viaCompletion.value?.user.uid == user.uid)

            #expect(await authError { _ = try await user.reauthenticate(with: try await Self.credential(auth, "+16505550000")) } == .userMismatch)
            // No account has the number: REAUTH does not make one (USER_NOT_FOUND, reported as userMismatch).
            #expect(await authError { _ = try await user.reauthenticate(with: try await Self.credential(auth, "+16505559999")) } == .userMismatch)
            let made = try await auth.signIn(with: try await Self.credential(auth, "+16505559999"))
            #expect(made.additionalUserInfo?.isNewUser == true)
        }
    }

    @Test("updatePhoneNumber sets and replaces the number; unlinking phone removes it")
    func updateAndUnlink() async throws {
        try await Self.withPhoneHearth { live in
            let auth = makeAuth(live)
            let user = try await auth.createUser(withEmail: "phone-update@example.com", password: "phone-update-1").user
            try await user.updatePhoneNumber(try await Self.credential(auth, "+16505551234"))
            #expect(user.phoneNumber == "+16505551234" && Self.hasPhone(user, "+16505551234"))

            let credential = try await Self.credential(auth, "+16505550000")
            let replaced: NSError? = await withCheckedContinuation { continuation in
                user.updatePhoneNumber(credential) { error in continuation.resume(returning: error as NSError?) }
            }
            #expect(replaced == nil)
            #expect(user.phoneNumber == "+16505550000" && Self.hasPhone(user, "+16505550000") && !Self.hasPhone(user, "+16505551234"))
            try await user.reload()
            #expect(user.phoneNumber == "+16505550000")
            // The old number is free again.
            try auth.signOut()
            #expect(try await auth.signIn(with: try await Self.credential(auth, "+16505551234")).additionalUserInfo?.isNewUser == true)
            try await auth.updateCurrentUser(user)

            let unlinked = try await user.unlink(fromProvider: PhoneAuthProviderID)
            #expect(unlinked === user && user.phoneNumber == nil && user.providerData.map(\.providerID) == ["password"])
            try await user.reload()
            #expect(user.phoneNumber == nil)
            #expect(await authError { _ = try await user.unlink(fromProvider: "phone") } == .noSuchProvider)
            // The number signs up anew.
            try auth.signOut()
            let fresh = try await auth.signIn(with: try await Self.credential(auth, "+16505550000"))
            #expect(fresh.additionalUserInfo?.isNewUser == true && fresh.user.uid != user.uid)
        }
    }

    @Test("each phone error becomes FirebaseAuth's code")
    func errors() async throws {
        try await Self.withPhoneHearth { live in
            let auth = makeAuth(live)
            let provider = PhoneAuthProvider.provider(auth: auth)

            #expect(await authError { _ = try await provider.verifyPhoneNumber("") } == .missingPhoneNumber)
            let invalid = try #require(await nsError { _ = try await provider.verifyPhoneNumber("6505551234") })
            #expect(AuthErrorCode(invalid) == .invalidPhoneNumber && invalid.localizedDescription == "Invalid format.")
            let viaCompletion = await DeprecationsTests.outcome { provider.verifyPhoneNumber("+1 650 555 1234", uiDelegate: nil, completion: $0) }
            #expect(viaCompletion.value == nil && viaCompletion.error.flatMap { AuthErrorCode($0) } == .invalidPhoneNumber)

            let verificationID = try await provider.verifyPhoneNumber("+16505551234")
            let wrong = try #require(
                await nsError { _ = try await auth.signIn(with: provider.credential(withVerificationID: verificationID, verificationCode: "654321")) }
            )
            #expect(AuthErrorCode(wrong) == .invalidVerificationCode)
            #expect(wrong.userInfo[AuthErrorUserInfoNameKey] as? String == "ERROR_INVALID_VERIFICATION_CODE")
            #expect(
                await authError { _ = try await auth.signIn(with: provider.credential(withVerificationID: "forged", verificationCode: "123456")) }
                    == .invalidVerificationID)
            #expect(
                await authError { _ = try await auth.signIn(with: provider.credential(withVerificationID: "", verificationCode: "123456")) }
                    == .missingVerificationID)
            #expect(
                await authError { _ = try await auth.signIn(with: provider.credential(withVerificationID: verificationID, verificationCode: "")) }
                    == .missingVerificationCode)

            // A used session, and an expired one.
            let credential = provider.credential(withVerificationID: verificationID, verificationCode: "123456")
            _ = try await auth.signIn(with: credential)
            #expect(await authError { _ = try await auth.signIn(with: credential) } == .sessionExpired)
            let expiring = try await provider.verifyPhoneNumber("+16505551234")
            live.clock.advance(by: 301)
            let expired = try #require(
                await nsError { _ = try await auth.signIn(with: provider.credential(withVerificationID: expiring, verificationCode: "123456")) })
            #expect(AuthErrorCode(expired) == .sessionExpired && expired.userInfo[AuthErrorUserInfoNameKey] as? String == "ERROR_SESSION_EXPIRED")
            #expect(auth.currentUser?.phoneNumber == "+16505551234")
        }
    }
}

/// HearthAuth against a server that asks for Hearth's proof of work before an SMS.
@Suite struct PhoneProofOfWorkTests {
    @Test("a server asking for a proof of work: verifyPhoneNumber finds one, the code arrives and signs in; the REST call without one is refused")
    func proofOfWork() async throws {
        // The proof carries the client's time (its clock, the server's here).
        try await withLiveHearth({ $0.sms.appVerification = .proofOfWork(difficulty: 12) }) { live in
            let auth = makeAuth(live)
            let provider = PhoneAuthProvider.provider(auth: auth)
            let verificationID = try await provider.verifyPhoneNumber("+919876543210")
            let code = try await PhoneAuthTests.smsCode(live, for: verificationID)
            let result = try await auth.signIn(with: provider.credential(withVerificationID: verificationID, verificationCode: code))
            #expect(result.user.phoneNumber == "+919876543210")
            // The same request without the proof.
            var request = URLRequest(url: try #require(URL(string: "\(live.baseURL)/v1/accounts:sendVerificationCode?key=any")))
            request.httpMethod = "POST"
            request.httpBody = Data(#"{"phoneNumber":"+919876543211"}"#.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            let (data, response) = try await URLSessionTransport().send(request)
            #expect(response.statusCode == 400 && String(decoding: data, as: UTF8.self).contains("MISSING_CLIENT_IDENTIFIER"))
        }
    }
}

/// HearthAuth's phone sign-in with a real gateway's stand-in between server and phone (Vonage's SMS API here):
/// sign up, link, reauthenticate, unlink.
@Suite struct PhoneThroughGatewayTests {
    @Test("through Vonage's stand-in: sign up, reauthenticate, link to an e-mail user, unlink")
    func throughGateway() async throws {
        let clock = ManualClock()
        let gateway = SMSGatewaySandbox(clock: { clock.now })
        try await withLoopbackRouter({ gateway.addRoutes(to: $0.group("/gateways")) }) { base in
            let settings = SMSGatewaySettings.Vonage(
                apiKey: gateway.vonage.apiKey, apiSecret: gateway.vonage.apiSecret, from: gateway.vonage.from,
                baseURL: base.appendingPathComponent("gateways/vonage"))
            try await withLiveHearth(clock: clock, { $0.sms.gateway = .vonage(settings) }) { live in
                let auth = makeAuth(live)
                let provider = PhoneAuthProvider.provider(auth: auth)
                func credential(_ number: String, count: Int) async throws -> PhoneAuthCredential {
                    let verificationID = try await provider.verifyPhoneNumber(number)
                    let deadline = ContinuousClock.now + .seconds(60)
                    while gateway.messages.filter({ $0.to == number }).count < count, ContinuousClock.now < deadline {
                        try await Task.sleep(for: .milliseconds(50))
                    }
                    return provider.credential(withVerificationID: verificationID, verificationCode: try #require(gateway.lastCode(to: number)))
                }
                let number = "+919876543210"
                let created = try await auth.signIn(with: try await credential(number, count: 1))
                #expect(created.additionalUserInfo?.isNewUser == true && created.user.phoneNumber == number)
                try await created.user.reauthenticate(with: try await credential(number, count: 2))
                try auth.signOut()
                let person = try await auth.createUser(withEmail: "ada@example.com", password: "correct horse").user
                let other = "+919876543211"
                let linked = try await person.link(with: try await credential(other, count: 1))
                #expect(linked.user.uid == person.uid && linked.user.phoneNumber == other)
                let unlinked = try await linked.user.unlink(fromProvider: "phone")
                #expect(unlinked.phoneNumber == nil)
                #expect(gateway.messages.allSatisfy { $0.gateway == .vonage })
            }
        }
    }
}
