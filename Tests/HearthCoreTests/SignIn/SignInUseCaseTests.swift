import Foundation
import HearthCore
import Testing

/// The sign-in use cases without HTTP or SQL: each rule and each error a person can cause, on memory stores.
@Suite struct SignUpTests {
    @Test("anonymous sign-up: a session, the clean-up date when on, ADMIN_ONLY_OPERATION when off, the address limits")
    func anonymous() async throws {
        var kit = SignInKit()
        let signedIn = try await kit.signUp(.init(), from: kit.origin)
        #expect(signedIn.isNewUser && signedIn.signInProvider == "anonymous" && signedIn.user.isAnonymous)
        #expect(signedIn.refreshToken.hasPrefix("AMf-") && kit.store.sessionCount == 1)
        #expect(kit.audit.kinds == [.signedUp])
        kit.settings.change { $0.anonymousCleanupEnabled = true }
        #expect(try await kit.signUp(.init(), from: kit.origin).user.scheduledDeletionAt == kit.clock.now.addingTimeInterval(30 * 86_400))
        kit.settings.change { $0.anonymousEnabled = false }
        #expect(await errorCode { try await kit.signUp(.init(), from: kit.origin) } == .adminOnlyOperation)

        kit.settings.change { $0.anonymousEnabled = true }
        kit.limits.anonymousSignUps = RateLimit("anonymous-sign-ups", limit: 2, window: 3_600)
        #expect(await errorCode { try await kit.signUp(.init(), from: kit.origin) } == .tooManyAttempts)
    }

    @Test("e-mail and password: each refusal in Firebase's order, the e-mail normalised, EMAIL_EXISTS")
    func password() async throws {
        let kit = SignInKit()
        #expect(await errorCode { try await kit.signUp(.init(password: "secret1"), from: kit.origin) } == .missingEmail)
        #expect(await errorCode { try await kit.signUp(.init(email: "a@example.com"), from: kit.origin) } == .missingPassword)
        #expect(await errorCode { try await kit.signUp(.init(email: "a@@example.com", password: "secret1"), from: kit.origin) } == .invalidEmail)
        #expect(await errorCode { try await kit.signUp(.init(email: "a\u{0}@example.com", password: "secret1"), from: kit.origin) } == .invalidEmail)
        #expect(await errorCode { try await kit.signUp(.init(email: "a@example.com", password: "12345"), from: kit.origin) } == .weakPassword)
        #expect(
            await errorCode { try await kit.signUp(.init(email: "a@example.com", password: "secret1", displayName: "a\u{7}"), from: kit.origin) }
                == .invalidDisplayName)
        let signedIn = try await kit.signUp(.init(email: " A@Example.COM ", password: "secret1"), from: kit.origin)
        #expect(signedIn.user.email == "a@example.com" && signedIn.signInProvider == "password" && signedIn.isNewUser)
        #expect(await errorCode { try await kit.signUp(.init(email: "a@example.com", password: "secret2"), from: kit.origin) } == .emailExists)
        kit.settings.change { $0.passwordEnabled = false }
        #expect(
            await errorCode { try await kit.signUp(.init(email: "b@example.com", password: "secret1"), from: kit.origin) } == .operationNotAllowed)
    }

    @Test("an anonymous account adds an e-mail and password: same uid, linked, no longer anonymous; EMAIL_EXISTS for another's")
    func upgrade() async throws {
        let kit = SignInKit()
        _ = try await kit.signUp(.init(email: "taken@example.com", password: "secret1"), from: kit.origin)
        let anonymous = try await kit.signUp(.init(), from: kit.origin)
        #expect(
            await errorCode {
                try await kit.signUp(.init(email: "taken@example.com", password: "secret1", idToken: anonymous.idToken), from: kit.origin)
            } == .emailExists)
        let upgraded = try await kit.signUp(
            .init(email: "new@example.com", password: "secret1", displayName: "New", idToken: anonymous.idToken), from: kit.origin)
        #expect(upgraded.user.uid == anonymous.user.uid && !upgraded.isNewUser && !upgraded.user.isAnonymous)
        #expect(upgraded.user.email == "new@example.com" && upgraded.user.displayName == "New" && !upgraded.user.emailVerified)
        #expect(kit.audit.kinds.last == .linked)
    }

    @Test("adding a password to a non-anonymous account needs a recent sign-in")
    func upgradeNeedsRecentSignIn() async throws {
        let kit = SignInKit()
        let first = try await kit.signUp(.init(email: "old@example.com", password: "secret1"), from: kit.origin)
        kit.clock.advance(by: 3_600)
        #expect(
            await errorCode { try await kit.signUp(.init(email: "old@example.com", password: "secret2", idToken: first.idToken), from: kit.origin) }
                == .credentialTooOldLoginAgain)
    }
}

