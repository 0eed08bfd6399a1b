import Foundation
import HearthAuth
import HearthCore
import HearthTesting
import Testing

/// E-mail actions through the SDK against a live development server: the mails stay in the database queue,
/// where the tests read their links.
@Suite struct EmailActionTests {
    /// The action link of the newest mail, its recipient and language. Moves the clock on by a second, so that
    /// the next mail is newer (mails of one instant have no order).
    static func latestMail(_ live: LiveHearth) async throws -> (link: String, recipient: String, languageCode: String) {
        let mail = try #require(try await live.services.store.recentMails(limit: 1).first)
        live.clock.advance(by: 1)
        let link = try #require(mail.textBody.split(whereSeparator: \.isWhitespace).map(String.init).first { $0.contains("oobCode=") })
        return (link, mail.recipient, mail.languageCode)
    }

    /// The code of the newest mail's link.
    static func latestCode(_ live: LiveHearth) async throws -> String {
        try #require(ActionCodeURL(link: try await latestMail(live).link)?.code)
    }

    /// The server's message behind an SDK error.
    static func serverMessage(_ error: NSError?) -> String? {
        error?.userInfo["HearthAuthServerMessageKey"] as? String
    }

    static func finishSettings() -> ActionCodeSettings {
        let settings = ActionCodeSettings()
        settings.url = URL(string: "https://localhost/finish")
        settings.handleCodeInApp = true
        return settings
    }

    @Test("password reset: mail in the Auth's language, verifyPasswordResetCode, confirmPasswordReset, the code works once")
    func passwordReset() async throws {
        try await withLiveHearth { live in
            let auth = makeAuth(live)
            try await auth.createUser(withEmail: "ada@example.com", password: "old password")
            try auth.signOut()
            auth.languageCode = "hi"
            try await auth.sendPasswordReset(withEmail: "Ada@Example.com")
            let mail = try await Self.latestMail(live)
            #expect(mail.recipient == "ada@example.com" && mail.languageCode == "hi")
            let url = try #require(ActionCodeURL(link: mail.link))
            #expect(url.operation == .passwordReset && url.apiKey != nil && url.languageCode == "hi")
            let code = try #require(url.code)

            #expect(try await auth.verifyPasswordResetCode(code) == "ada@example.com")
            #expect(await authError { try await auth.confirmPasswordReset(withCode: code, newPassword: "abc") } == .weakPassword)
            try await auth.confirmPasswordReset(withCode: code, newPassword: "new password")

            let signedIn = try await auth.signIn(withEmail: "ada@example.com", password: "new password")
            #expect(auth.currentUser === signedIn.user)
            #expect(await authError { try await auth.signIn(withEmail: "ada@example.com", password: "old password") } == .wrongPassword)
            #expect(await authError { try await auth.confirmPasswordReset(withCode: code, newPassword: "third password") } == .invalidActionCode)
            #expect(await authError { _ = try await auth.verifyPasswordResetCode(code) } == .invalidActionCode)
        }
    }

    @Test("the completion-handler forms report on the main queue; a reset with ActionCodeSettings carries the continue URL")
    func completionHandlers() async throws {
        try await withLiveHearth { live in
            let auth = makeAuth(live)
            try await auth.createUser(withEmail: "ada@example.com", password: "old password")
            let sent: NSError? = await withCheckedContinuation { continuation in
                auth.sendPasswordReset(withEmail: "ada@example.com", actionCodeSettings: Self.finishSettings()) { error in
                    continuation.resume(returning: error as NSError?)
                }
            }
            #expect(sent == nil)
            let url = try #require(ActionCodeURL(link: try await Self.latestMail(live).link))
            #expect(url.continueURL == URL(string: "https://localhost/finish"))
            let code = try #require(url.code)
            let email: String? = await withCheckedContinuation { continuation in
                auth.verifyPasswordResetCode(code) { email, _ in continuation.resume(returning: email) }
            }
            #expect(email == "ada@example.com")
            let info: ActionCodeInfo? = await withCheckedContinuation { continuation in
                auth.checkActionCode(code) { info, _ in continuation.resume(returning: info) }
            }
            #expect(info?.operation == .passwordReset)
            let failed: NSError? = await withCheckedContinuation { continuation in
                auth.applyActionCode(code) { error in continuation.resume(returning: error as NSError?) }
            }
            #expect(failed.map { AuthErrorCode($0) } == .invalidActionCode)
        }
    }

