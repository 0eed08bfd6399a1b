import Configuration
import Foundation
import HTTPTypes
import HearthBase64URL
import HearthConfiguration
import HearthCore
import HearthPythonScripts
import HearthTesting
import HearthWire
import Testing

/// Identity Platform's passkey API over HTTP on loopback, against an independent software authenticator
/// (scripts/webauthn-authenticator.py: Yubico's fido2 and cryptography), so that every credential, signature and
/// `clientDataJSON` the server verifies was made by someone else: enrolment and username-less sign-in, in the project
/// and in a tenant; each ceremony rule broken once with its exact error string; removal by the user and by an
/// administrator; hostile bodies answered with the JSON error envelope.
@Suite("Passkeys")
struct PasskeyTests {
    static let admin: HTTPFields = [.authorization: "Bearer owner", .contentType: "application/json"]
    static let challengeRefused =
        "INVALID_AUTHENTICATOR_RESPONSE : The challenge was not issued for this ceremony or was used already."

    /// A live server in development mode (passkeys for `localhost`, any port), a client over loopback, and the origin of
    /// a page the server itself serves.
    struct Site: Sendable {
        let live: LiveHearth
        let client: FirebaseTestClient
        var origin: String { "http://localhost:\(live.port)" }
    }

    static func withSite(_ configure: (inout ServerConfiguration) -> Void = { _ in }, _ body: (Site) async throws -> Void) async throws {
        try await withLiveHearth(configure) { live in try await body(Site(live: live, client: FirebaseTestClient(baseURL: live.baseURL))) }
    }

    /// A passkey the software authenticator holds.
    struct Passkey: Sendable {
        let id: String
        let privateKey: String
        let alg: String
        /// The user handle it was registered with (the creation options' `user.id`).
        let userHandle: String
    }

    /// Runs the authenticator script's `command` with `spec`; its JSON answer.
    static func authenticator(_ command: String, _ spec: [String: any Sendable]) throws -> [String: Any] {
        let output = try PythonScript("webauthn-authenticator.py").run([command], input: JSONSerialization.data(withJSONObject: spec))
        return try #require(JSONSerialization.jsonObject(with: output) as? [String: Any])
    }