@Suite struct PasswordSignInTests {
    static func kitWithUser() async throws -> (SignInKit, UserRecord) {
        let kit = SignInKit()
        let user = try await kit.signUp(.init(email: "p@example.com", password: "right-password"), from: kit.origin).user
        return (kit, user)
    }

    @Test("signs in; the missing and invalid fields in Firebase's order")
    func signsIn() async throws {
        let (kit, user) = try await Self.kitWithUser()
        let (email, signedIn) = try await kit.passwordSignIn(email: "P@example.com", password: "right-password", from: kit.origin)
        #expect(email == "p@example.com" && signedIn.user.uid == user.uid && !signedIn.isNewUser)
        #expect(kit.audit.kinds.last == .signedIn)
        #expect(await errorCode { try await kit.passwordSignIn(email: nil, password: "x", from: kit.origin) } == .missingEmail)
        #expect(await errorCode { try await kit.passwordSignIn(email: "not-an-email", password: "x", from: kit.origin) } == .invalidEmail)
        #expect(await errorCode { try await kit.passwordSignIn(email: "p@example.com", password: nil, from: kit.origin) } == .missingPassword)
        kit.settings.change { $0.passwordEnabled = false }
        #expect(await errorCode { try await kit.passwordSignIn(email: "p@example.com", password: "x", from: kit.origin) } == .operationNotAllowed)
    }

    @Test("enumeration protection: unknown e-mail, no password and wrong password answer alike after a check each")
    func enumeration() async throws {
        let (kit, _) = try await Self.kitWithUser()
        _ = try await kit.signUp(.init(), from: kit.origin)
        #expect(
            await errorCode { try await kit.passwordSignIn(email: "nobody@example.com", password: "x", from: kit.origin) } == .invalidLoginCredentials
        )
        #expect(
            await errorCode { try await kit.passwordSignIn(email: "p@example.com", password: "wrong", from: kit.origin) } == .invalidLoginCredentials)
        #expect(kit.passwords.counts.withLock { $0 } == (real: 1, decoy: 1))
        kit.settings.change { $0.emailEnumerationProtection = false }
        #expect(await errorCode { try await kit.passwordSignIn(email: "nobody@example.com", password: "x", from: kit.origin) } == .emailNotFound)
        #expect(await errorCode { try await kit.passwordSignIn(email: "p@example.com", password: "wrong", from: kit.origin) } == .invalidPassword)
        #expect(
            kit.audit.events.withLock { $0.filter { $0.kind == .signInFailed }.compactMap { $0.details["reason"] } } == [
                "unknownEmail", "wrongPassword", "unknownEmail", "wrongPassword",
            ])
    }

    @Test("a disabled account, and the account lockout after three failures")
    func disabledAndLockout() async throws {
        let (kit, user) = try await Self.kitWithUser()
        for _ in 0..<3 {
            #expect(
                await errorCode { try await kit.passwordSignIn(email: "p@example.com", password: "wrong", from: kit.origin) }
                    == .invalidLoginCredentials)
        }
        #expect(
            await errorCode { try await kit.passwordSignIn(email: "p@example.com", password: "right-password", from: kit.origin) }
                == .accountTemporarilyDisabled)
        kit.clock.advance(by: 3_600)
        _ = try await kit.store.updateUser(uid: user.uid, session: nil) { $0.disabled = true }
        #expect(
            await errorCode { try await kit.passwordSignIn(email: "p@example.com", password: "right-password", from: kit.origin) } == .userDisabled)
    }

    @Test("the write re-checks: a password changed or an account disabled between the check and the write refuses the sign-in")
    func recheckedInTheWrite() async throws {
        let (kit, _) = try await Self.kitWithUser()
        let newHash = try kit.passwords.hasher.hash("changed-meanwhile")
        kit.store.beforeNextUpdate.withLock { $0 = { $0.passwordHash = newHash } }
        #expect(
            await errorCode { try await kit.passwordSignIn(email: "p@example.com", password: "right-password", from: kit.origin) }
                == .invalidLoginCredentials)
        kit.store.beforeNextUpdate.withLock { $0 = { $0.disabled = true } }
        #expect(
            await errorCode { try await kit.passwordSignIn(email: "p@example.com", password: "changed-meanwhile", from: kit.origin) } == .userDisabled
        )
    }

    @Test("an imported hash is redone in the server's own format on the first sign-in")
    func rehash() async throws {
        let kit = SignInKit()
        let now = kit.clock.now
        let imported = "$pbkdf2-sha256$i=1000$c2FsdHNhbHQ=$" + Data(repeating: 0, count: 32).base64EncodedString()
        try await kit.store.createUser(
            UserRecord(uid: "imported", email: "i@example.com", passwordHash: imported, createdAt: now, validSince: now), session: nil)
        #expect(await errorCode { try await kit.passwordSignIn(email: "i@example.com", password: "x", from: kit.origin) } == .invalidLoginCredentials)
        let own = try kit.passwords.hasher.hash("known")
        _ = try await kit.store.updateUser(uid: "imported", session: nil) { $0.passwordHash = own.replacingOccurrences(of: "ln=4", with: "ln=5") }
        _ = try? await kit.passwordSignIn(email: "i@example.com", password: "known", from: kit.origin)
        // A hash of another cost than the hasher's own is redone once the password is known to match.
        let rehashed = try await kit.store.user(uid: "imported")?.passwordHash
        #expect(rehashed?.hasPrefix("$scrypt$ln=4,") == true || rehashed?.hasPrefix("$scrypt$ln=5,") == true)
    }
}

