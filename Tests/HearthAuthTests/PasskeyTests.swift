import Foundation
import HearthPythonScripts
import HearthTesting
import Testing

@testable import HearthAuth

/// FirebaseAuth's passkey calls (their portable forms, with the authenticator's data as plain values) against a live
/// server on loopback, with an independent software authenticator making the real credentials and signatures
/// (scripts/webauthn-authenticator.py: Yubico's fido2 and cryptography): enrolment, username-less sign-in, removal, a
/// tenant, and broken answers mapped to FirebaseAuth's codes.
@Suite("HearthAuth passkeys")
struct PasskeyTests {
    /// A passkey the software authenticator holds.
    struct Passkey: Sendable {
        let credentialID: Data
        let privateKey: String
        let alg: String
        let userID: Data
    }

    /// Runs the authenticator script's `command` with `spec`; its `credential` and the rest of its answer.
    static func authenticator(_ command: String, _ spec: [String: any Sendable]) throws -> (credential: [String: Any], answer: [String: Any]) {
        let output = try PythonScript("webauthn-authenticator.py").run([command], input: JSONSerialization.data(withJSONObject: spec))
        let answer = try #require(JSONSerialization.jsonObject(with: output) as? [String: Any])
        return (try #require(answer["credential"] as? [String: Any]), answer)
    }

    static func encode(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decode(_ value: Any?) throws -> Data {
        let text = try #require(value as? String).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        return try #require(Data(base64Encoded: text + String(repeating: "=", count: (4 - text.count % 4) % 4)))
    }

    /// What the authenticator answers a registration request, as an app hands it to the SDK (with `overrides` breaking
    /// a rule), and the passkey it keeps.
    static func register(
        _ live: LiveHearth, _ request: PasskeyRegistrationRequest, _ overrides: [String: any Sendable] = [:]
    ) throws -> (PasskeyRegistration, Passkey) {
        var spec: [String: any Sendable] = [
            "rpId": request.relyingPartyIdentifier, "origin": "http://localhost:\(live.port)", "challenge": encode(request.challenge),
        ]
        spec.merge(overrides) { $1 }
        let (credential, answer) = try authenticator("register", spec)
        let response = try #require(credential["response"] as? [String: Any])
        let registration = PasskeyRegistration(
            credentialID: try decode(credential["id"]), rawClientDataJSON: try decode(response["clientDataJSON"]),
            rawAttestationObject: try decode(response["attestationObject"]))
        let passkey = Passkey(
            credentialID: registration.credentialID, privateKey: try #require(answer["privateKey"] as? String),
            alg: try #require(answer["alg"] as? String), userID: request.userID)
        return (registration, passkey)
    }

    /// The authenticator's assertion with `passkey` for a sign-in request (with `overrides`).
    static func assertion(
        _ live: LiveHearth, _ request: PasskeyAssertionRequest, _ passkey: Passkey, signCount: Int, _ overrides: [String: any Sendable] = [:]
    ) throws -> PasskeyAssertion {
        var spec: [String: any Sendable] = [
            "rpId": request.relyingPartyIdentifier, "origin": "http://localhost:\(live.port)", "challenge": encode(request.challenge),
            "privateKey": passkey.privateKey, "alg": passkey.alg, "credentialId": encode(passkey.credentialID),
            "userHandle": encode(passkey.userID), "signCount": signCount,
        ]
        spec.merge(overrides) { $1 }
        let response = try #require(try authenticator("assert", spec).credential["response"] as? [String: Any])
        return PasskeyAssertion(
            credentialID: passkey.credentialID, rawClientDataJSON: try decode(response["clientDataJSON"]),
            rawAuthenticatorData: try decode(response["authenticatorData"]), signature: try decode(response["signature"]),
            userID: try decode(response["userHandle"]))
    }

    /// Enrols a passkey named `name` for `user`: start, the authenticator, finalize.
    @discardableResult
    static func enrol(_ live: LiveHearth, _ user: User, name: String?) async throws -> Passkey {
        let request: PasskeyRegistrationRequest = try await user.startPasskeyEnrollment(withName: name)
        let (registration, passkey) = try register(live, request)
        try await user.finalizePasskeyEnrollment(withPlatformCredential: registration)
        return passkey
    }

    /// A username-less sign-in with `passkey`: start, the authenticator, finalize.
    @discardableResult
    static func signIn(
        _ live: LiveHearth, _ auth: Auth, _ passkey: Passkey, signCount: Int, _ overrides: [String: any Sendable] = [:]
    ) async throws -> AuthDataResult {
        let request: PasskeyAssertionRequest = try await auth.startPasskeySignIn()
        return try await auth.finalizePasskeySignIn(withPlatformCredential: try assertion(live, request, passkey, signCount: signCount, overrides))
    }

    static func firebaseClaim(_ user: User, _ key: String) async throws -> String? {
        (try await user.getIDTokenResult(forcingRefresh: false).claims["firebase"] as? [String: Any])?[key] as? String
    }

    @Test("enrol with a name, see it in enrolledPasskeys, sign out, sign in username-less as the same uid, unenroll, refused after")
    func enrolSignInAndRemove() async throws {
        try await withLiveHearth { live in
            let auth = makeAuth(live)
            let user = try await auth.createUser(withEmail: "ada@example.com", password: "correct horse").user
            #expect(user.enrolledPasskeys == nil)

            let request: PasskeyRegistrationRequest = try await user.startPasskeyEnrollment(withName: "Laptop")
            #expect(request.relyingPartyIdentifier == "localhost" && request.name == "Laptop")
            #expect(request.challenge.count == 32 && request.userID == Data(user.uid.utf8))
            let (registration, laptop) = try Self.register(live, request)
            let tokenBefore = user.refreshToken
            let enrolled = try await user.finalizePasskeyEnrollment(withPlatformCredential: registration)
            // The same user object, with the new session and its passkey list from lookup.
            #expect(enrolled.user === user && auth.currentUser === user && user.refreshToken != tokenBefore)
            #expect(user.enrolledPasskeys?.map(\.name) == ["Laptop"])
            #expect(user.enrolledPasskeys?.map(\.credentialID) == [Self.encode(laptop.credentialID)])
            #expect(try await Self.firebaseClaim(user, "sign_in_provider") == "passkey")
            // Without a name: FirebaseAuth's default.
            try await Self.enrol(live, user, name: nil)
            #expect(Set(user.enrolledPasskeys?.map(\.name) ?? []) == ["Laptop", User.defaultPasskeyName])

            try auth.signOut()
            let request2: PasskeyAssertionRequest = try await auth.startPasskeySignIn()
            #expect(request2.relyingPartyIdentifier == "localhost" && request2.challenge.count == 32)
            let signedIn = try await auth.finalizePasskeySignIn(
                withPlatformCredential: try Self.assertion(live, request2, laptop, signCount: 1))
            #expect(signedIn.user.uid == user.uid && auth.currentUser === signedIn.user && !signedIn.user.isAnonymous)
            #expect(signedIn.user.email == "ada@example.com" && signedIn.user.enrolledPasskeys?.count == 2)
            #expect(try await Self.firebaseClaim(signedIn.user, "sign_in_provider") == "passkey")

            // The completion-handler form, then the removal.
            let current = try #require(auth.currentUser)
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                current.unenrollPasskey(withCredentialID: Self.encode(laptop.credentialID)) { error in
                    if let error { continuation.resume(throwing: error) } else { continuation.resume() }
                }
            }
            #expect(current.enrolledPasskeys?.map(\.name) == [User.defaultPasskeyName])
            let again = await nsError { try await current.unenrollPasskey(withCredentialID: Self.encode(laptop.credentialID)) }
            #expect(again.flatMap { AuthErrorCode($0) } == .missingPasskeyEnrollment)

            try auth.signOut()
            let refused = await nsError { try await Self.signIn(live, auth, laptop, signCount: 2) }
            #expect(refused.flatMap { AuthErrorCode($0) } == .missingPasskeyEnrollment)
            #expect(refused?.userInfo[AuthErrorUserInfoNameKey] as? String == "ERROR_MISSING_PASSKEY_ENROLLMENT")
            #expect(refused?.localizedDescription == "Cannot find the passkey linked to the current account.")
            #expect(auth.currentUser == nil)
        }
    }

    @Test("in a tenant: the calls carry auth.tenantID, the session is the tenant's, and the project knows no such passkey")
    func tenant() async throws {
        try await withLiveHearth { live in
            let acme = try await TenantTests.makeTenant(live, name: "Acme")
            let auth = makeAuth(live)
            auth.tenantID = acme
            let user = try await auth.createUser(withEmail: "ada@example.com", password: "correct horse").user
            let passkey = try await Self.enrol(live, user, name: "Phone")
            #expect(user.tenantID == acme && user.enrolledPasskeys?.map(\.name) == ["Phone"])
            #expect(try await Self.firebaseClaim(user, "tenant") == acme)

            try auth.signOut()
            let signedIn = try await Self.signIn(live, auth, passkey, signCount: 1)
            #expect(signedIn.user.uid == user.uid && signedIn.user.tenantID == acme)
            #expect(try await Self.firebaseClaim(signedIn.user, "tenant") == acme)
            #expect(try await Self.firebaseClaim(signedIn.user, "sign_in_provider") == "passkey")

            // The project's users are another pool: its sign-in does not know the tenant's passkey.
            let project = makeAuth(live)
            #expect(await authError { try await Self.signIn(live, project, passkey, signCount: 2) } == .missingPasskeyEnrollment)
            #expect(project.currentUser == nil)
        }
    }

    @Test("broken answers: a foreign origin, a forged signature, a reused credential id, garbage bytes each get their code")
    func brokenAnswers() async throws {
        try await withLiveHearth { live in
            let auth = makeAuth(live)
            let ada = try await auth.createUser(withEmail: "ada@example.com", password: "correct horse").user
            // A registration made for another origin: the broken rule is the description.
            let request: PasskeyRegistrationRequest = try await ada.startPasskeyEnrollment(withName: "Laptop")
            let (foreign, _) = try Self.register(live, request, ["origin": "https://evil.test"])
            let origin = await nsError { try await ada.finalizePasskeyEnrollment(withPlatformCredential: foreign) }
            #expect(origin.flatMap { AuthErrorCode($0) } == .invalidAuthenticatorResponse)
            #expect(origin?.localizedDescription == #"origin "https://evil.test" is not an expected origin."#)
            #expect(origin?.userInfo[AuthErrorUserInfoNameKey] as? String == "ERROR_INVALID_AUTHENTICATOR_RESPONSE")
            #expect(ada.enrolledPasskeys == nil && auth.currentUser === ada)
            // Garbage where the attestation object belongs.
            let fresh: PasskeyRegistrationRequest = try await ada.startPasskeyEnrollment(withName: "Laptop")
            var (garbage, _) = try Self.register(live, fresh)
            garbage.rawAttestationObject = Data([0xA1, 0x63, 0x66, 0x6D, 0x74])
            let malformed = await nsError { try await ada.finalizePasskeyEnrollment(withPlatformCredential: garbage) }
            #expect(malformed.flatMap { AuthErrorCode($0) } == .invalidAuthenticatorResponse)
            #expect(malformed?.localizedDescription.hasPrefix("attestationObject is malformed: ") == true)
            let passkey = try await Self.enrol(live, ada, name: "Laptop")

            // Another account's authenticator answering with Ada's credential id.
            let eve = try await makeAuth(live).createUser(withEmail: "eve@example.com", password: "correct horse").user
            let eves: PasskeyRegistrationRequest = try await eve.startPasskeyEnrollment(withName: "Mine")
            let (reused, _) = try Self.register(live, eves, ["credentialId": Self.encode(passkey.credentialID)])
            #expect(await authError { try await eve.finalizePasskeyEnrollment(withPlatformCredential: reused) } == .credentialAlreadyInUse)
            #expect(eve.enrolledPasskeys == nil)

            // A signature by another key for Ada's credential id.
            let other = try await Self.enrol(live, ada, name: "Other")
            let forged = Passkey(credentialID: passkey.credentialID, privateKey: other.privateKey, alg: other.alg, userID: passkey.userID)
            try auth.signOut()
            let signature = await nsError { try await Self.signIn(live, auth, forged, signCount: 1) }
            #expect(signature.flatMap { AuthErrorCode($0) } == .invalidAuthenticatorResponse)
            #expect(signature?.localizedDescription == "signature does not verify.")
            // An empty credential id.
            let request2: PasskeyAssertionRequest = try await auth.startPasskeySignIn()
            var empty = try Self.assertion(live, request2, passkey, signCount: 1)
            empty.credentialID = Data()
            #expect(await authError { try await auth.finalizePasskeySignIn(withPlatformCredential: empty) } == .invalidAuthenticatorResponse)
            #expect(auth.currentUser == nil)
            // The real passkey still signs in.
            #expect(try await Self.signIn(live, auth, passkey, signCount: 2).user.uid == ada.uid)
        }
    }

    @Test("second factors: a passkey that verified the user signs in alone; one that saw only presence asks for the TOTP code")
    func secondFactor() async throws {
        try await MultiFactorTests.withMFAHearth { live in
            let auth = makeAuth(live)
            let user = try await MultiFactorTests.verifiedUser(auth, live, email: "ada@example.com")
            let passkey = try await Self.enrol(live, user, name: "Laptop")
            let secret = try await TOTPMultiFactorGenerator.generateSecret(with: try await user.multiFactor.session())
            let code = try TOTP.code(secret: secret.sharedSecretKey(), at: live.clock.now)
            try await user.multiFactor.enroll(
                with: TOTPMultiFactorGenerator.assertionForEnrollment(with: secret, oneTimePassword: code), displayName: "Authenticator")
            #expect(user.enrolledPasskeys?.count == 1 && user.multiFactor.enrolledFactors.count == 1)

            try auth.signOut()
            #expect(try await Self.signIn(live, auth, passkey, signCount: 1).user.uid == user.uid)
            try auth.signOut()
            // UP, BE and BS: no UV flag.
            let resolver = try await MultiFactorTests.resolver { try await Self.signIn(live, auth, passkey, signCount: 2, ["flags": 0x19]) }
            #expect(auth.currentUser == nil)
            let hint = try #require(resolver.hints.first)
            live.clock.advance(by: 30)
            let next = try TOTP.code(secret: secret.sharedSecretKey(), at: live.clock.now)
            let result = try await resolver.resolveSignIn(
                with: TOTPMultiFactorGenerator.assertionForSignIn(withEnrollmentID: hint.uid, oneTimePassword: next))
            #expect(result.user.uid == user.uid && auth.currentUser === result.user)
            #expect(try await Self.firebaseClaim(result.user, "sign_in_provider") == "passkey")
            #expect(try await Self.firebaseClaim(result.user, "sign_in_second_factor") == "totp")
        }
    }
}