    @Test("ActionCodeSettings go out as sendOobCode's fields, the language as X-Firebase-Locale, the ID token for verification")
    func wireFields() async throws {
        // The link domain must be one the server knows (INVALID_HOSTING_LINK_DOMAIN otherwise, as at Firebase).
        try await withLiveHearth({ $0.email.authorizedDomains = ["example.page.link"] }) { live in
            let transport = RecordingTransport()
            let auth = makeAuth(live, transport: transport)
            let user = try await auth.createUser(withEmail: "ada@example.com", password: "old password").user
            auth.languageCode = "pt-BR"
            let settings = Self.finishSettings()
            settings.setIOSBundleID("com.example.ios")
            settings.setAndroidPackageName("com.example.android", installIfNotAvailable: true, minimumVersion: "12")
            settings.linkDomain = "example.page.link"
            try await user.sendEmailVerification(with: settings)

            let request = try #require(transport.requests.all.last { $0.url?.path.hasSuffix("accounts:sendOobCode") == true })
            #expect(request.value(forHTTPHeaderField: "X-Firebase-Locale") == "pt-BR")
            let body = try #require(try JSONSerialization.jsonObject(with: request.httpBody ?? Data()) as? [String: Any])
            #expect(body["requestType"] as? String == "VERIFY_EMAIL")
            let idToken = try await user.getIDToken()
            #expect(body["idToken"] as? String == idToken)
            #expect(body["continueUrl"] as? String == "https://localhost/finish")
            #expect(body["canHandleCodeInApp"] as? Bool == true)
            #expect(body["iOSBundleId"] as? String == "com.example.ios")
            #expect(body["androidPackageName"] as? String == "com.example.android")
            #expect(body["androidInstallApp"] as? Bool == true)
            #expect(body["androidMinimumVersion"] as? String == "12")
            #expect(body["linkDomain"] as? String == "example.page.link")
            #expect(body["email"] == nil && body["newEmail"] == nil)
            // The link carries the language (the mail itself falls back to a language with templates).
            #expect(ActionCodeURL(link: try await Self.latestMail(live).link)?.languageCode == "pt-br")
        }
    }

    @Test("an expired code is expiredActionCode for checkActionCode and confirmPasswordReset")
    func expiredCode() async throws {
        try await withLiveHearth { live in
            let auth = makeAuth(live)
            try await auth.createUser(withEmail: "ada@example.com", password: "old password")
            try await auth.sendPasswordReset(withEmail: "ada@example.com")
            let code = try await Self.latestCode(live)
            live.clock.advance(by: 3_601)
            #expect(await authError { _ = try await auth.checkActionCode(code) } == .expiredActionCode)
            #expect(await authError { try await auth.confirmPasswordReset(withCode: code, newPassword: "new password") } == .expiredActionCode)
        }
    }