@Suite struct FederatedSignInTests {
    static func profile(_ rawID: String = "g-1", email: String? = "f@example.com", verified: Bool = true) -> FederatedProfile {
        FederatedProfile(providerID: "google.com", rawID: rawID, email: email, emailVerified: verified, displayName: "F")
    }

    static func signedIn(_ outcome: FederatedSignIn.Outcome) throws -> SignedIn {
        guard case .signedIn(let signedIn) = outcome else { throw HearthError(.internalError, reason: "needs confirmation") }
        return signedIn
    }

    @Test("creates, then signs in the same account; autoCreate false gives USER_NOT_FOUND")
    func createThenSignIn() async throws {
        let kit = SignInKit()
        #expect(await errorCode { try await kit.federated(Self.profile(), linkTo: nil, autoCreate: false, from: kit.origin) } == .userNotFound)
        let first = try Self.signedIn(try await kit.federated(Self.profile(), linkTo: nil, autoCreate: true, from: kit.origin))
        #expect(first.isNewUser && first.signInProvider == "google.com" && first.user.email == "f@example.com")
        let again = try Self.signedIn(try await kit.federated(Self.profile(), linkTo: nil, autoCreate: true, from: kit.origin))
        #expect(again.user.uid == first.user.uid && !again.isNewUser)
        #expect(kit.audit.kinds == [.signedUp, .signedIn])
    }

    @Test("an unverified e-mail of another account asks for confirmation; a verified one takes it over, its unproven password gone")
    func confirmationAndTakeOver() async throws {
        let kit = SignInKit()
        let owner = try await kit.signUp(.init(email: "f@example.com", password: "secret1"), from: kit.origin).user
        guard
            case .needsConfirmation(let found) = try await kit.federated(
                Self.profile(verified: false), linkTo: nil, autoCreate: true, from: kit.origin)
        else { throw HearthError(.internalError, reason: "expected needsConfirmation") }
        #expect(found.uid == owner.uid)
        let took = try Self.signedIn(try await kit.federated(Self.profile(), linkTo: nil, autoCreate: true, from: kit.origin))
        #expect(took.user.uid == owner.uid && took.user.passwordHash == nil && took.user.emailVerified)
        #expect(kit.audit.events.withLock { $0.last?.details } == ["tookOver": "true"])
    }

    @Test("a take-over re-checks the e-mail in the write: an address moved meanwhile is not verified on the account that lost it")
    func takeOverRace() async throws {
        let kit = SignInKit()
        let owner = try await kit.signUp(.init(email: "f@example.com", password: "secret1"), from: kit.origin).user
        // Between the decision and the write, the owner changes its address.
        kit.store.beforeNextUpdate.withLock { $0 = { $0.email = "elsewhere@example.com" } }
        let outcome = try Self.signedIn(try await kit.federated(Self.profile(), linkTo: nil, autoCreate: true, from: kit.origin))
        // Decided again on fresh reads: a new account for the identity; the old one keeps its password, unverified.
        #expect(outcome.isNewUser && outcome.user.uid != owner.uid)
        let kept = try #require(try await kit.store.user(uid: owner.uid))
        #expect(kept.email == "elsewhere@example.com" && !kept.emailVerified && kept.passwordHash != nil)
    }

