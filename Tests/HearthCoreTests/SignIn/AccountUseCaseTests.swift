import Foundation
import HearthCore
import Testing

/// A person's own account (update, deletion, the sign-in methods of an address) and the e-mail actions' rules
/// (which account a code is for, what using it does), on memory stores.
@Suite struct AccountUseCaseTests {
    final class Mailbox: AccountMailing, @unchecked Sendable {
        let sent = LockedBox<[(uid: String, oldEmail: String, newEmail: String)]>([])
        func mailRecoveryLink(uid: String, oldEmail: String, newEmail: String, languageCode: String?) async throws {
            sent.withLock { $0.append((uid, oldEmail, newEmail)) }
        }
        func mailSecondFactorAdded(uid: String, email: String, factor: SecondFactorEnrollment, languageCode: String?) async throws {}
    }

    static func update(_ kit: SignInKit, mail: Mailbox = Mailbox()) -> OwnAccountUpdate {
        OwnAccountUpdate(
            settings: kit.settings, store: kit.store, passwords: kit.passwords, idTokens: kit.tokens, tokens: kit.tokens, audit: kit.audit,
            mail: mail, clock: kit.clock.wallClock, recentLoginWindow: 300)
    }

    @Test("own update: administrator fields, disabling, bad values, a stale sign-in and another's e-mail are refused")
    func updateRefusals() async throws {
        let kit = SignInKit()
        let me = try await kit.signUp(.init(email: "me@example.com", password: "secret1"), from: kit.origin)
        _ = try await kit.signUp(.init(email: "other@example.com", password: "secret1"), from: kit.origin)
        let update = Self.update(kit)
        let origin = kit.origin.audit
        #expect(
            await errorCode { try await update(.init(setsAdministratorFields: true), idToken: me.idToken, from: origin) } == .insufficientPermission)
        #expect(await errorCode { try await update(.init(setsDisabled: true), idToken: me.idToken, from: origin) } == .operationNotAllowed)
        #expect(await errorCode { try await update(.init(email: "bad@"), idToken: me.idToken, from: origin) } == .invalidEmail)
        #expect(await errorCode { try await update(.init(password: "short"), idToken: me.idToken, from: origin) } == .weakPassword)
        #expect(await errorCode { try await update(.init(photoURL: "x\u{0}"), idToken: me.idToken, from: origin) } == .invalidPhotoURL)
        // Enumeration protection (on in the kit): an e-mail change goes through a verification link.
        #expect(
            await errorCode { try await update(.init(email: "other@example.com"), idToken: me.idToken, from: origin) }
                == .emailChangeNeedsVerification)
        kit.settings.change { $0.emailEnumerationProtection = false }
        #expect(await errorCode { try await update(.init(email: "other@example.com"), idToken: me.idToken, from: origin) } == .emailExists)
        kit.clock.advance(by: 3_600)
        #expect(await errorCode { try await update(.init(password: "secret2"), idToken: me.idToken, from: origin) } == .credentialTooOldLoginAgain)
        #expect(await errorCode { try await update(.init(displayName: "Still allowed"), idToken: me.idToken, from: origin) } == nil)
    }

    @Test("own update: a new e-mail starts a new session, mails the old address, voids its links; a name alone keeps the session")
    func updateEmail() async throws {
        let kit = SignInKit()
        kit.settings.change { $0.emailEnumerationProtection = false }
        let me = try await kit.signUp(.init(email: "me@example.com", password: "secret1"), from: kit.origin)
        let mail = Mailbox()
        let update = Self.update(kit, mail: mail)
        let named = try await update(.init(displayName: "Me"), idToken: me.idToken, from: kit.origin.audit)
        #expect(named.session == nil && named.user.displayName == "Me")
        let moved = try await update(.init(email: "new@example.com"), idToken: me.idToken, from: kit.origin.audit)
        #expect(moved.session != nil && moved.user.email == "new@example.com" && !moved.user.emailVerified)
        #expect(mail.sent.withLock { $0.map(\.oldEmail) } == ["me@example.com"])
        #expect(kit.audit.kinds.suffix(1) == [.emailChanged])
    }

    @Test("own deletion: an anonymous account at any time, another only after a recent sign-in")
    func deletion() async throws {
        let kit = SignInKit()
        let deletion = OwnAccountDeletion(
            store: kit.store, idTokens: kit.tokens, audit: kit.audit, clock: kit.clock.wallClock, recentLoginWindow: 300)
        let anonymous = try await kit.signUp(.init(), from: kit.origin)
        let person = try await kit.signUp(.init(email: "d@example.com", password: "secret1"), from: kit.origin)
        kit.clock.advance(by: 3_600)
        try await deletion(idToken: anonymous.idToken, from: kit.origin.audit)
        #expect(await errorCode { try await deletion(idToken: person.idToken, from: kit.origin.audit) } == .credentialTooOldLoginAgain)
        #expect(try await kit.store.user(uid: anonymous.user.uid) == nil)
        #expect(try await kit.store.user(uid: person.user.uid) != nil)
    }

    @Test("sign-in methods: nothing under enumeration protection; else registered and the methods; bad input refused")
    func signInMethods() async throws {
        let kit = SignInKit()
        _ = try await kit.signUp(.init(email: "m@example.com", password: "secret1"), from: kit.origin)
        let lookup = SignInMethodsLookup(settings: kit.settings, store: kit.store, abuse: kit.abuse)
        let url = "https://app.example.com/"
        #expect(await errorCode { try await lookup(identifier: nil, continueURI: url, from: kit.origin) } == .missingIdentifier)
        #expect(await errorCode { try await lookup(identifier: "m@example.com", continueURI: nil, from: kit.origin) } == .missingContinueURI)
        #expect(await errorCode { try await lookup(identifier: "m@example.com", continueURI: "not a url", from: kit.origin) } == .invalidContinueURI)
        #expect(await errorCode { try await lookup(identifier: "nope", continueURI: url, from: kit.origin) } == .invalidIdentifier)
        #expect(try await lookup(identifier: "m@example.com", continueURI: url, from: kit.origin) == nil)
        kit.settings.change { $0.emailEnumerationProtection = false }
        let found = try await lookup(identifier: "M@example.com", continueURI: url, from: kit.origin)
        #expect(found?.registered == true && found?.methods == ["password"])
        #expect(try await lookup(identifier: "x@example.com", continueURI: url, from: kit.origin)?.registered == false)
    }

    @Test("which account a code is for: enumeration protection answers without a code; taken and unknown addresses; request types")
    func addressing() async throws {
        let kit = SignInKit()
        let me = try await kit.signUp(.init(email: "a@example.com", password: "secret1"), from: kit.origin)
        _ = try await kit.signUp(.init(email: "taken@example.com", password: "secret1"), from: kit.origin)
        let addressing = ActionCodeAddressing(
            settings: kit.settings, store: kit.store, idTokens: kit.tokens, abuse: kit.abuse, clock: kit.clock.wallClock, recentLoginWindow: 300)
        func request(_ type: String, email: String? = nil, newEmail: String? = nil, idToken: String? = nil, admin: Bool = false)
            -> ActionCodeAddressing.Request
        {
            .init(
                requestType: type, email: email, newEmail: newEmail, idToken: idToken, hasContinueURL: false, byAdministrator: admin,
                returnsLink: admin)
        }
        #expect(
            try await addressing.decide(request("PASSWORD_RESET", email: "nobody@example.com"), from: kit.origin)
                == .answerOnly(email: "nobody@example.com"))
        guard case .issue(let reset) = try await addressing.decide(request("PASSWORD_RESET", email: "A@example.com"), from: kit.origin) else {
            throw HearthError(.internalError, reason: "expected a code")
        }
        #expect(reset.uid == me.user.uid && reset.recipient == "a@example.com")
        #expect(
            await errorCode { try await addressing.decide(request("PASSWORD_RESET", email: "nobody@example.com", admin: true), from: kit.origin) }
                == .emailNotFound)
        #expect(await errorCode { try await addressing.decide(request("PASSWORD_RESET"), from: kit.origin) } == .missingEmail)
        #expect(await errorCode { try await addressing.decide(request("VERIFY_EMAIL"), from: kit.origin) } == .invalidIDToken)
        #expect(
            await errorCode { try await addressing.decide(request("EMAIL_SIGNIN", email: "a@example.com"), from: kit.origin) } == .missingContinueURI)
        #expect(
            await errorCode { try await addressing.decide(request("VERIFY_AND_CHANGE_EMAIL", idToken: me.idToken), from: kit.origin) }
                == .missingNewEmail)
        #expect(
            await errorCode {
                try await addressing.decide(
                    request("VERIFY_AND_CHANGE_EMAIL", email: "a@example.com", newEmail: "taken@example.com", admin: true), from: kit.origin)
            } == .emailExists)
        #expect(await errorCode { try await addressing.decide(request("SOMETHING_ELSE"), from: kit.origin) } == .invalidRequestType)
    }

    @Test("a reset code: the new password must pass the policy before the code is spent; once used, it is gone")
    func resetPassword() async throws {
        let kit = SignInKit()
        let me = try await kit.signUp(.init(email: "r@example.com", password: "secret1"), from: kit.origin)
        let redemption = ActionCodeRedemption(store: kit.store, clock: kit.clock.wallClock, passwords: kit.passwords, mail: Mailbox())
        let code = ActionCode.make()
        let now = kit.clock.now
        try await kit.store.insertActionCode(
            ActionCodeRecord(
                codeHash: ActionCode.hash(code), kind: .passwordReset, uid: me.user.uid, email: "r@example.com", createdAt: now,
                expiresAt: now.addingTimeInterval(3_600)))
        #expect(await errorCode { try await redemption.resetPassword(code: code, newPassword: "short") } == .weakPassword)
        _ = try await redemption.resetPassword(code: code, newPassword: "a-new-password")
        #expect(await errorCode { try await redemption.resetPassword(code: code, newPassword: "another-one") } == .invalidOOBCode)
        let (_, signedIn) = try await kit.passwordSignIn(email: "r@example.com", password: "a-new-password", from: kit.origin)
        #expect(signedIn.user.emailVerified)
    }
}