    @Test("checkActionCode names each kind: reset, verification, sign-in, change of address, recovery")
    func checkEachKind() async throws {
        try await withLiveHearth({ $0.signIn.emailLinkEnabled = true }) { live in
            let auth = makeAuth(live)
            let user = try await auth.createUser(withEmail: "ada@example.com", password: "old password").user

            try await auth.sendPasswordReset(withEmail: "ada@example.com")
            let reset = try await auth.checkActionCode(try await Self.latestCode(live))
            #expect(reset.operation == .passwordReset && reset.email == "ada@example.com" && reset.previousEmail == nil)

            try await user.sendEmailVerification()
            let verify = try await auth.checkActionCode(try await Self.latestCode(live))
            #expect(verify.operation == .verifyEmail && verify.email == "ada@example.com" && verify.previousEmail == nil)

            try await auth.sendSignInLink(toEmail: "bob@example.com", actionCodeSettings: Self.finishSettings())
            let signIn = try await auth.checkActionCode(try await Self.latestCode(live))
            #expect(signIn.operation == .emailLink)

            try await user.sendEmailVerification(beforeUpdatingEmail: "ada@new.example")
            let changeCode = try await Self.latestCode(live)
            let change = try await auth.checkActionCode(changeCode)
            #expect(change.operation == .verifyAndChangeEmail && change.email == "ada@new.example" && change.previousEmail == "ada@example.com")

            // Using the change mails the old address a recovery link.
            try await auth.applyActionCode(changeCode)
            let recoveryMail = try await Self.latestMail(live)
            #expect(recoveryMail.recipient == "ada@example.com")
            let recoveryURL = try #require(ActionCodeURL(link: recoveryMail.link))
            #expect(recoveryURL.operation == .recoverEmail)
            let recovery = try await auth.checkActionCode(try #require(recoveryURL.code))
            #expect(recovery.operation == .recoverEmail)
            #expect(Set([recovery.email, recovery.previousEmail]) == Set(["ada@example.com", "ada@new.example"]))
        }
    }

    @Test("sendEmailVerification + applyActionCode: reload() shows the address verified")
    func verifyEmail() async throws {
        try await withLiveHearth { live in
            let auth = makeAuth(live)
            let user = try await auth.createUser(withEmail: "ada@example.com", password: "old password").user
            #expect(user.isEmailVerified == false)
            let sent: NSError? = await withCheckedContinuation { continuation in
                user.sendEmailVerification { error in continuation.resume(returning: error as NSError?) }
            }
            #expect(sent == nil)
            let mail = try await Self.latestMail(live)
            #expect(mail.recipient == "ada@example.com")
            let code = try #require(ActionCodeURL(link: mail.link)?.code)
            try await auth.applyActionCode(code)
            #expect(user.isEmailVerified == false)
            try await user.reload()
            #expect(user.isEmailVerified)
            #expect(auth.currentUser === user)
            #expect(await authError { try await auth.applyActionCode(code) } == .invalidActionCode)
        }
    }

    @Test("sendEmailVerification(beforeUpdatingEmail:) + applyActionCode: the address changes and the old session ends")
    func changeEmail() async throws {
        try await withLiveHearth { live in
            let auth = makeAuth(live)
            let user = try await auth.createUser(withEmail: "ada@example.com", password: "old password").user
            try await user.sendEmailVerification(beforeUpdatingEmail: "ada@new.example", actionCodeSettings: Self.finishSettings())
            let mail = try await Self.latestMail(live)
            #expect(mail.recipient == "ada@new.example")
            #expect(ActionCodeURL(link: mail.link)?.operation == .verifyAndChangeEmail)
            try await auth.applyActionCode(try #require(ActionCodeURL(link: mail.link)?.code))

            #expect(await authError { _ = try await user.getIDToken(forcingRefresh: true) } == .userTokenExpired)
            #expect(auth.currentUser == nil)
            let again = try await auth.signIn(withEmail: "ada@new.example", password: "old password")
            #expect(again.user.uid == user.uid && again.user.email == "ada@new.example" && again.user.isEmailVerified)
            #expect(await authError { try await auth.signIn(withEmail: "ada@example.com", password: "old password") } == .userNotFound)
        }
    }

    @Test("sendSignInLink, isSignIn(withEmailLink:), signIn(withEmail:link:): a new verified user, listeners hear it")
    func emailLinkSignIn() async throws {
        try await withLiveHearth({ $0.signIn.emailLinkEnabled = true }) { live in
            let auth = makeAuth(live)
            let events = Recorder<String>()
            let handle = auth.addStateDidChangeListener { _, user in events.append(user?.email ?? "nil") }
            defer { auth.removeStateDidChangeListener(handle) }
            await eventually { events.count == 1 }

            try await auth.sendSignInLink(toEmail: "Bob@Example.com", actionCodeSettings: Self.finishSettings())
            let mail = try await Self.latestMail(live)
            #expect(mail.recipient == "bob@example.com")
            #expect(auth.isSignIn(withEmailLink: mail.link))
            #expect(ActionCodeURL(link: mail.link)?.continueURL == URL(string: "https://localhost/finish"))
            #expect(!auth.isSignIn(withEmailLink: "https://localhost/finish?mode=resetPassword&oobCode=abc"))
            #expect(!auth.isSignIn(withEmailLink: ""))

            let wrong = await nsError { try await auth.signIn(withEmail: "eve@example.com", link: mail.link) }
            #expect(wrong.map { AuthErrorCode($0) } == .invalidEmail)
            #expect(wrong?.localizedDescription == "The email provided does not match the sign-in email address.")
            #expect(
                await authError { try await auth.signIn(withEmail: "bob@example.com", link: "https://localhost/finish?mode=verifyEmail&oobCode=x") }
                    == .invalidActionCode)

            let result = try await auth.signIn(withEmail: "bob@example.com", link: mail.link)
            #expect(result.additionalUserInfo?.isNewUser == true && result.additionalUserInfo?.providerID == "password")
            #expect(result.user.email == "bob@example.com" && result.user.isEmailVerified && !result.user.isAnonymous)
            #expect(auth.currentUser === result.user)
            await eventually { events.all == ["nil", "bob@example.com"] }
            #expect(await authError { try await auth.signIn(withEmail: "bob@example.com", link: mail.link) } == .invalidActionCode)

            // A second link signs the same account in.
            try auth.signOut()
            try await auth.sendSignInLink(toEmail: "bob@example.com", actionCodeSettings: Self.finishSettings())
            let second = try await auth.signIn(
                with: EmailAuthProvider.credential(withEmail: "bob@example.com", link: try await Self.latestMail(live).link))
            #expect(second.user.uid == result.user.uid && second.additionalUserInfo?.isNewUser == false)
        }
    }

    @Test("an anonymous user links an e-mail link credential and keeps its uid")
    func linkAnonymous() async throws {
        try await withLiveHearth({ $0.signIn.emailLinkEnabled = true }) { live in
            let auth = makeAuth(live)
            let user = try await auth.signInAnonymously().user
            try await auth.sendSignInLink(toEmail: "anna@example.com", actionCodeSettings: Self.finishSettings())
            let link = try await Self.latestMail(live).link
            let credential = EmailAuthProvider.credential(withEmail: "anna@example.com", link: link)
            let linked = try await user.link(with: credential)
            #expect(linked.user === user && auth.currentUser === user)
            #expect(user.isAnonymous == false && user.email == "anna@example.com" && user.isEmailVerified)
            #expect(user.providerData.map(\.providerID) == ["password"])

            // Re-authentication with another link of the same address.
            try await auth.sendSignInLink(toEmail: "anna@example.com", actionCodeSettings: Self.finishSettings())
            let again = try await user.reauthenticate(
                with: EmailAuthProvider.credential(withEmail: "anna@example.com", link: try await Self.latestMail(live).link))
            #expect(again.user.uid == user.uid)
        }
    }

    @Test("ActionCodeURL reads Firebase's query keys, unwraps link= and deep_link_id=, and refuses incomplete links")
    func actionCodeURL() throws {
        let plain =
            "https://auth.example.com/__/auth/action?mode=verifyAndChangeEmail&oobCode=abc%2B1&apiKey=key"
            + "&continueUrl=https%3A%2F%2Flocalhost%2Ffinish%3Fx%3D1&lang=pt-br&tenantId=tenant-1#fragment"
        let url = try #require(ActionCodeURL(link: plain))
        #expect(url.operation == .verifyAndChangeEmail && url.code == "abc+1" && url.apiKey == "key")
        #expect(url.continueURL == URL(string: "https://localhost/finish?x=1"))
        #expect(url.languageCode == "pt-br" && url.tenantID == "tenant-1")

        let inner = "https://auth.example.com/__/auth/action?mode=signIn&oobCode=code&apiKey=key"
        let escaped = inner.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let wrapped = try #require(ActionCodeURL(link: "https://example.page.link/?link=\(escaped)&apn=com.example"))
        #expect(wrapped.operation == .emailLink && wrapped.code == "code" && wrapped.continueURL == nil && wrapped.languageCode == nil)
        let deep =
            "https://example.com/app?deep_link_id=" + "https://example.page.link/?link=\(escaped)".addingPercentEncoding(
                withAllowedCharacters: .alphanumerics)!
        #expect(ActionCodeURL(link: deep)?.code == "code")

        for mode in [
            "resetPassword": ActionCodeOperation.passwordReset, "verifyEmail": .verifyEmail, "recoverEmail": .recoverEmail, "other": .unknown,
        ] {
            #expect(ActionCodeURL(link: "https://x/?mode=\(mode.key)&oobCode=c&apiKey=k")?.operation == mode.value)
        }
        #expect(ActionCodeURL(link: "https://x/?mode=signIn&oobCode=c") == nil)
        #expect(ActionCodeURL(link: "https://x/?mode=signIn&apiKey=k") == nil)
        #expect(ActionCodeURL(link: "https://x/?oobCode=c&apiKey=k") == nil)
        #expect(ActionCodeURL(link: "not a link") == nil)
        // Bad percent-encoding drops the parameter; NUL bytes and long values are kept as text, nothing more.
        #expect(ActionCodeURL(link: "https://x/?mode=signIn&oobCode=%zz&apiKey=k") == nil)
        let odd = ActionCodeURL(link: "https://x/?mode=signIn&oobCode=a%00b&apiKey=\(String(repeating: "k", count: 100_000))")
        #expect(odd?.code == "a\u{0}b" && odd?.apiKey?.count == 100_000)
        // A link wrapping itself ends after a few levels.
        #expect(ActionCodeURL(link: "https://x/?link=https%3A%2F%2Fx%2F%3Flink%3Dhttps%253A%252F%252Fx") == nil)
        #expect(ActionCodeURL(link: "") == nil)
    }

    @Test("sendOobCode's errors through the server: missingEmail, invalidEmail, userNotFound, continue URLs, Android package")
    func sendErrors() async throws {
        try await withLiveHearth { live in
            let auth = makeAuth(live)
            let user = try await auth.createUser(withEmail: "ada@example.com", password: "old password").user

            let missing = await nsError { try await auth.sendPasswordReset(withEmail: "") }
            #expect(missing.map { AuthErrorCode($0) } == .missingEmail && Self.serverMessage(missing) == "MISSING_EMAIL")
            let invalid = await nsError { try await auth.sendPasswordReset(withEmail: "not an email") }
            #expect(invalid.map { AuthErrorCode($0) } == .invalidEmail && Self.serverMessage(invalid) == "INVALID_EMAIL")
            let unknown = await nsError { try await auth.sendPasswordReset(withEmail: "nobody@example.com") }
            #expect(unknown.map { AuthErrorCode($0) } == .userNotFound && Self.serverMessage(unknown) == "EMAIL_NOT_FOUND")

            let badURL = ActionCodeSettings()
            badURL.url = URL(string: "javascript:alert(1)")
            let invalidURL = await nsError { try await auth.sendPasswordReset(withEmail: "ada@example.com", actionCodeSettings: badURL) }
            #expect(invalidURL.map { AuthErrorCode($0) } == .invalidContinueURI && Self.serverMessage(invalidURL) == "INVALID_CONTINUE_URI")
            let foreign = ActionCodeSettings()
            foreign.url = URL(string: "https://evil.example/done")
            let unauthorized = await nsError { try await user.sendEmailVerification(with: foreign) }
            #expect(unauthorized.map { AuthErrorCode($0) } == .unauthorizedDomain)
            #expect(unauthorized?.localizedDescription == "Domain not whitelisted by project")
            #expect(Self.serverMessage(unauthorized) == "UNAUTHORIZED_DOMAIN : Domain not whitelisted by project")

            let android = ActionCodeSettings()
            android.setAndroidPackageName("", installIfNotAvailable: true, minimumVersion: "12")
            let noPackage = await nsError { try await auth.sendPasswordReset(withEmail: "ada@example.com", actionCodeSettings: android) }
            #expect(
                noPackage.map { AuthErrorCode($0) } == .missingAndroidPackageName && Self.serverMessage(noPackage) == "MISSING_ANDROID_PACKAGE_NAME")

            let noNewEmail = await nsError { try await user.sendEmailVerification(beforeUpdatingEmail: "") }
            #expect(noNewEmail.map { AuthErrorCode($0) } == .missingEmail && Self.serverMessage(noNewEmail) == "MISSING_NEW_EMAIL")
            let badNewEmail = await nsError { try await user.sendEmailVerification(beforeUpdatingEmail: "bad address") }
            #expect(badNewEmail.map { AuthErrorCode($0) } == .invalidEmail)

            let anonymous = try await makeAuth(live).signInAnonymously().user
            let noAddress = await nsError { try await anonymous.sendEmailVerification() }
            #expect(noAddress.map { AuthErrorCode($0) } == .missingEmail && Self.serverMessage(noAddress) == "MISSING_EMAIL")
            #expect(try await live.services.store.recentMails(limit: 10).isEmpty)
        }
    }