    @Test("linking: FEDERATED_USER_ID_ALREADY_LINKED and EMAIL_EXISTS for another account's identity or e-mail; USER_DISABLED")
    func linking() async throws {
        let kit = SignInKit()
        let other = try Self.signedIn(try await kit.federated(Self.profile(), linkTo: nil, autoCreate: true, from: kit.origin))
        let me = try await kit.signUp(.init(), from: kit.origin)
        #expect(
            await errorCode { try await kit.federated(Self.profile(), linkTo: me.idToken, autoCreate: true, from: kit.origin) }
                == .federatedUserIDAlreadyLinked)
        #expect(
            await errorCode { try await kit.federated(Self.profile("g-2"), linkTo: me.idToken, autoCreate: true, from: kit.origin) } == .emailExists)
        let linked = try Self.signedIn(
            try await kit.federated(Self.profile("g-3", email: "mine@example.com"), linkTo: me.idToken, autoCreate: true, from: kit.origin))
        #expect(linked.user.uid == me.user.uid && linked.user.providers.map(\.rawID) == ["g-3"] && kit.audit.kinds.last == .linked)
        _ = try await kit.store.updateUser(uid: other.user.uid, session: nil) { $0.disabled = true }
        #expect(await errorCode { try await kit.federated(Self.profile(), linkTo: nil, autoCreate: true, from: kit.origin) } == .userDisabled)
    }

    @Test("eight parallel first sign-ins of one identity: one account, every sign-in succeeds")
    func parallelFirstSignIns() async throws {
        let kit = SignInKit()
        let uids = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<8 {
                group.addTask { try Self.signedIn(try await kit.federated(Self.profile(), linkTo: nil, autoCreate: true, from: kit.origin)).user.uid }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(uids.count == 1)
        #expect(try await kit.store.countUsers() == 1)
    }
}

@Suite struct CustomTokenAndEmailLinkSignInTests {
    struct Checker: CustomTokenChecking {
        func check(_ token: String) async throws -> (uid: String, claims: [String: JSONValue]) {
            guard token.hasPrefix("uid:") else { throw HearthError(.invalidCustomToken) }
            return (String(token.dropFirst(4)), ["role": .string("admin")])
        }
    }

    @Test("custom token: MISSING_CUSTOM_TOKEN, the checker's error, a new account then the same one, USER_DISABLED")
    func customToken() async throws {
        let kit = SignInKit()
        let signIn = CustomTokenSignIn(customTokens: Checker(), completion: kit.completion)
        #expect(await errorCode { try await signIn(nil, from: kit.origin) } == .missingCustomToken)
        #expect(await errorCode { try await signIn("", from: kit.origin) } == .missingCustomToken)
        #expect(await errorCode { try await signIn("forged", from: kit.origin) } == .invalidCustomToken)
        let first = try await signIn("uid:backend-1", from: kit.origin)
        #expect(first.isNewUser && first.user.customAuth && first.signInProvider == "custom")
        #expect(try await !signIn("uid:backend-1", from: kit.origin).isNewUser)
        _ = try await kit.store.updateUser(uid: "backend-1", session: nil) { $0.disabled = true }
        #expect(await errorCode { try await signIn("uid:backend-1", from: kit.origin) } == .userDisabled)
    }

    @Test("e-mail link: a code for the address signs up once; another address, a used code and a reset code are refused")
    func emailLink() async throws {
        let kit = SignInKit()
        let now = kit.clock.now
        func code(_ kind: ActionCodeKind, email: String) async throws -> String {
            let code = ActionCode.make()
            try await kit.store.insertActionCode(
                ActionCodeRecord(
                    codeHash: ActionCode.hash(code), kind: kind, uid: nil, email: email, createdAt: now, expiresAt: now.addingTimeInterval(3_600)))
            return code
        }
        let link = try await code(.emailSignIn, email: "l@example.com")
        #expect(await errorCode { try await kit.emailLink(email: nil, code: link, linkTo: nil, from: kit.origin) } == .missingEmail)
        #expect(await errorCode { try await kit.emailLink(email: "l@example.com", code: "", linkTo: nil, from: kit.origin) } == .missingOOBCode)
        #expect(await errorCode { try await kit.emailLink(email: "x@example.com", code: link, linkTo: nil, from: kit.origin) } == .invalidEmail)
        let signedIn = try await kit.emailLink(email: "l@example.com", code: link, linkTo: nil, from: kit.origin)
        #expect(signedIn.isNewUser && signedIn.user.emailVerified && signedIn.signInProvider == "password")
        #expect(await errorCode { try await kit.emailLink(email: "l@example.com", code: link, linkTo: nil, from: kit.origin) } == .invalidOOBCode)
        let reset = try await code(.passwordReset, email: "l@example.com")
        #expect(await errorCode { try await kit.emailLink(email: "l@example.com", code: reset, linkTo: nil, from: kit.origin) } == .invalidOOBCode)
        let again = try await code(.emailSignIn, email: "l@example.com")
        #expect(try await kit.emailLink(email: "l@example.com", code: again, linkTo: nil, from: kit.origin).user.uid == signedIn.user.uid)
        kit.settings.change { $0.emailLinkEnabled = false }
        #expect(
            await errorCode { try await kit.emailLink(email: "l@example.com", code: again, linkTo: nil, from: kit.origin) } == .operationNotAllowed)
    }
}