    static func json(_ object: Any) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: JSONSerialization.data(withJSONObject: object))
    }

    static func string(_ value: JSONValue?) -> String? {
        if case .string(let text)? = value { return text }
        return nil
    }

    /// `passkeyEnrollment:start` for `idToken` (in `tenant`): the creation options.
    static func startEnrollment(_ site: Site, idToken: String, tenant: String? = nil) async throws -> PublicKeyCredentialCreationOptionsJSON {
        var body: [String: JSONValue] = ["idToken": .string(idToken)]
        if let tenant { body["tenantId"] = .string(tenant) }
        let started = try await site.client.post("/v2/accounts/passkeyEnrollment:start", body)
        try #require(started.status == .ok, "\(started.errorMessage ?? "")")
        return try started.decode(StartPasskeyEnrollmentResponse.self).credentialCreationOptions
    }

    /// The authenticator's registration for `options` (with `overrides` breaking a rule) and what finalize answered.
    static func register(
        _ site: Site, idToken: String, options: PublicKeyCredentialCreationOptionsJSON, name: String = "Laptop", tenant: String? = nil,
        _ overrides: [String: any Sendable] = [:]
    ) async throws -> (Passkey, WireResult) {
        var spec: [String: any Sendable] = ["rpId": options.rp.id, "origin": site.origin, "challenge": options.challenge]
        spec.merge(overrides) { $1 }
        let made = try authenticator("register", spec)
        let credential = try #require(made["credential"] as? [String: Any])
        var body: [String: JSONValue] = [
            "idToken": .string(idToken), "authenticatorRegistrationResponse": try json(credential), "name": .string(name),
        ]
        if let tenant { body["tenantId"] = .string(tenant) }
        let finalized = try await site.client.post("/v2/accounts/passkeyEnrollment:finalize", body)
        let passkey = Passkey(
            id: try #require(credential["id"] as? String), privateKey: try #require(made["privateKey"] as? String),
            alg: try #require(made["alg"] as? String), userHandle: options.user.id)
        return (passkey, finalized)
    }

    /// Signs `email` up (in `tenant`) and enrols a passkey: the account's uid, ID token and passkey.
    static func enrolled(_ site: Site, email: String = "ada@example.com", tenant: String? = nil) async throws -> (
        uid: String, idToken: String, passkey: Passkey
    ) {
        let signedUp = try await TenantTests.signUp(site.client, email: email, tenant: tenant)
        try #require(signedUp.status == .ok, "\(signedUp.errorMessage ?? "")")
        let idToken = try #require(signedUp.string("idToken"))
        let options = try await startEnrollment(site, idToken: idToken, tenant: tenant)
        let (passkey, finalized) = try await register(site, idToken: idToken, options: options, tenant: tenant)
        try #require(finalized.status == .ok, "\(finalized.errorMessage ?? "")")
        return (try #require(signedUp.string("localId")), try #require(finalized.string("idToken")), passkey)
    }

    /// `passkeySignIn:start` (in `tenant`): the request options.
    static func startSignIn(_ site: Site, tenant: String? = nil) async throws -> PublicKeyCredentialRequestOptionsJSON {
        let started = try await site.client.post("/v2/accounts/passkeySignIn:start", tenant.map { ["tenantId": .string($0)] } ?? [:])
        try #require(started.status == .ok, "\(started.errorMessage ?? "")")
        return try started.decode(StartPasskeySignInResponse.self).credentialRequestOptions
    }

    /// The authenticator's assertion by `passkey` for `challenge` (with `overrides`), as `toJSON()` has it.
    static func assertion(
        _ site: Site, _ passkey: Passkey, challenge: String, signCount: Int = 1, _ overrides: [String: any Sendable] = [:]
    ) throws -> JSONValue {
        var spec: [String: any Sendable] = [
            "rpId": "localhost", "origin": site.origin, "challenge": challenge, "privateKey": passkey.privateKey, "alg": passkey.alg,
            "credentialId": passkey.id, "userHandle": passkey.userHandle, "signCount": signCount,
        ]
        spec.merge(overrides) { $1 }
        return try json(try #require(try authenticator("assert", spec)["credential"]))
    }

    /// A username-less sign-in with `passkey` (in `tenant`): a fresh challenge, the assertion, `passkeySignIn:finalize`.
    static func signIn(
        _ site: Site, _ passkey: Passkey, tenant: String? = nil, signCount: Int = 1, _ overrides: [String: any Sendable] = [:]
    ) async throws -> WireResult {
        let options = try await startSignIn(site, tenant: tenant)
        return try await finalizeSignIn(
            site, try assertion(site, passkey, challenge: options.challenge, signCount: signCount, overrides), tenant: tenant)
    }

    static func finalizeSignIn(_ site: Site, _ assertion: JSONValue, tenant: String? = nil) async throws -> WireResult {
        var body: [String: JSONValue] = ["authenticatorAuthenticationResponse": assertion]
        if let tenant { body["tenantId"] = .string(tenant) }
        return try await site.client.post("/v2/accounts/passkeySignIn:finalize", body)
    }

    /// The `firebase` claim of an ID token.
    static func firebaseClaim(_ idToken: String?) -> [String: JSONValue] {
        guard let idToken, case .object(let firebase)? = jwtClaims(idToken)["firebase"] else { return [:] }
        return firebase
    }

    @Test("enrol, then sign in username-less: WebAuthn's options, sign_in_provider passkey, passkeyInfo in lookups")
    func enrolAndSignIn() async throws {
        try await Self.withSite { site in
            let signedUp = try await site.client.signUp(email: "ada@example.com")
            let options = try await Self.startEnrollment(site, idToken: signedUp.idToken ?? "")
            #expect(options.rp.id == "localhost")
            #expect(options.user.id == Base64URL.encode(Array(signedUp.localId.utf8)) && options.user.name == "ada@example.com")
            #expect(Base64URL.decode(options.challenge)?.count == 32)
            #expect(Set(options.pubKeyCredParams.map(\.alg)) == [-7, -8, -257])
            #expect(options.authenticatorSelection?.residentKey == "preferred" && options.excludeCredentials == [])
            let (passkey, finalized) = try await Self.register(site, idToken: signedUp.idToken ?? "", options: options)
            #expect(finalized.status == .ok, "\(finalized.errorMessage ?? "")")
            let tokens = try finalized.decode(PasskeyTokensResponse.self)
            #expect(tokens.localId == signedUp.localId && Self.firebaseClaim(tokens.idToken)["sign_in_provider"] == .string("passkey"))

            let lookedUp = try await site.client.lookup(tokens.idToken).decode(LookupResponse.self)
            #expect(lookedUp.users?.first?.passkeyInfo == [PasskeyInfo(credentialId: passkey.id, name: "Laptop")])
            let adminLookup = try await site.client.raw(
                "/v1/accounts:lookup", method: .post, body: Data(#"{"localId":["\#(signedUp.localId)"]}"#.utf8), headers: Self.admin)
            #expect(try adminLookup.decode(LookupResponse.self).users?.first?.passkeyInfo?.map(\.credentialId) == [passkey.id])
            // The next enrolment excludes it.
            let again = try await Self.startEnrollment(site, idToken: tokens.idToken)
            #expect(again.excludeCredentials?.map(\.id) == [passkey.id])

            let request = try await Self.startSignIn(site)
            #expect(request.rpId == "localhost" && request.allowCredentials == [] && request.userVerification == "preferred")
            let signedIn = try await Self.finalizeSignIn(site, try Self.assertion(site, passkey, challenge: request.challenge))
            #expect(signedIn.status == .ok, "\(signedIn.errorMessage ?? "")")
            let session = try signedIn.decode(PasskeyTokensResponse.self)
            #expect(session.localId == signedUp.localId && session.expiresIn == "3600")
            #expect(jwtClaims(session.idToken)["user_id"] == .string(signedUp.localId))
            #expect(Self.firebaseClaim(session.idToken)["sign_in_provider"] == .string("passkey"))
            // The refresh token works, and the sign-in was recorded.
            #expect(try await site.client.refresh(session.refreshToken).status == .ok)
            let events = try await site.live.services.store.auditEvents(uid: signedUp.localId, kind: nil, after: nil, limit: 50)
            #expect(events.contains { $0.kind == .passkeyEnrolled })
            #expect(events.contains { $0.kind == .signedIn && $0.method == "passkey" })
        }
    }

    @Test("Google's REST form of the answers (credentialId, authenticatorAssertionResponse, clientDataJson, base64) is taken too")
    func googleRESTForm() async throws {
        try await Self.withSite { site in
            let (uid, _, passkey) = try await Self.enrolled(site)
            let options = try await Self.startSignIn(site)
            guard case .object(let credential) = try Self.assertion(site, passkey, challenge: options.challenge),
                case .object(let response)? = credential["response"]
            else { throw CancellationError() }
            func base64(_ value: JSONValue?) -> JSONValue {
                .string(Data(Base64URL.decode(Self.string(value) ?? "") ?? []).base64EncodedString())
            }
            let google: JSONValue = .object([
                "credentialId": base64(credential["id"]), "credentialType": .string("public-key"),
                "authenticatorAssertionResponse": .object([
                    "clientDataJson": base64(response["clientDataJSON"]), "authenticatorData": base64(response["authenticatorData"]),
                    "signature": base64(response["signature"]), "userHandle": base64(response["userHandle"]),
                ]),
            ])
            let signedIn = try await Self.finalizeSignIn(site, google)
            #expect(signedIn.status == .ok, "\(signedIn.errorMessage ?? "")")
            #expect(signedIn.string("localId") == uid)
        }
    }

    @Test("a challenge is used once: the same assertion again, the right answer after a wrong one, an enrolment's challenge at sign-in")
    func replayedChallenge() async throws {
        try await Self.withSite { site in
            let (_, idToken, passkey) = try await Self.enrolled(site)
            let options = try await Self.startSignIn(site)
            let assertion = try Self.assertion(site, passkey, challenge: options.challenge)
            #expect(try await Self.finalizeSignIn(site, assertion).status == .ok)
            let replayed = try await Self.finalizeSignIn(site, assertion)
            #expect(replayed.status == .badRequest)
            #expect(replayed.errorMessage == Self.challengeRefused)
            // A refused ceremony spends its challenge too: the right answer after a wrong one is refused.
            let second = try await Self.startSignIn(site)
            let wrong = try await Self.finalizeSignIn(
                site, try Self.assertion(site, passkey, challenge: second.challenge, signCount: 2, ["origin": "https://evil.test"]))
            #expect(wrong.status == .badRequest)
            let right = try await Self.finalizeSignIn(site, try Self.assertion(site, passkey, challenge: second.challenge, signCount: 2))
            #expect(right.errorMessage == Self.challengeRefused)
            // An enrolment's challenge is not a sign-in's.
            let enrolment = try await Self.startEnrollment(site, idToken: idToken)
            let crossed = try await Self.finalizeSignIn(site, try Self.assertion(site, passkey, challenge: enrolment.challenge, signCount: 3))
            #expect(crossed.errorMessage == Self.challengeRefused)
        }
    }

    @Test("an enrolment's challenge is its account's alone; a registration replayed, or two sign-ins raced, pass once")
    func boundAndRaced() async throws {
        try await Self.withSite { site in
            let (_, idToken, passkey) = try await Self.enrolled(site)
            let eve = try await site.client.signUp(email: "eve@example.com")
            // Ada's challenge, answered in Eve's session.
            let adas = try await Self.startEnrollment(site, idToken: idToken)
            let (_, stolen) = try await Self.register(site, idToken: eve.idToken ?? "", options: adas)
            #expect(stolen.errorMessage == Self.challengeRefused)
            // One registration sent twice.
            let options = try await Self.startEnrollment(site, idToken: idToken)
            let made = try Self.authenticator("register", ["rpId": "localhost", "origin": site.origin, "challenge": options.challenge])
            let body: [String: JSONValue] = [
                "idToken": .string(idToken), "authenticatorRegistrationResponse": try Self.json(try #require(made["credential"])),
            ]
            #expect(try await site.client.post("/v2/accounts/passkeyEnrollment:finalize", body).status == .ok)
            #expect(try await site.client.post("/v2/accounts/passkeyEnrollment:finalize", body).errorMessage == Self.challengeRefused)
            // A garbage attestation object spends its challenge and says why.
            let third = try await Self.startEnrollment(site, idToken: idToken)
            guard
                case .object(var credential) = try Self.json(
                    try #require(
                        try Self.authenticator("register", ["rpId": "localhost", "origin": site.origin, "challenge": third.challenge])["credential"])),
                case .object(var response)? = credential["response"]
            else { throw CancellationError() }
            response["attestationObject"] = .string(Base64URL.encode([0xA1, 0x63, 0x66, 0x6D, 0x74]))
            credential["response"] = .object(response)
            let garbage = try await site.client.post(
                "/v2/accounts/passkeyEnrollment:finalize", ["idToken": .string(idToken), "authenticatorRegistrationResponse": .object(credential)])
            #expect(garbage.status == .badRequest)
            #expect(
                garbage.errorMessage?.hasPrefix("INVALID_AUTHENTICATOR_RESPONSE : attestationObject is malformed: ") == true,
                "\(garbage.errorMessage ?? "")")
            // The same assertion twice at once: one session.
            let request = try await Self.startSignIn(site)
            let assertion = try Self.assertion(site, passkey, challenge: request.challenge)
            async let first = Self.finalizeSignIn(site, assertion)
            async let second = Self.finalizeSignIn(site, assertion)
            let statuses = [try await first.status, try await second.status]
            #expect(statuses.filter { $0 == .ok }.count == 1 && statuses.contains(.badRequest))
        }
    }

    @Test("the origin, the RP ID's hash, the ceremony's type and the signature are each checked")
    func ceremonyRules() async throws {
        try await Self.withSite { site in
            let (_, idToken, passkey) = try await Self.enrolled(site)
            let origin = try await Self.signIn(site, passkey, ["origin": "https://evil.test"])
            #expect(origin.status == .badRequest)
            #expect(origin.errorMessage == #"INVALID_AUTHENTICATOR_RESPONSE : origin "https://evil.test" is not an expected origin."#)
            let port = try await Self.signIn(site, passkey, ["origin": "http://localhost.evil.test:\(site.live.port)"])
            #expect(port.errorMessage?.hasPrefix("INVALID_AUTHENTICATOR_RESPONSE : origin ") == true)
            let rpID = try await Self.signIn(site, passkey, ["clientRpId": "evil.test"])
            #expect(rpID.errorMessage == "INVALID_AUTHENTICATOR_RESPONSE : rpIdHash is not the SHA-256 of the RP ID.")
            let type = try await Self.signIn(site, passkey, ["type": "webauthn.create"])
            #expect(type.errorMessage == #"INVALID_AUTHENTICATOR_RESPONSE : clientDataJSON type is "webauthn.create", expected webauthn.get."#)
            // A key the passkey is not: another registration's private key, signing for this credential id.
            let options = try await Self.startEnrollment(site, idToken: idToken)
            let (other, _) = try await Self.register(site, idToken: idToken, options: options, name: "Other")
            let forged = Passkey(id: passkey.id, privateKey: other.privateKey, alg: other.alg, userHandle: passkey.userHandle)
            let signature = try await Self.signIn(site, forged, signCount: 9)
            #expect(signature.errorMessage == "INVALID_AUTHENTICATOR_RESPONSE : signature does not verify.")
            // A registration from another origin or for another RP ID.
            let again = try await Self.startEnrollment(site, idToken: idToken)
            let (_, wrongOrigin) = try await Self.register(site, idToken: idToken, options: again, ["origin": "https://evil.test"])
            #expect(wrongOrigin.errorMessage == #"INVALID_AUTHENTICATOR_RESPONSE : origin "https://evil.test" is not an expected origin."#)
            let third = try await Self.startEnrollment(site, idToken: idToken)
            let (_, wrongRP) = try await Self.register(site, idToken: idToken, options: third, ["clientRpId": "evil.test"])
            #expect(wrongRP.errorMessage == "INVALID_AUTHENTICATOR_RESPONSE : rpIdHash is not the SHA-256 of the RP ID.")
        }
    }

    @Test("a credential id registered to one account is refused for another; a counter that did not advance is refused")
    func credentialReuseAndClones() async throws {
        try await Self.withSite { site in
            let (_, _, passkey) = try await Self.enrolled(site)
            let eve = try await site.client.signUp(email: "eve@example.com")
            let options = try await Self.startEnrollment(site, idToken: eve.idToken ?? "")
            let (_, taken) = try await Self.register(site, idToken: eve.idToken ?? "", options: options, ["credentialId": passkey.id])
            #expect(taken.status == .badRequest)
            #expect(taken.errorMessage == "CREDENTIAL_ALREADY_IN_USE")

            #expect(try await Self.signIn(site, passkey, signCount: 5).status == .ok)
            let cloned = try await Self.signIn(site, passkey, signCount: 5)
            #expect(cloned.status == .badRequest)
            #expect(cloned.errorMessage == "INVALID_AUTHENTICATOR_RESPONSE : The signature counter did not advance.")
            #expect(try await Self.signIn(site, passkey, signCount: 6).status == .ok)
        }
    }

    @Test("removed by the user or an administrator, a passkey signs in no more; each removal is an audit event")
    func removal() async throws {
        try await Self.withSite { site in
            let (uid, idToken, passkey) = try await Self.enrolled(site)
            let unknown = try await site.client.post(
                "/v1/accounts:update",
                ["idToken": .string(idToken), "deletePasskey": JSONValue.array([.string(passkey.id), .string("bm9uZQ")])])
            #expect(unknown.errorMessage == "PASSKEY_CREDENTIAL_NOT_FOUND")
            let removed = try await site.client.post(
                "/v1/accounts:update", ["idToken": .string(idToken), "deletePasskey": JSONValue.array([.string(passkey.id)])])
            #expect(removed.status == .ok, "\(removed.errorMessage ?? "")")
            #expect(try await site.client.lookup(idToken).decode(LookupResponse.self).users?.first?.passkeyInfo == nil)
            let refused = try await Self.signIn(site, passkey)
            #expect(refused.status == .badRequest)
            #expect(refused.errorMessage == "PASSKEY_CREDENTIAL_NOT_FOUND")

            // An administrator's removal, by localId.
            let options = try await Self.startEnrollment(site, idToken: idToken)
            let (second, finalized) = try await Self.register(site, idToken: idToken, options: options, name: "Phone")
            #expect(finalized.status == .ok)
            let byAdmin = try await site.client.raw(
                "/v1/accounts:update", method: .post, body: Data(#"{"localId":"\#(uid)","deletePasskey":["\#(second.id)"]}"#.utf8),
                headers: Self.admin)
            #expect(byAdmin.status == .ok, "\(byAdmin.errorMessage ?? "")")
            #expect(try await Self.signIn(site, second).errorMessage == "PASSKEY_CREDENTIAL_NOT_FOUND")
            let events = try await site.live.services.store.auditEvents(uid: uid, kind: .passkeyRemoved, after: nil, limit: 50)
            #expect(events.map(\.actor).sorted { $0.rawValue < $1.rawValue } == [.administrator, .user])
            #expect(Set(events.compactMap { $0.details["name"] }) == ["Laptop", "Phone"] && events.allSatisfy { $0.uid == uid })
        }
    }

    @Test("a disabled account's passkey signs in no more, and it cannot enrol one")
    func disabledUser() async throws {
        try await Self.withSite { site in
            let (uid, idToken, passkey) = try await Self.enrolled(site)
            let options = try await Self.startEnrollment(site, idToken: idToken)
            let disabled = try await site.client.raw(
                "/v1/accounts:update", method: .post, body: Data(#"{"localId":"\#(uid)","disableUser":true}"#.utf8), headers: Self.admin)
            #expect(disabled.status == .ok)
            let refused = try await Self.signIn(site, passkey)
            #expect(refused.status == .badRequest)
            #expect(refused.errorMessage == "USER_DISABLED")
            let (_, enrolment) = try await Self.register(site, idToken: idToken, options: options)
            #expect(enrolment.errorMessage == "USER_DISABLED")
        }
    }

    @Test("in a tenant: enrolled and signed in there (the token names it); its challenges and passkeys are nothing elsewhere")
    func tenant() async throws {
        try await Self.withSite { site in
            let tenant = try await TenantTests.makeTenant(site.client)
            let (uid, _, passkey) = try await Self.enrolled(site, tenant: tenant)
            let signedIn = try await Self.signIn(site, passkey, tenant: tenant)
            #expect(signedIn.status == .ok, "\(signedIn.errorMessage ?? "")")
            #expect(signedIn.string("localId") == uid)
            #expect(Self.firebaseClaim(signedIn.string("idToken"))["tenant"] == .string(tenant))
            #expect(Self.firebaseClaim(signedIn.string("idToken"))["sign_in_provider"] == .string("passkey"))
            // A challenge issued in the tenant, answered in the project: not this scope's.
            let options = try await Self.startSignIn(site, tenant: tenant)
            let crossed = try await Self.finalizeSignIn(site, try Self.assertion(site, passkey, challenge: options.challenge, signCount: 2))
            #expect(crossed.errorMessage == Self.challengeRefused)
            // The project's challenge, the tenant's passkey: the project has no such passkey.
            let unknown = try await Self.signIn(site, passkey, signCount: 3)
            #expect(unknown.errorMessage == "PASSKEY_CREDENTIAL_NOT_FOUND")
            // Another tenant's challenge in this tenant.
            let other = try await TenantTests.makeTenant(site.client, name: "Other")
            let elsewhere = try await Self.startSignIn(site, tenant: other)
            let refused = try await Self.finalizeSignIn(
                site, try Self.assertion(site, passkey, challenge: elsewhere.challenge, signCount: 4), tenant: tenant)
            #expect(refused.errorMessage == Self.challengeRefused)
        }
    }

    @Test("multi-factor: a passkey that verified the user skips the second factor; one that only saw presence is asked for it")
    func secondFactor() async throws {
        try await Self.withSite({ MultiFactorHTTPTests.mfaOn(&$0) }) { site in
            let (uid, _, passkey) = try await Self.enrolled(site)
            _ = try await site.live.services.store.updateUser(uid: uid, session: nil) { $0.emailVerified = true }
            let password = try await site.client.signIn(email: "ada@example.com")
            _ = try await MultiFactorHTTPTests.enrolTOTP(clock: site.live.clock, site.client, idToken: password.string("idToken") ?? "")
            let verified = try await Self.signIn(site, passkey)
            #expect(verified.status == .ok && verified.string("idToken") != nil, "\(verified.errorMessage ?? "")")
            #expect(Self.firebaseClaim(verified.string("idToken"))["sign_in_second_factor"] == nil)
            // UP, BE and BS: no UV flag.
            let present = try await Self.signIn(site, passkey, signCount: 2, ["flags": 0x19])
            #expect(present.status == .ok)
            #expect(present.json["idToken"] == nil && present.string("mfaPendingCredential") != nil)
        }
    }

    @Test("user verification REQUIRED refuses an authenticator that only saw the user present")
    func userVerificationRequired() async throws {
        try await Self.withSite({ $0.signIn.passkeys?.requiresUserVerification = true }) { site in
            let (_, _, passkey) = try await Self.enrolled(site)
            #expect(try await Self.startSignIn(site).userVerification == "required")
            let refused = try await Self.signIn(site, passkey, ["flags": 0x19])
            #expect(refused.errorMessage == "INVALID_AUTHENTICATOR_RESPONSE : the user-verified flag is not set and user verification is required.")
        }
    }

    @Test("passkeyEnrollment:start is limited per account and per address, passkeySignIn:start per address: TOO_MANY_ATTEMPTS_TRY_LATER")
    func challengeLimits() async throws {
        try await Self.withSite({
            $0.abuse.limitsEnabled = true
            $0.abuse.limits.passkeyEnrollmentsPerAccount.limit = 2
            $0.abuse.limits.passkeyEnrollments.limit = 2
            $0.abuse.limits.passkeyChallenges.limit = 2
            $0.abuse.trustedProxies = ["127.0.0.1"]
        }) { site in
            func start(_ path: String, _ body: String, from address: String) async throws -> WireResult {
                try await site.client.post("/v2/accounts/\(path):start", json: body, headers: [HTTPField.Name("x-forwarded-for")!: address])
            }
            func enrol(_ idToken: String, from address: String) async throws -> WireResult {
                try await start("passkeyEnrollment", #"{"idToken":"\#(idToken)"}"#, from: address)
            }
            let ada = try #require(try await TenantTests.signUp(site.client, email: "ada@example.com", tenant: nil).string("idToken"))
            let bob = try #require(try await TenantTests.signUp(site.client, email: "bob@example.com", tenant: nil).string("idToken"))
            // One account from a new address each time: the account's limit.
            #expect(try await enrol(ada, from: "203.0.113.1").status == .ok)
            #expect(try await enrol(ada, from: "203.0.113.2").status == .ok)
            let account = try await enrol(ada, from: "203.0.113.3")
            #expect(account.status == .badRequest && account.errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER")
            #expect(account.headers[.retryAfter].flatMap { Int($0) }.map { (1...3_600).contains($0) } == true)
            // One address for several accounts: the address's limit (203.0.113.1 started one for ada already; bob's second
            // start is within his account's limit).
            #expect(try await enrol(bob, from: "203.0.113.1").status == .ok)
            #expect(try await enrol(bob, from: "203.0.113.1").errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER")
            #expect(try await enrol(bob, from: "203.0.113.4").status == .ok)
            // Sign-in challenges, which need no account, per address.
            #expect(try await start("passkeySignIn", "{}", from: "198.51.100.7").status == .ok)
            #expect(try await start("passkeySignIn", "{}", from: "198.51.100.7").status == .ok)
            #expect(try await start("passkeySignIn", "{}", from: "198.51.100.7").errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER")
            #expect(try await start("passkeySignIn", "{}", from: "198.51.100.8").status == .ok)
            // A new window starts afresh (an hour on, with a new ID token); an enrolment completes.
            site.live.clock.advance(by: 3_600)
            let signedIn = try await site.client.post(
                "/v1/accounts:signInWithPassword",
                ["email": .string("ada@example.com"), "password": .string("correct horse"), "returnSecureToken": .bool(true)])
            let fresh = try #require(signedIn.string("idToken"), "\(signedIn.errorMessage ?? "")")
            let again = try await enrol(fresh, from: "203.0.113.3")
            #expect(again.status == .ok, "\(again.errorMessage ?? "")")
            let options = try again.decode(StartPasskeyEnrollmentResponse.self).credentialCreationOptions
            let (_, finalized) = try await Self.register(site, idToken: fresh, options: options)
            #expect(finalized.status == .ok, "\(finalized.errorMessage ?? "")")
        }
    }

    /// Makes the authenticator script's CAs `names` in a new directory.
    static func certificateAuthorities(_ names: [String]) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-passkey-ca-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for name in names { _ = try PythonScript("webauthn-authenticator.py").run(["ca", directory.path, name]) }
        return directory
    }

    /// The passkey attestation `values` configure, as `hearth serve` reads it at start-up.
    static func attestation(_ values: [AbsoluteConfigKey: ConfigValue]) throws -> PasskeyAttestation {
        try ServerConfiguration(reader: ConfigReader(provider: InMemoryProvider(values: values)), defaultMode: .development).signIn
            .passkeyAttestation
    }

    @Test("attestation trust anchors from the configuration: an x5c chain to an anchor is accepted, to another CA refused")
    func trustAnchors() async throws {
        let directory = try Self.certificateAuthorities(["trusted", "other"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let attestation = try Self.attestation([
            "passkeys.attestationTrustAnchors": .init(.string(directory.appendingPathComponent("trusted.cert.pem").path), isSecret: false)
        ])
        #expect(attestation.anchorCount == 1 && !attestation.requiresTrustedAttestation)
        try await Self.withSite({ $0.signIn.passkeyAttestation = attestation }) { site in
            let signedUp = try await TenantTests.signUp(site.client, email: "ada@example.com", tenant: nil)
            let idToken = try #require(signedUp.string("idToken"))
            func enrol(_ spec: [String: any Sendable]) async throws -> WireResult {
                let options = try await Self.startEnrollment(site, idToken: idToken)
                #expect(options.attestation == "direct")
                return try await Self.register(site, idToken: idToken, options: options, spec).1
            }
            let other = try await enrol(["attestation": "packed-x5c", "caDirectory": directory.path, "caName": "other"])
            #expect(other.errorMessage == "INVALID_AUTHENTICATOR_RESPONSE : attestation certificate does not chain to a trust anchor.")
            let trusted = try await enrol(["attestation": "packed-x5c", "caDirectory": directory.path, "caName": "trusted"])
            #expect(trusted.status == .ok, "\(trusted.errorMessage ?? "")")
            // Not required: no attestation, or self attestation, is still taken.
            #expect(try await enrol(["attestation": "none"]).status == .ok)
            #expect(try await enrol(["attestation": "packed-self"]).status == .ok)
            #expect(try await site.live.services.store.passkeys(uid: try #require(signedUp.string("localId"))).count == 3)
        }
    }

    @Test("requireTrustedAttestation: none and self attestation are refused, a chain to an anchor is taken; bad settings stop start-up")
    func trustedAttestationRequired() async throws {
        let directory = try Self.certificateAuthorities(["trusted"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let anchors = directory.appendingPathComponent("trusted.cert.pem").path
        let attestation = try Self.attestation([
            "passkeys.attestationTrustAnchors": .init(.string(anchors), isSecret: false),
            "passkeys.requireTrustedAttestation": .init(.bool(true), isSecret: false),
        ])
        try await Self.withSite({ $0.signIn.passkeyAttestation = attestation }) { site in
            let signedUp = try await TenantTests.signUp(site.client, email: "ada@example.com", tenant: nil)
            let idToken = try #require(signedUp.string("idToken"))
            func enrol(_ spec: [String: any Sendable]) async throws -> WireResult {
                try await Self.register(site, idToken: idToken, options: try await Self.startEnrollment(site, idToken: idToken), spec).1
            }
            for kind in ["none", "packed-self"] {
                let refused = try await enrol(["attestation": kind])
                #expect(
                    refused.errorMessage == "INVALID_AUTHENTICATOR_RESPONSE : attestation certificate does not chain to a trust anchor.", "\(kind)")
            }
            let trusted = try await enrol(["attestation": "packed-x5c", "caDirectory": directory.path, "caName": "trusted"])
            #expect(trusted.status == .ok, "\(trusted.errorMessage ?? "")")
        }

        // Start-up refuses what cannot be used, naming the key and the file.
        let notPEM = directory.appendingPathComponent("not.pem")
        try Data("hello".utf8).write(to: notPEM)
        let cases: [([AbsoluteConfigKey: ConfigValue], String, String)] = [
            (
                ["passkeys.requireTrustedAttestation": .init(.bool(true), isSecret: false)], "passkeys.requireTrustedAttestation",
                "needs passkeys.attestationTrustAnchors"
            ),
            (
                ["passkeys.attestationTrustAnchors": .init(.string("/nonexistent/roots.pem"), isSecret: false)], "passkeys.attestationTrustAnchors",
                "/nonexistent/roots.pem"
            ),
            (
                ["passkeys.attestationTrustAnchors": .init(.string(notPEM.path), isSecret: false)], "passkeys.attestationTrustAnchors",
                "holds no certificate"
            ),
            (
                ["passkeys.attestationTrustAnchors": .init(.string(directory.appendingPathComponent("trusted.key.pem").path), isSecret: false)],
                "passkeys.attestationTrustAnchors", #"block 1 is a "PRIVATE KEY", not a CERTIFICATE"#
            ),
        ]
        for (values, key, problem) in cases {
            do {
                _ = try Self.attestation(values)
                Issue.record("\(values) was accepted")
            } catch let error as ConfigurationError {
                #expect(error.key == key)
                #expect("\(error)".contains(problem), "\(error)")
            }
        }
    }

    @Test("the relying party through the admin API, for the project and a tenant; passkeys off answer OPERATION_NOT_ALLOWED")
    func settings() async throws {
        try await Self.withSite({ $0.signIn.passkeys = nil }) { site in
            let off = try await site.client.post("/v2/accounts/passkeySignIn:start", [:])
            #expect(off.errorMessage == "OPERATION_NOT_ALLOWED : Passkeys are not configured.")
            let config = "/v2/projects/\(site.live.projectID)/config?updateMask=passkeyConfig"
            func patch(_ path: String, _ body: String) async throws -> WireResult {
                try await site.client.raw(path, method: .patch, body: Data(body.utf8), headers: Self.admin)
            }
            let bad = try await patch(config, #"{"passkeyConfig":{"rpId":"example.com","expectedOrigins":["https://evil.test"]}}"#)
            #expect(bad.errorMessage == #"INVALID_CONFIG : The expected origin "https://evil.test" is not on the RP ID example.com."#)
            let plain = try await patch(config, #"{"passkeyConfig":{"rpId":"example.com","expectedOrigins":["http://example.com"]}}"#)
            #expect(plain.errorMessage?.hasPrefix("INVALID_CONFIG : The expected origin \"http://example.com\" must be https") == true)
            let ip = try await patch(config, #"{"passkeyConfig":{"rpId":"127.0.0.1","expectedOrigins":["https://127.0.0.1"]}}"#)
            #expect(ip.errorMessage == "INVALID_CONFIG : passkeyConfig.rpId must be a lower-case domain name such as example.com or localhost.")
            let set = try await patch(
                config,
                #"{"passkeyConfig":{"rpId":"example.com","expectedOrigins":["https://accounts.example.com"],"userVerification":"REQUIRED"}}"#)
            #expect(set.status == .ok, "\(set.errorMessage ?? "")")
            #expect(
                try set.decode(ProjectConfig.self).passkeyConfig
                    == PasskeyConfig(rpId: "example.com", expectedOrigins: ["https://accounts.example.com"], userVerification: "REQUIRED"))
            let options = try await Self.startSignIn(site)
            #expect(options.rpId == "example.com" && options.userVerification == "required")

            // A tenant has its own.
            let tenant = try await TenantTests.makeTenant(site.client)
            let tenantPath = "/v2/projects/\(site.live.projectID)/tenants/\(tenant)?updateMask=passkeyConfig"
            let tenantSet = try await patch(tenantPath, #"{"passkeyConfig":{"rpId":"acme.test","expectedOrigins":["https://acme.test"]}}"#)
            #expect(tenantSet.status == .ok, "\(tenantSet.errorMessage ?? "")")
            #expect(try await Self.startSignIn(site, tenant: tenant).rpId == "acme.test")
            #expect(try await Self.startSignIn(site).rpId == "example.com")
        }
    }

    @Test("missing, garbage, oversized and NUL inputs get the JSON error envelope and Firebase's strings, never a 500")
    func hostileInputs() async throws {
        try await Self.withSite { site in
            let (_, idToken, passkey) = try await Self.enrolled(site)
            let options = try await Self.startSignIn(site)
            guard case .object(let good) = try Self.assertion(site, passkey, challenge: options.challenge),
                case .object(let response)? = good["response"]
            else { throw CancellationError() }
            func finalize(_ credential: JSONValue?) async throws -> WireResult {
                try await site.client.post(
                    "/v2/accounts/passkeySignIn:finalize", credential.map { ["authenticatorAuthenticationResponse": $0] } ?? [:])
            }
            func with(_ key: String, _ value: JSONValue?, inResponse: Bool = false) -> JSONValue {
                var credential = good
                if inResponse {
                    var inner = response
                    inner[key] = value
                    credential["response"] = .object(inner)
                } else {
                    credential[key] = value
                }
                return .object(credential)
            }
            let cases: [(JSONValue?, String)] = [
                (nil, "MISSING_AUTHENTICATOR_RESPONSE"),
                (.object([:]), "MISSING_AUTHENTICATOR_RESPONSE"),
                (with("id", nil), "INVALID_CREDENTIAL_ID"),
                (with("id", .string("not base64!")), "INVALID_CREDENTIAL_ID"),
                (with("id", .string("AA\u{0}AA")), "INVALID_CREDENTIAL_ID"),
                (with("id", .string(String(repeating: "A", count: 2000))), "INVALID_CREDENTIAL_ID"),
                (with("rawId", .string("b3RoZXI")), "INVALID_CREDENTIAL_ID"),
                (with("type", .string("password")), "INVALID_AUTHENTICATOR_RESPONSE : type must be public-key."),
                (with("signature", nil, inResponse: true), "INVALID_AUTHENTICATOR_RESPONSE : response.signature is missing."),
                (
                    with("clientDataJSON", .string(String(repeating: "A", count: 100_000)), inResponse: true),
                    "INVALID_AUTHENTICATOR_RESPONSE : response.clientDataJSON must be base64url of at most 16384 bytes."
                ),
                (
                    with("authenticatorData", .string("\u{0}"), inResponse: true),
                    "INVALID_AUTHENTICATOR_RESPONSE : response.authenticatorData must be base64url of at most 16384 bytes."
                ),
                (
                    with("clientDataJSON", .string(Base64URL.encode(Array("{\"challenge\":\"\u{0}\"}".utf8))), inResponse: true),
                    "INVALID_AUTHENTICATOR_RESPONSE : clientDataJSON names no challenge."
                ),
                // The challenge is taken from here on: garbage authenticator data spends it.
                (
                    with("authenticatorData", .string(Base64URL.encode([UInt8](repeating: 0xFF, count: 7))), inResponse: true),
                    "INVALID_AUTHENTICATOR_RESPONSE : authenticatorData is malformed: shorter than 37 bytes."
                ),
                (.object(good), Self.challengeRefused),
            ]
            for (credential, message) in cases {
                let result = try await finalize(credential)
                #expect(result.status == .badRequest, "\(message): \(result.status)")
                #expect(result.errorMessage == message)
            }
            // A wrong JSON type where an object belongs.
            let typed = try await site.client.post("/v2/accounts/passkeySignIn:finalize", json: #"{"authenticatorAuthenticationResponse":"x"}"#)
            #expect(typed.status == .badRequest && typed.errorMessage?.hasPrefix("Invalid JSON payload received.") == true)
            // A name with NUL, or too long; an empty body; an ID token that is not one.
            let enrolment = try await Self.startEnrollment(site, idToken: idToken)
            let (_, nul) = try await Self.register(site, idToken: idToken, options: enrolment, name: "Lap\u{0}top")
            #expect(nul.errorMessage == "INVALID_DISPLAY_NAME")
            let missing = try await site.client.post("/v2/accounts/passkeyEnrollment:finalize", ["idToken": .string(idToken)])
            #expect(missing.errorMessage == "MISSING_AUTHENTICATOR_RESPONSE")
            let noToken = try await site.client.post("/v2/accounts/passkeyEnrollment:start", [:])
            #expect(noToken.errorMessage == "MISSING_ID_TOKEN")
            let badToken = try await site.client.post("/v2/accounts/passkeyEnrollment:start", ["idToken": .string("x.y.z")])
            #expect(badToken.errorMessage == "INVALID_ID_TOKEN")
            let huge = try await site.client.post(
                "/v2/accounts/passkeySignIn:start", json: #"{"sessionId":"\#(String(repeating: "x", count: 2_000_000))"}"#)
            #expect(huge.status == .contentTooLarge && huge.errorMessage != nil)
        }
    }
}