    @Test("code errors through the server: MISSING_OOB_CODE and INVALID_OOB_CODE are invalidActionCode; e-mail links need a continue URL")
    func codeErrors() async throws {
        try await withLiveHearth({ $0.signIn.emailLinkEnabled = true }) { live in
            let auth = makeAuth(live)
            let empty = await nsError { _ = try await auth.checkActionCode("") }
            #expect(empty.map { AuthErrorCode($0) } == .invalidActionCode && Self.serverMessage(empty) == "MISSING_OOB_CODE")
            let garbage = await nsError { try await auth.applyActionCode("garbage\u{0}") }
            #expect(garbage.map { AuthErrorCode($0) } == .invalidActionCode && Self.serverMessage(garbage) == "INVALID_OOB_CODE")
            let noURL = await nsError { try await auth.sendSignInLink(toEmail: "bob@example.com", actionCodeSettings: ActionCodeSettings()) }
            #expect(noURL.map { AuthErrorCode($0) } == .missingContinueURI && Self.serverMessage(noURL) == "MISSING_CONTINUE_URI")
        }
    }

    @Test("e-mail link sign-in switched off is operationNotAllowed")
    func emailLinksDisabled() async throws {
        try await withLiveHearth({ $0.signIn.emailLinkEnabled = false }) { live in
            let auth = makeAuth(live)
            #expect(
                await authError { try await auth.sendSignInLink(toEmail: "bob@example.com", actionCodeSettings: Self.finishSettings()) }
                    == .operationNotAllowed)
        }
    }

    @Test("a sixth reset mail to one address within the hour is tooManyRequests (RESET_PASSWORD_EXCEED_LIMIT)")
    func resetLimit() async throws {
        try await withLiveHearth { live in
            let auth = makeAuth(live)
            try await auth.createUser(withEmail: "ada@example.com", password: "old password")
            for _ in 0..<5 { try await auth.sendPasswordReset(withEmail: "ada@example.com") }
            let refused = await nsError { try await auth.sendPasswordReset(withEmail: "ada@example.com") }
            #expect(refused.map { AuthErrorCode($0) } == .tooManyRequests)
            #expect(Self.serverMessage(refused)?.hasPrefix("RESET_PASSWORD_EXCEED_LIMIT") == true)
        }
    }
}
