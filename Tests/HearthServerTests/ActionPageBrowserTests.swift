import AsyncHTTPClient
import Foundation
import HTTPTypes
import HearthCore
import HearthMessages
import HearthServer
import HearthTesting
import HearthWire
import Testing

/// The action page (`/__/auth/action`) as a person uses it: in a real headless Chromium, against a live
/// development-mode server, links taken from the mails the server queued. Each page is screenshotted; with
/// `HEARTH_SCREENSHOT_DIRECTORY` set the PNGs land there (docs/screenshots was made that way), else in a temporary
/// directory.
@Suite("Action page in Chromium", .serialized)
struct ActionPageBrowserTests {
    @Test("reset: the form, mismatched passwords and a short one shown as errors, then a new password that signs in")
    func resetPassword() async throws {
        try await withLiveHearth { live in
            let client = FirebaseTestClient(baseURL: live.baseURL)
            _ = try await client.signUp(email: "ada@example.com", password: "old password")
            let sent = try await client.post(
                "/v1/accounts:sendOobCode",
                ["requestType": .string("PASSWORD_RESET"), "email": .string("ada@example.com"), "continueUrl": .string("http://localhost/app")])
            try #require(sent.status == .ok)
            let link = try await Self.newestLink(live)
            try await HeadlessBrowser.with { browser in
                let page = try await browser.newPage()
                _ = try await page.navigate(to: try #require(URL(string: link)))
                #expect(page.status == 200)
                #expect(try await page.text(of: "h1") == "Reset your password")
                try await Self.screenshot(page, "action-reset-form")

                try await page.fill("#new-password", with: "first choice")
                try await page.fill("#confirm-password", with: "second choice")
                _ = try await page.clickAndWaitForNavigation("button[type=submit]")
                #expect(page.status == 400)
                #expect(try await page.text(of: "#form-error").contains("do not match"))
                try await Self.screenshot(page, "action-reset-mismatch")

                try await page.fill("#new-password", with: "abc")
                try await page.fill("#confirm-password", with: "abc")
                _ = try await page.clickAndWaitForNavigation("button[type=submit]")
                #expect(try await page.text(of: "#form-error").contains("6"))

                try await page.fill("#new-password", with: "a brand new password")
                try await page.fill("#confirm-password", with: "a brand new password")
                _ = try await page.clickAndWaitForNavigation("button[type=submit]")
                #expect(page.status == 200)
                #expect(try await page.text(of: "h1") == "Your password was changed")
                #expect(try await page.evaluate("document.querySelector('a[href=\"http://localhost/app\"]') !== null") == .bool(true))
                #expect(page.consoleErrors.isEmpty, "\(page.consoleErrors)")
                try await Self.screenshot(page, "action-reset-done")

                // The same link again: used up.
                _ = try await page.navigate(to: try #require(URL(string: link)))
                #expect(page.status == 400)
                #expect(try await page.text(of: "h1") == "This link is not valid")
                try await Self.screenshot(page, "action-invalid")
            }
            #expect(try await client.signIn(email: "ada@example.com", password: "a brand new password").status == .ok)
            #expect(try await client.signIn(email: "ada@example.com", password: "old password").errorMessage == "INVALID_PASSWORD")
        }
    }

    @Test("verify, change and recover an address: each page asks first, acts on the button; an expired link says so")
    func verifyChangeRecover() async throws {
        try await withLiveHearth { live in
            let client = FirebaseTestClient(baseURL: live.baseURL)
            let ada = try await client.signUp(email: "ada@example.com")
            try #require(
                try await client.post(
                    "/v1/accounts:sendOobCode",
                    ["requestType": .string("VERIFY_EMAIL"), "idToken": .string(ada.idToken ?? ""), "continueUrl": .string("http://localhost/app")]
                ).status == .ok)
            let verify = try await Self.newestLink(live)
            try await HeadlessBrowser.with { browser in
                let page = try await browser.newPage()
                _ = try await page.navigate(to: try #require(URL(string: verify)))
                #expect(try await page.text(of: "h1") == "Verify your e-mail address")
                try await Self.screenshot(page, "action-verify-confirm")
                // Opening the link did not use it up.
                #expect(try await live.services.store.user(email: "ada@example.com")?.emailVerified == false)
                _ = try await page.clickAndWaitForNavigation("button[type=submit]")
                #expect(try await page.text(of: "h1") == "Your e-mail address is verified")
                try await Self.screenshot(page, "action-verify-done")
                #expect(try await live.services.store.user(email: "ada@example.com")?.emailVerified == true)

                try #require(
                    try await client.post(
                        "/v1/accounts:sendOobCode",
                        [
                            "requestType": .string("VERIFY_AND_CHANGE_EMAIL"), "idToken": .string(ada.idToken ?? ""),
                            "newEmail": .string("ada.new@example.com"),
                        ]
                    ).status == .ok)
                _ = try await page.navigate(to: try #require(URL(string: try await Self.newestLink(live))))
                #expect(try await page.text(of: "h1") == "Change your e-mail address")
                try await Self.screenshot(page, "action-change-confirm")
                _ = try await page.clickAndWaitForNavigation("button[type=submit]")
                #expect(try await page.text(of: "h1") == "Your e-mail address was changed")
                try await Self.screenshot(page, "action-change-done")

                // The old address got a recovery link.
                let recovery = try await Self.newestLink(live)
                #expect(recovery.contains("mode=recoverEmail"))
                _ = try await page.navigate(to: try #require(URL(string: recovery)))
                #expect(try await page.text(of: "h1") == "Restore your e-mail address")
                try await Self.screenshot(page, "action-recover-confirm")
                _ = try await page.clickAndWaitForNavigation("button[type=submit]")
                #expect(try await page.text(of: "h1") == "Your e-mail address was restored")
                try await Self.screenshot(page, "action-recover-done")
                #expect(try await live.services.store.user(email: "ada@example.com")?.uid == ada.localId)
                // Offered: a reset mail to the restored address.
                _ = try await page.clickAndWaitForNavigation("button[type=submit]")
                #expect(try await page.text(of: "h1") == "Check your e-mail")
                try await Self.screenshot(page, "action-reset-mail-sent")
                #expect(try await Self.newestLink(live).contains("mode=resetPassword"))

                // An expired link.
                _ = try await client.post(
                    "/v1/accounts:sendOobCode", ["requestType": .string("PASSWORD_RESET"), "email": .string("ada@example.com")])
                let expiring = try await Self.newestLink(live)
                live.clock.advance(by: 3_601)
                _ = try await page.navigate(to: try #require(URL(string: expiring)))
                #expect(page.status == 400)
                #expect(try await page.text(of: "h1") == "This link has expired")
                try await Self.screenshot(page, "action-expired")
                #expect(page.consoleErrors.isEmpty, "\(page.consoleErrors)")
            }
        }
    }

    @Test("a Hindi link shows a Hindi page; a sign-in link goes on to the app with the link's parameters")
    func languageAndSignIn() async throws {
        try await withLiveHearth({ $0.signIn.emailLinkEnabled = true }) { live in
            let client = FirebaseTestClient(baseURL: live.baseURL)
            _ = try await client.signUp(email: "ada@example.com")
            _ = try await client.post(
                "/v1/accounts:sendOobCode", json: #"{"requestType":"PASSWORD_RESET","email":"ada@example.com"}"#,
                headers: [HTTPField.Name("X-Firebase-Locale")!: "hi-IN"])
            let hindi = try await Self.newestLink(live)
            #expect(hindi.contains("lang=hi-in"))
            try await HeadlessBrowser.with { browser in
                let page = try await browser.newPage()
                _ = try await page.navigate(to: try #require(URL(string: hindi)))
                #expect(try await page.evaluate("document.documentElement.lang") == .string("hi"))
                try await Self.screenshot(page, "action-reset-form-hindi")

                let sent = try await client.post(
                    "/v1/accounts:sendOobCode",
                    [
                        "requestType": .string("EMAIL_SIGNIN"), "email": .string("bob@example.com"),
                        "continueUrl": .string("\(live.baseURL)/healthz?from=mail"),
                    ])
                try #require(sent.status == .ok, "\(String(decoding: sent.body, as: UTF8.self))")
                let signIn = try await Self.newestLink(live)
                let landed = try await page.navigate(to: try #require(URL(string: signIn)))
                #expect(landed.path == "/healthz")
                let query = URLComponents(url: landed, resolvingAgainstBaseURL: false)?.queryItems ?? []
                #expect(query.first { $0.name == "from" }?.value == "mail")
                #expect(query.first { $0.name == "mode" }?.value == "signIn")
                let code = try #require(query.first { $0.name == "oobCode" }?.value)
                let signedIn = try await client.post(
                    "/v1/accounts:signInWithEmailLink", ["email": .string("bob@example.com"), "oobCode": .string(code)])
                #expect(signedIn.status == .ok && signedIn["isNewUser"] == .bool(true))
            }
        }
    }

    @Test("development mode's outbox: /sandbox/mail lists the mails newest first with clickable links; the emulator's oobCodes listing")
    func outbox() async throws {
        try await withLiveHearth { live in
            let client = FirebaseTestClient(baseURL: live.baseURL)
            _ = try await client.signUp(email: "ada@example.com")
            _ = try await client.signUp(email: "bob&co@example.com")
            for email in ["ada@example.com", "bob&co@example.com"] {
                #expect(
                    try await client.post("/v1/accounts:sendOobCode", ["requestType": .string("PASSWORD_RESET"), "email": .string(email)]).status
                        == .ok)
            }
            let listing = try await client.raw("/emulator/v1/projects/\(live.projectID)/oobCodes", method: .get)
            let codes = try #require(listing.json["oobCodes"])
            guard case .array(let items) = codes, items.count == 2, case .object(let first) = items[0] else {
                Issue.record("unexpected listing \(codes)")
                return
            }
            #expect(first["email"] == .string("ada@example.com") && first["requestType"] == .string("PASSWORD_RESET"))
            let otherProject = try await client.raw("/emulator/v1/projects/other/oobCodes", method: .get)
            #expect(otherProject.status == .notFound && otherProject.errorMessage == "PROJECT_NOT_FOUND")

            try await HeadlessBrowser.with { browser in
                let page = try await browser.newPage()
                _ = try await page.navigate(to: try #require(URL(string: "\(live.baseURL)/sandbox/mail")))
                #expect(page.status == 200)
                #expect(try await page.evaluate("document.querySelectorAll('li').length") == .number(2))
                // Newest first, the address escaped.
                #expect(try await page.text(of: "li .meta").contains("bob&co@example.com"))
                try await Self.screenshot(page, "sandbox-mail")
                _ = try await page.clickAndWaitForNavigation("li:last-child pre a")
                #expect(try await page.text(of: "h1") == "Reset your password")
                #expect(try await page.text(of: "main").contains("ada@example.com"))
                #expect(page.consoleErrors.isEmpty, "\(page.consoleErrors)")
            }
        }
    }

    @Test("a second factor added: the mail's revert link in each language asks first, then withdraws the factor and ends the sessions")
    func revertSecondFactor() async throws {
        let languages = [
            ("en", "Remove the second factor", "The second factor was removed"),
            ("hi", "दूसरा चरण हटाएँ", "दूसरा चरण हटा दिया गया"),
            ("id", "Hapus faktor kedua", "Faktor kedua telah dihapus"),
            ("es", "Quitar el segundo factor", "Se quitó el segundo factor"),
            ("bn", "দ্বিতীয় ধাপটি সরান", "দ্বিতীয় ধাপটি সরানো হয়েছে"),
        ]
        try await withLiveHearth({ MultiFactorHTTPTests.mfaOn(&$0) }) { live in
            let client = FirebaseTestClient(baseURL: live.baseURL)
            try await HeadlessBrowser.with { browser in
                let page = try await browser.newPage()
                for (language, confirm, done) in languages {
                    let email = "factor-\(language)@example.com"
                    let created = try await client.signUp(email: email)
                    _ = try await live.services.store.updateUser(uid: created.localId, session: nil) { $0.emailVerified = true }
                    let idToken = try #require(try await client.signIn(email: email).string("idToken"))
                    let started = try await client.post(
                        "/v2/accounts/mfaEnrollment:start", ["idToken": .string(idToken), "totpEnrollmentInfo": .object([:])])
                    let info = try #require(try started.decode(StartMFAEnrollmentResponse.self).totpSessionInfo)
                    let code = RFC6238.code(key: try #require(RFC6238.base32Decode(info.sharedSecretKey)), at: live.clock.now)
                    let finalized = try await client.post(
                        "/v2/accounts/mfaEnrollment:finalize",
                        json: JSONValue.object([
                            "idToken": .string(idToken), "displayName": .string("Authenticator"),
                            "totpVerificationInfo": .object(["sessionInfo": .string(info.sessionInfo), "verificationCode": .string(code)]),
                        ]).jsonText, headers: [HTTPField.Name("X-Firebase-Locale")!: language])
                    let refreshToken = try #require(finalized.string("refreshToken"), "\(finalized.json)")
                    let mail = try #require(try await live.services.store.recentMails(limit: 1).first)
                    #expect(mail.purpose == "REVERT_SECOND_FACTOR_ADDITION" && mail.recipient == email && mail.languageCode == language)
                    #expect(mail.textBody.contains("Authenticator (TOTP)"))
                    let link = try await Self.newestLink(live)
                    #expect(link.contains("mode=revertSecondFactorAddition"))

                    _ = try await page.navigate(to: try #require(URL(string: link)))
                    #expect(try await page.text(of: "h1") == confirm)
                    #expect(try await page.evaluate("document.documentElement.lang") == .string(language))
                    if language == "en" { try await Self.screenshot(page, "action-revert-factor-confirm") }
                    // Opening the link did not withdraw anything.
                    #expect(try await live.services.store.user(uid: created.localId)?.secondFactors.count == 1)
                    live.clock.advance(by: 1)
                    _ = try await page.clickAndWaitForNavigation("button[type=submit]")
                    #expect(try await page.text(of: "h1") == done)
                    if language == "en" { try await Self.screenshot(page, "action-revert-factor-done") }
                    #expect(try await live.services.store.user(uid: created.localId)?.secondFactors.isEmpty == true)
                    #expect(try await client.refresh(refreshToken).errorMessage == "TOKEN_EXPIRED")
                    // The link works once.
                    _ = try await page.navigate(to: try #require(URL(string: link)))
                    #expect(page.status == 400)
                }
                #expect(page.consoleErrors.isEmpty, "\(page.consoleErrors)")
            }
        }
    }

    // MARK: Helpers

    /// The action link of the newest mail the server queued.
    static func newestLink(_ live: LiveHearth) async throws -> String {
        let mail = try #require(try await live.services.store.recentMails(limit: 1).first)
        return try #require(mail.textBody.split(whereSeparator: \.isWhitespace).map(String.init).first { $0.contains("oobCode=") })
    }

    static func screenshot(_ page: BrowserPage, _ name: String) async throws {
        let directory =
            ProcessInfo.processInfo.environment["HEARTH_SCREENSHOT_DIRECTORY"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("hearth-screenshots")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try await page.screenshot(to: directory.appendingPathComponent("\(name).png"))
    }
}
