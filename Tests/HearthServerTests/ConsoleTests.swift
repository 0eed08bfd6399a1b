import AsyncHTTPClient
import Foundation
import HearthConfiguration
import HearthConsole
import HearthCore
import HearthTesting
import NIOCore
import NIOHTTP1
import Testing

@testable import HearthServer

/// The console (`/console`) as operators use it, against a live production-mode server: signing in with a password and
/// an authenticator code (computed here from RFC 6238) or a recovery code, sessions that time out on the server's
/// clock, the users' listing, search and pages, every change with its audit event naming the operator, and what is
/// refused: other sites' requests, missing form tokens, a viewer's change, bad claims. In Chromium: the sign-in, and a
/// hostile display name rendered inert.
@Suite("Console", .serialized)
struct ConsoleTests {
    static let adminToken = "console-test-admin-token-0123456789"
    static let password = "correct horse battery staple"

    // MARK: Signing in

    @Test("Chromium: password, then the authenticator's code; the users page with the operator named; CSP holds; sign out")
    func signInInChromium() async throws {
        try await Self.withConsole { live in
            let added = try await Self.addOperator(live, "ada@example.com", role: .editor)
            try await Self.createUser(live, email: "grace@example.com")
            try await HeadlessBrowser.with { browser in
                let page = try await browser.newPage()
                // `localhost`: a name browsers treat as secure, so they keep the `Secure` cookies over plain HTTP.
                let base = "http://localhost:\(live.port)"
                _ = try await page.navigate(to: try #require(URL(string: base + "/console/users")))
                #expect(page.url?.path == "/console/sign-in")
                #expect(try await page.text(of: "h1") == "Sign in to the console")
                try await page.fill("#email", with: "ada@example.com")
                try await page.fill("#password", with: Self.password)
                _ = try await page.clickAndWaitForNavigation("button[type=submit]")
                let shown = try await page.evaluate("document.body.innerText + ' ' + location.href")
                #expect(try await page.text(of: "h1") == "Your authenticator's code", "\(shown)")
                try await page.fill("#code", with: RFC6238.code(key: added.key, at: live.clock.now))
                _ = try await page.clickAndWaitForNavigation("button[type=submit]")
                #expect(page.url?.path == "/console/users")
                #expect(try await page.text(of: "#operator").contains("ada@example.com"))
                #expect(try await page.text(of: "#users").contains("grace@example.com"))
                // The style sheet loaded under the policy (no inline style or script anywhere).
                #expect(try await page.evaluate("getComputedStyle(document.querySelector('main')).maxWidth") != .string("none"))
                #expect(try await page.evaluate("document.scripts.length") == .number(0))
                #expect(page.consoleErrors.isEmpty, "\(page.consoleErrors)")
                _ = try await page.clickAndWaitForNavigation("header .who form button")
                #expect(page.url?.path == "/console/sign-in")
                #expect(try await page.text(of: "#notice").contains("signed out"))
                _ = try await page.navigate(to: try #require(URL(string: base + "/console/users")))
                #expect(page.url?.path == "/console/sign-in")
            }
            let events = try await live.services.store.auditEvents(uid: nil, kind: .consoleSignedIn, after: nil, limit: 10)
            #expect(events.map(\.actorID) == ["operator:ada@example.com"])
            #expect(events.first?.method == "totp")
        }
    }

    @Test("a wrong password, a wrong code and a code used twice are refused; a recovery code works once")
    func codesAndRecoveryCodes() async throws {
        try await Self.withConsole { live in
            let added = try await Self.addOperator(live, "ada@example.com", role: .viewer)
            let client = ConsoleHTTPClient(baseURL: live.baseURL)
            #expect(try await client.post("/console/sign-in", ["email": "ada@example.com", "password": "not the password"]).status == 401)
            #expect(try await client.post("/console/sign-in", ["email": "nobody@example.com", "password": Self.password]).status == 401)
            #expect(client.cookie("hearth_console_pending") == nil)

            #expect(try await client.post("/console/sign-in", ["email": "ADA@example.com", "password": Self.password]).status == 303)
            let codePage = try await client.get("/console/sign-in")
            let csrf = try #require(codePage.csrf)
            let wrong = try await client.post("/console/sign-in/code", ["csrf": csrf, "code": "000000"])
            #expect(wrong.status == 401)
            #expect(wrong.body.contains("not right"))
            #expect(try await client.post("/console/sign-in/code", ["csrf": csrf, "code": added.recoveryCodes[0].lowercased()]).status == 303)
            #expect(client.cookie("hearth_console") != nil)
            #expect(try await client.get("/console/users").status == 200)

            // The same recovery code again: refused. A TOTP code works, once.
            let second = ConsoleHTTPClient(baseURL: live.baseURL)
            _ = try await second.post("/console/sign-in", ["email": "ada@example.com", "password": Self.password])
            let secondCSRF = try #require(try await second.get("/console/sign-in").csrf)
            #expect(try await second.post("/console/sign-in/code", ["csrf": secondCSRF, "code": added.recoveryCodes[0]]).status == 401)
            let code = RFC6238.code(key: added.key, at: live.clock.now)
            #expect(try await second.post("/console/sign-in/code", ["csrf": secondCSRF, "code": code]).status == 303)
            let third = ConsoleHTTPClient(baseURL: live.baseURL)
            _ = try await third.post("/console/sign-in", ["email": "ada@example.com", "password": Self.password])
            let thirdCSRF = try #require(try await third.get("/console/sign-in").csrf)
            #expect(try await third.post("/console/sign-in/code", ["csrf": thirdCSRF, "code": code]).status == 401)

            let stored = try #require(try await live.services.store.consoleOperator(email: "ada@example.com"))
            #expect(stored.recoveryCodeHashes.count == 9)
            #expect(!stored.recoveryCodeHashes.contains(added.recoveryCodes[1]))
            #expect(stored.totpSecret.hasPrefix("hearth-sealed:"))
            let failures = try await live.services.store.auditEvents(uid: nil, kind: .consoleSignInFailed, after: nil, limit: 20)
            #expect(Set(failures.compactMap { $0.details["reason"] }) == ["wrong-password", "unknown-operator", "wrong-code"])
        }
    }

    @Test("after repeated wrong passwords the operator must wait")
    func lockout() async throws {
        try await Self.withConsole { live in
            _ = try await Self.addOperator(live, "ada@example.com", role: .viewer)
            let client = ConsoleHTTPClient(baseURL: live.baseURL)
            var statuses: [Int] = []
            for _ in 0..<12 {
                statuses.append(try await client.post("/console/sign-in", ["email": "ada@example.com", "password": "wrong password!"]).status)
            }
            #expect(statuses.contains(429))
            let locked = try await client.post("/console/sign-in", ["email": "ada@example.com", "password": Self.password])
            #expect(locked.status == 429)
            #expect(locked.body.contains("Too many wrong attempts"))
        }
    }

    @Test("a session ends after 30 idle minutes and after 12 hours however busy; signing out ends it at once")
    func sessionExpiry() async throws {
        try await Self.withConsole { live in
            let added = try await Self.addOperator(live, "ada@example.com", role: .viewer)
            let client = try await Self.signIn(live, added)
            live.clock.advance(by: 29 * 60)
            #expect(try await client.get("/console/users").status == 200)
            live.clock.advance(by: 29 * 60)
            #expect(try await client.get("/console/users").status == 200)
            live.clock.advance(by: 31 * 60)
            let expired = try await client.get("/console/users")
            #expect(expired.status == 303)
            #expect(expired.location == "/console/sign-in?reason=expired")

            let busy = try await Self.signIn(live, added)
            for _ in 0..<26 {
                live.clock.advance(by: 28 * 60)
                _ = try await busy.get("/console/users")
            }
            #expect(try await busy.get("/console/users").status == 303)
        }
    }

    // MARK: Users

    @Test("search by e-mail prefix, phone, uid and provider identity; listing pages by creation and last sign-in")
    func searchAndListing() async throws {
        try await Self.withConsole { live in
            let added = try await Self.addOperator(live, "ada@example.com", role: .viewer)
            let client = try await Self.signIn(live, added)
            for index in 0..<55 {
                live.clock.advance(by: 1)
                try await Self.createUser(live, email: "user\(String(format: "%02d", index))@example.com")
            }
            let phoned = try await Self.createUser(live, email: nil, phone: "+15555550123")
            let first = try await client.get("/console/users")
            #expect(first.status == 200)
            #expect(first.body.contains("+15555550123"))
            let next = try #require(first.body.firstMatch(of: #/id="next" rel="next" href="([^"]+)"/#).map { String($0.output.1) })
            let second = try await client.get(next.replacingOccurrences(of: "&amp;", with: "&"))
            #expect(second.body.contains("user00@example.com"))
            #expect(!second.body.contains("user54@example.com"))
            #expect(try await client.get("/console/users?sort=lastSignIn").status == 200)
            #expect(try await client.get("/console/users?after=garbage%00").body.contains("not one this console made"))

            let prefix = try await client.get("/console/users?q=user1")
            #expect(prefix.body.contains("user10@example.com") && prefix.body.contains("user19@example.com"))
            #expect(!prefix.body.contains("user20@example.com"))
            #expect(try await client.get("/console/users?q=%2B15555550123").body.contains(phoned))
            #expect(try await client.get("/console/users?q=\(phoned)").body.contains("+15555550123"))
            #expect(try await client.get("/console/users?q=nobody-here").body.contains("No user matches"))
            #expect(try await client.get("/console/users?q=%00%FF%3Cscript%3E").status == 200)

            let userPage = try await client.get("/console/users/\(phoned)")
            #expect(userPage.status == 200)
            #expect(userPage.body.contains("admin.user_created"))
            #expect(try await client.get("/console/users/no-such-user").status == 404)
            // A viewer sees no forms of changes.
            #expect(!userPage.body.contains("/disable\""))
        }
    }

    @Test("every change of an editor, each with its audit event naming the operator")
    func changesWithAuditEvents() async throws {
        try await Self.withConsole { live in
            let added = try await Self.addOperator(live, "ed@example.com", role: .editor)
            let client = try await Self.signIn(live, added)
            let uid = try await Self.createUser(live, email: "grace@example.com", password: "grace's password")
            try await live.services.store.updateUser(uid: uid, session: nil) { user in
                user.providers.append(ProviderLink(providerID: "google.com", rawID: "g-123", email: "grace@gmail.example"))
                user.secondFactors = [
                    SecondFactorEnrollment(
                        id: "factor-1", displayName: "phone", enrolledAt: Date(timeIntervalSince1970: 1_700_000_000), factor: .phone("+15555550100"))
                ]
            }
            let store = live.services.store
            func post(_ action: String, _ form: [String: String] = [:]) async throws -> ConsoleHTTPClient.Result {
                let page = try await client.get("/console/users/\(uid)")
                return try await client.post("/console/users/\(uid)/\(action)", form.merging(["csrf": try #require(page.csrf)]) { a, _ in a })
            }
            #expect(try await post("disable").status == 303)
            #expect(try await store.user(uid: uid)?.disabled == true)
            #expect(try await client.get("/console/users/\(uid)?done=disable").body.contains("cannot sign in"))
            #expect(try await post("enable").status == 303)
            #expect(try await store.user(uid: uid)?.disabled == false)
            live.clock.advance(by: 10)
            #expect(try await post("revoke-sessions").status == 303)
            #expect(try await store.user(uid: uid)?.validSince ?? .distantPast >= live.clock.now)
            let before = try #require(try await store.user(uid: uid)?.passwordHash)
            #expect(try await post("password", ["password": "abc"]).status == 400)
            #expect(try await post("password", ["password": "a new password"]).status == 303)
            #expect(try await store.user(uid: uid)?.passwordHash != before)
            #expect(try await post("claims", ["claims": #"{"admin": true}"#]).status == 303)
            #expect(try await store.user(uid: uid)?.customAttributes == #"{"admin": true}"#)
            #expect(try await post("remove-factor", ["enrollment": "factor-1"]).status == 303)
            #expect(try await store.user(uid: uid)?.secondFactors.isEmpty == true)
            #expect(try await post("unlink", ["provider": "google.com"]).status == 303)
            #expect(try await store.user(uid: uid)?.providers.isEmpty == true)
            #expect(try await post("unlink", ["provider": "facebook.com"]).status == 400)
            #expect(try await post("no-such-action").status == 404)

            let refused = try await post("delete", ["confirm": "not the uid"])
            #expect(refused.status == 400)
            #expect(refused.body.contains("type its uid"))
            #expect(try await store.user(uid: uid) != nil)
            #expect(try await post("delete", ["confirm": "GRACE@example.com"]).status == 303)
            #expect(try await store.user(uid: uid) == nil)

            let events = try await store.auditEvents(uid: uid, kind: nil, after: nil, limit: 50).filter { $0.actorID == "operator:ed@example.com" }
            #expect(
                events.filter { $0.kind == .adminUserUpdated }.compactMap { $0.details["fields"] }.sorted()
                    == ["customAttributes", "deleteProvider", "disableUser", "disableUser", "mfa", "password", "validSince"])
            #expect(events.filter { $0.kind == .adminUserDeleted }.count == 1)

            // Creating a user.
            let form = try await client.get("/console/users/new")
            let created = try await client.post(
                "/console/users", ["csrf": try #require(form.csrf), "email": "new@example.com", "password": "new password", "displayName": "New"])
            #expect(created.status == 303)
            let newUID = try #require(created.location?.split(separator: "/").last?.split(separator: "?").first.map(String.init))
            #expect(try await store.user(uid: newUID)?.email == "new@example.com")
            #expect(
                try await store.auditEvents(uid: newUID, kind: .adminUserCreated, after: nil, limit: 5).first?.actorID == "operator:ed@example.com")
            let duplicate = try await client.post("/console/users", ["csrf": try #require(form.csrf), "email": "new@example.com"])
            #expect(duplicate.status == 400)
            #expect(duplicate.body.contains("Another user has that e-mail address"))
        }
    }

    @Test("custom claims that are not JSON, too large or reserved are refused with a clear message")
    func claimsRefused() async throws {
        try await Self.withConsole { live in
            let client = try await Self.signIn(live, try await Self.addOperator(live, "ed@example.com", role: .editor))
            let uid = try await Self.createUser(live, email: "grace@example.com")
            let csrf = try #require(try await client.get("/console/users/\(uid)").csrf)
            for (claims, message) in [
                ("{not json", "must be a JSON object"), ("[1, 2]", "must be a JSON object"),
                (#"{"a": ""# + String(repeating: "x", count: 1_000) + #""}"#, "at most 1000 bytes"),
                (#"{"sub": "x"}"#, "“sub” is reserved"),
            ] {
                let refused = try await client.post("/console/users/\(uid)/claims", ["csrf": csrf, "claims": claims])
                #expect(refused.status == 400, "\(claims)")
                #expect(refused.body.contains(message), "\(claims)")
            }
            #expect(try await live.services.store.user(uid: uid)?.customAttributes == nil)
        }
    }

    // MARK: What is refused

    @Test("a missing or wrong form token, another site's request and a viewer's change are refused")
    func refusals() async throws {
        try await Self.withConsole { live in
            let editor = try await Self.signIn(live, try await Self.addOperator(live, "ed@example.com", role: .editor))
            let viewer = try await Self.signIn(live, try await Self.addOperator(live, "vi@example.com", role: .viewer))
            let uid = try await Self.createUser(live, email: "grace@example.com")
            let csrf = try #require(try await editor.get("/console/users/\(uid)").csrf)
            #expect(try await editor.post("/console/users/\(uid)/disable", [:]).status == 403)
            #expect(try await editor.post("/console/users/\(uid)/disable", ["csrf": String(repeating: "0", count: 64)]).status == 403)
            #expect(try await viewer.post("/console/users/\(uid)/disable", ["csrf": csrf]).status == 403)
            for headers in [
                ["Origin": "https://evil.example"], ["Origin": "null"], ["Sec-Fetch-Site": "cross-site"], ["Sec-Fetch-Site": "same-site"],
            ] {
                let refused = try await editor.post("/console/users/\(uid)/disable", ["csrf": csrf], headers: headers)
                #expect(refused.status == 403, "\(headers)")
                #expect(refused.body.contains("another site"), "\(headers)")
            }
            #expect(try await live.services.store.user(uid: uid)?.disabled == false)

            let viewerCSRF = try #require(try await viewer.get("/console/users/\(uid)").csrf)
            let forbidden = try await viewer.post("/console/users/\(uid)/disable", ["csrf": viewerCSRF])
            #expect(forbidden.status == 403)
            #expect(forbidden.body.contains("needs an editor"))
            #expect(try await viewer.get("/console/users/new").status == 403)
            #expect(try await live.services.store.user(uid: uid)?.disabled == false)
            // The editor, from the console's own page, may.
            #expect(
                try await editor.post(
                    "/console/users/\(uid)/disable", ["csrf": csrf], headers: ["Origin": live.baseURL, "Sec-Fetch-Site": "same-origin"]
                ).status == 303)

            // Nobody signed in: to the sign-in page. Garbage bodies and cookies: clean answers.
            let stranger = ConsoleHTTPClient(baseURL: live.baseURL)
            #expect(try await stranger.get("/console/users").location == "/console/sign-in")
            #expect(try await stranger.post("/console/users/\(uid)/delete", ["confirm": uid]).status == 303)
            stranger.setCookie("hearth_console", "%00garbage")
            #expect(try await stranger.get("/console/users").status == 303)
            #expect(try await stranger.post("/console/sign-in/code", ["code": "123456"]).status == 303)
            #expect(try await stranger.post("/console/sign-in", [:], rawBody: "%%%=&&=%ZZ").status < 500)
            #expect(try await live.services.store.user(uid: uid) != nil)
        }
    }

    @Test("every console page carries the strict Content-Security-Policy and the other page headers")
    func pageHeaders() async throws {
        try await Self.withConsole { live in
            let client = try await Self.signIn(live, try await Self.addOperator(live, "ed@example.com", role: .editor))
            let uid = try await Self.createUser(live, email: "grace@example.com")
            let stranger = ConsoleHTTPClient(baseURL: live.baseURL)
            for (who, path) in [
                (stranger, "/console/sign-in"), (client, "/console/users"), (client, "/console/users/\(uid)"), (client, "/console/users/new"),
                (client, "/console/users/nobody"), (client, "/console/users?q=grace"), (stranger, "/console/users"),
                (client, "/console/activity"), (client, "/console/operators"), (client, "/console/keys"),
            ] {
                let page = try await who.get(path)
                #expect(
                    page.headers["content-security-policy"]
                        == "default-src 'none'; style-src 'self'; img-src 'self' data:; script-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
                    "\(path)")
                #expect(page.headers["x-content-type-options"] == "nosniff", "\(path)")
                #expect(page.headers["referrer-policy"] == "no-referrer", "\(path)")
                #expect(page.headers["cache-control"] == "no-store", "\(path)")
            }
            let css = try await stranger.get("/console/assets/console.css")
            #expect(css.status == 200 && css.headers["content-type"] == "text/css; charset=utf-8")
            #expect(css.body.contains("prefers-color-scheme: dark"))
            // The status page: a signed-in operator, or an administrator's token; not a stranger.
            #expect(try await client.get("/console/status").status == 200)
            #expect(try await stranger.get("/console/status").status == 401)
            #expect(try await stranger.get("/console/status", headers: ["Authorization": "Bearer \(Self.adminToken)"]).status == 200)
        }
    }

    @Test("Chromium: a display name with script, markup and a right-to-left override, and 10,000-character claims, are shown inert")
    func hostileDataInert() async throws {
        try await withLiveHearth { live in
            let hostile = "<script>window.pwned=1</script><img src=x onerror=\"window.pwned=2\">\u{202E}gnp.exe"
            let uid = try await Self.createUser(live, email: "mallory@example.com")
            let claims = #"{"k":""# + String(repeating: "<b>", count: 3_333) + #""}"#
            try await live.services.store.updateUser(uid: uid, session: nil) { user in
                user.displayName = hostile
                user.customAttributes = claims
            }
            try await HeadlessBrowser.with { browser in
                let page = try await browser.newPage()
                // Development mode: this machine's browser is the owner, without signing in.
                for path in ["/console/users", "/console/users/\(uid)"] {
                    _ = try await page.navigate(to: try #require(URL(string: live.baseURL + path)))
                    #expect(page.status == 200, "\(path)")
                    #expect(try await page.evaluate("document.scripts.length") == .number(0), "\(path)")
                    #expect(try await page.evaluate("document.images.length") == .number(0), "\(path)")
                    #expect(try await page.evaluate("document.querySelectorAll('main b').length") == .number(0), "\(path)")
                    #expect(try await page.evaluate("typeof window.pwned") == .string("undefined"), "\(path)")
                    #expect(try await page.evaluate("document.body.innerText.includes('\\u202E')") == .bool(false), "\(path)")
                }
                // The listing cuts the long name (and says how long it was); the user's page shows it whole, the override as text.
                #expect(try await page.text(of: "main").contains("[U+202E]gnp.exe"))
                _ = try await page.navigate(to: try #require(URL(string: live.baseURL + "/console/users")))
                #expect(try await page.text(of: "#users").contains("characters)"))
                _ = try await page.navigate(to: try #require(URL(string: live.baseURL + "/console/users/\(uid)")))
                #expect(try await page.text(of: "#display-name").contains("<script>window.pwned=1</script>"))
                #expect(try await page.text(of: "#claims-now").contains("<b><b>"))
                #expect(try await page.text(of: "#operator").contains("development"))
            }
        }
    }

    @Test("a password-reset link shown to the operator works once; without a mail server no mail leaves; in development the mail is queued")
    func emailLinks() async throws {
        try await Self.withConsole { live in
            let client = try await Self.signIn(live, try await Self.addOperator(live, "ed@example.com", role: .editor))
            let uid = try await Self.createUser(live, email: "grace@example.com", password: "old password")
            let csrf = try #require(try await client.get("/console/users/\(uid)").csrf)
            let shown = try await client.post("/console/users/\(uid)/email-link", ["csrf": csrf, "kind": "passwordReset", "delivery": "link"])
            #expect(shown.status == 200)
            let link = try #require(shown.body.firstMatch(of: #/id="action-link" readonly value="([^"]+)"/#).map { String($0.output.1) })
                .replacingOccurrences(of: "&amp;", with: "&")
            #expect(link.contains("mode=resetPassword"))
            let code = try #require(URLComponents(string: link)?.queryItems?.first { $0.name == "oobCode" }?.value)
            var api = FirebaseTestClient(baseURL: live.baseURL)
            api.apiKey = "console-test-api-key"
            let reset = ["oobCode": JSONValue.string(code), "newPassword": .string("a new password")]
            #expect(try await api.post("/v1/accounts:resetPassword", reset).status == .ok)
            #expect(try await api.post("/v1/accounts:resetPassword", reset).status == .badRequest)

            let mailed = try await client.post("/console/users/\(uid)/email-link", ["csrf": csrf, "kind": "verifyEmail", "delivery": "mail"])
            #expect(mailed.status == 400)
            #expect(mailed.body.contains("No mail can be sent"))
            let events = try await live.services.store.auditEvents(uid: uid, kind: .adminActionLinkIssued, after: nil, limit: 5)
            #expect(events.map { $0.details["action"] } == ["PASSWORD_RESET"])
            #expect(events.first?.details["delivery"] == "shown" && events.first?.actorID == "operator:ed@example.com")
        }
        // Development mode: the local owner's mail goes to the outbox.
        try await withLiveHearth { live in
            let uid = try await Self.createUser(live, email: "grace@example.com")
            let local = ConsoleHTTPClient(baseURL: live.baseURL)
            let csrf = try #require(try await local.get("/console/users/\(uid)").csrf)
            let mailed = try await local.post("/console/users/\(uid)/email-link", ["csrf": csrf, "kind": "verifyEmail", "delivery": "mail"])
            #expect(mailed.status == 200)
            #expect(mailed.body.contains("The verification mail was sent."))
            let mail = try #require(try await live.services.store.recentMails(limit: 1).first)
            #expect(mail.recipient == "grace@example.com" && mail.textBody.contains("mode=verifyEmail"))
            #expect(
                try await live.services.store.auditEvents(uid: uid, kind: .adminActionLinkIssued, after: nil, limit: 5).first?.actorID
                    == "development")
        }
    }

    @Test("the activity page: the audit trail newest first, by kind and by user, paged; bad filters get a clean answer")
    func activity() async throws {
        try await Self.withConsole { live in
            let client = try await Self.signIn(live, try await Self.addOperator(live, "vi@example.com", role: .viewer))
            var uids: [String] = []
            for index in 0..<60 {
                live.clock.advance(by: 1)
                uids.append(try await Self.createUser(live, email: "user\(index)@example.com"))
            }
            let first = try await client.get("/console/activity")
            #expect(first.status == 200)
            #expect(first.body.contains("console.signed_in") && first.body.contains("admin.user_created"))
            let next = try #require(first.body.firstMatch(of: #/id="next" rel="next" href="([^"]+)"/#).map { String($0.output.1) })
            let older = try await client.get(next.replacingOccurrences(of: "&amp;", with: "&"))
            #expect(older.status == 200 && older.body.contains("console.operator_added"))

            let byKind = try await client.get("/console/activity?kind=console.signed_in")
            #expect(byKind.body.contains("operator:vi@example.com") && !byKind.body.contains("admin.user_created</code>"))
            let byUser = try await client.get("/console/activity?uid=\(uids[7])")
            #expect(byUser.body.components(separatedBy: "<tr>").count == 3)  // the header and one event
            #expect(byUser.body.contains("/console/users/\(uids[7])"))
            #expect(try await client.get("/console/activity?kind=no.such.kind").body.contains("There is no event kind"))
            #expect(try await client.get("/console/activity?after=x.y").body.contains("not one this console made"))
            #expect(try await client.get("/console/activity?uid=%00").body.contains("That uid cannot exist; showing every user."))
            #expect(try await ConsoleHTTPClient(baseURL: live.baseURL).get("/console/activity").status == 303)
        }
    }

    @Test("the keys page: every published key and which signs; an owner makes a new key, named in its audit event; an editor may not")
    func keys() async throws {
        try await Self.withConsole { live in
            let owner = try await Self.signIn(live, try await Self.addOperator(live, "own@example.com", role: .owner))
            let editor = try await Self.signIn(live, try await Self.addOperator(live, "ed@example.com", role: .editor))
            let before = await live.services.keyRing.publishedKeys(at: live.clock.now).map(\.kid)
            let page = try await editor.get("/console/keys")
            #expect(page.status == 200 && page.body.contains("signs now"))
            for kid in before { #expect(page.body.contains(kid)) }
            #expect(!page.body.contains("/console/keys/rotate"))
            #expect(try await editor.post("/console/keys/rotate", ["csrf": try #require(page.csrf)]).status == 403)

            let ownerPage = try await owner.get("/console/keys")
            let made = try await owner.post("/console/keys/rotate", ["csrf": try #require(ownerPage.csrf)])
            #expect(made.status == 303)
            let after = await live.services.keyRing.publishedKeys(at: live.clock.now).map(\.kid)
            let kid = try #require(Set(after).subtracting(before).first)
            #expect(try await owner.get(try #require(made.location)).body.contains("Key \(kid) was made"))
            let again = try await owner.post("/console/keys/rotate", ["csrf": try #require(ownerPage.csrf)])
            #expect(again.status == 200 && again.body.contains("already waiting"))
            let events = try await live.services.store.auditEvents(uid: nil, kind: .keysRotated, after: nil, limit: 5)
            #expect(events.first?.actorID == "operator:own@example.com" && events.first?.details["trigger"] == "manual")
        }
    }

    @Test("an owner lists and removes operators (whose sessions end), each removal an audit event; an editor may not")
    func ownerManagesOperators() async throws {
        try await Self.withConsole { live in
            let owner = try await Self.signIn(live, try await Self.addOperator(live, "own@example.com", role: .owner))
            let editor = try await Self.signIn(live, try await Self.addOperator(live, "ed@example.com", role: .editor))
            #expect(try await editor.get("/console/operators").status == 403)
            let page = try await owner.get("/console/operators")
            #expect(page.status == 200)
            #expect(page.body.contains("ed@example.com") && page.body.contains("own@example.com"))
            let csrf = try #require(page.csrf)
            let editorCSRF = try #require(try await editor.get("/console/users").csrf)
            #expect(try await editor.post("/console/operators/remove", ["csrf": editorCSRF, "email": "own@example.com"]).status == 403)
            #expect(try await owner.post("/console/operators/remove", ["csrf": csrf, "email": "own@example.com"]).status == 400)
            #expect(try await owner.post("/console/operators/remove", ["csrf": csrf, "email": "ed@example.com"]).status == 303)
            #expect(try await owner.post("/console/operators/remove", ["csrf": csrf, "email": "ed@example.com"]).status == 404)
            #expect(try await live.services.store.consoleOperator(email: "ed@example.com") == nil)
            #expect(try await editor.get("/console/users").status == 303)
            let events = try await live.services.store.auditEvents(uid: nil, kind: .consoleOperatorRemoved, after: nil, limit: 5)
            #expect(events.map(\.actorID) == ["operator:own@example.com"])
            #expect(events.first?.details["operator"] == "ed@example.com")
        }
    }

    @Test("Chromium: screenshots of the sign-in, the users, a user's page and a new user, light, dark and at a phone's width")
    func screenshots() async throws {
        try await Self.withConsole { live in
            let added = try await Self.addOperator(live, "ada@example.com", role: .owner)
            let names = [
                ("grace@example.com", "Grace Hopper"), ("alan@example.com", "Alan Turing"), ("ada.l@example.com", "Ada Lovelace"),
                ("edsger@example.com", nil), ("barbara@example.com", "Barbara Liskov"),
            ]
            var uids: [String] = []
            for (email, name) in names {
                live.clock.advance(by: 3_600)
                let uid = try await Self.createUser(live, email: email, password: "a password")
                try await live.services.store.updateUser(uid: uid, session: nil) { user in
                    user.displayName = name
                    user.emailVerified = email.hasPrefix("a")
                    if email.hasPrefix("g") {
                        user.providers = [ProviderLink(providerID: "google.com", rawID: "1045", email: email, displayName: name)]
                        user.customAttributes = #"{"admin":true,"plan":"team"}"#
                        user.secondFactors = [
                            SecondFactorEnrollment(id: "f1", displayName: "Work phone", enrolledAt: live.clock.now, factor: .phone("+15555550100"))
                        ]
                        user.lastLoginAt = live.clock.now
                    }
                    if email.hasPrefix("e") { user.disabled = true }
                }
                uids.append(uid)
            }
            try await Self.createUser(live, email: nil, phone: "+447700900123")
            let grace = uids[0]
            try await ConsolePasskeyTests.addPasskey(live.services, uid: grace, name: "MacBook Touch ID", at: live.clock.now)
            try await HeadlessBrowser.with { browser in
                let page = try await browser.newPage()
                let base = "http://localhost:\(live.port)"
                _ = try await page.navigate(to: try #require(URL(string: base + "/console/sign-in")))
                try await Self.screenshot(page, "console-sign-in")
                try await page.fill("#email", with: "ada@example.com")
                try await page.fill("#password", with: Self.password)
                _ = try await page.clickAndWaitForNavigation("button[type=submit]")
                try await page.fill("#code", with: RFC6238.code(key: added.key, at: live.clock.now))
                _ = try await page.clickAndWaitForNavigation("button[type=submit]")
                #expect(page.url?.path == "/console/users")
                for (mode, dark, width) in [("light", false, 1_100), ("dark", true, 1_100), ("narrow", false, 390)] {
                    try await page.emulateColorScheme(dark: dark)
                    try await page.resize(width: width, height: 900, mobile: width < 500)
                    for (path, name) in [
                        ("/console/users", "users"), ("/console/users/\(grace)", "user"), ("/console/users?q=a", "search"),
                        ("/console/users/new", "new-user"), ("/console/operators", "operators"), ("/console/activity", "activity"),
                        ("/console/keys", "keys"),
                    ] {
                        _ = try await page.navigate(to: try #require(URL(string: base + path)))
                        #expect(page.status == 200, "\(path)")
                        #expect(page.consoleErrors.isEmpty, "\(page.consoleErrors)")
                        try await Self.screenshot(page, "console-\(name)-\(mode)")
                    }
                }
                // Dark is dark: the page's background follows the system's choice.
                try await page.emulateColorScheme(dark: true)
                #expect(try await page.evaluate("getComputedStyle(document.documentElement).backgroundColor") == .string("rgb(23, 21, 19)"))
            }
        }
    }

    /// Saves a full-page PNG in `HEARTH_SCREENSHOT_DIRECTORY` (docs/screenshots was made that way), else a temporary directory.
    static func screenshot(_ page: BrowserPage, _ name: String) async throws {
        let directory =
            ProcessInfo.processInfo.environment["HEARTH_SCREENSHOT_DIRECTORY"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("hearth-screenshots")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try await page.screenshot(to: directory.appendingPathComponent("\(name).png"), fullPage: true)
    }

    // MARK: The command

    @Test("hearth console add-operator, list-operators and remove-operator on the database")
    func operatorCommands() async throws {
        try await withLiveHearth { live in
            var environment: [String: String] = [:]
            if let url = try await TestDatabase.url(forDataDirectory: live.directory.path) { environment["HEARTH_DATABASE_URL"] = url }
            let common = ["--data-dir", live.directory.path, "--project", live.projectID]
            let added = try await Self.hearth(
                ["console", "add-operator", "Ops@Example.com", "--role", "owner", "--password-stdin"] + common, stdin: Self.password + "\n",
                environment: environment)
            #expect(added.status == 0, "\(added.error)")
            #expect(added.output.contains("added operator ops@example.com (owner)"))
            let uri = try #require(added.output.firstMatch(of: #/otpauth://totp/\S+/#).map { String($0.output) })
            #expect(uri.contains("secret="))
            let codes = added.output.matches(of: #/[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}/#).map { String($0.output) }
            #expect(codes.count == 10)
            let stored = try #require(try await live.services.store.consoleOperator(email: "ops@example.com"))
            #expect(stored.role == .owner && stored.recoveryCodeHashes.count == 10)
            #expect(!stored.recoveryCodeHashes.contains(codes[0]) && !stored.passwordHash.contains(Self.password))

            let again = try await Self.hearth(
                ["console", "add-operator", "ops@example.com", "--role", "viewer", "--password-stdin"] + common, stdin: Self.password + "\n",
                environment: environment)
            #expect(again.status == 2 && again.error.contains("already"))
            let short = try await Self.hearth(
                ["console", "add-operator", "b@example.com", "--role", "viewer", "--password-stdin"] + common, stdin: "short\n",
                environment: environment)
            #expect(short.status == 2 && short.error.contains("12 characters"))
            let badRole = try await Self.hearth(
                ["console", "add-operator", "b@example.com", "--role", "root", "--password-stdin"] + common, stdin: "x\n", environment: environment)
            #expect(badRole.status != 0 && badRole.error.contains("viewer, editor or owner"))

            let listed = try await Self.hearth(["console", "list-operators"] + common, environment: environment)
            #expect(listed.output.contains("ops@example.com\towner"))
            let removed = try await Self.hearth(["console", "remove-operator", "ops@example.com"] + common, environment: environment)
            #expect(removed.status == 0 && removed.output.contains("removed operator ops@example.com"))
            #expect(try await live.services.store.consoleOperator(email: "ops@example.com") == nil)
            #expect(try await Self.hearth(["console", "remove-operator", "ops@example.com"] + common, environment: environment).status == 1)
            let events = try await live.services.store.auditEvents(uid: nil, kind: nil, after: nil, limit: 10)
            #expect(events.filter { $0.actorID == "command-line" }.map(\.kind) == [.consoleOperatorRemoved, .consoleOperatorAdded])
        }
    }

    // MARK: Support

    /// A production-mode live server (no local owner), with a key-encryption key and an administrator's token.
    static func withConsole(_ body: (LiveHearth) async throws -> Void) async throws {
        try await withLiveHearth({ configuration in
            configuration.mode = .production
            configuration.apiKeys = ["console-test-api-key"]
            configuration.adminTokens = [adminToken]
            configuration.secrets.key = KeyEncryptionKey.generate().base64
        }) { live in try await body(live) }
    }

    struct Added {
        let email: String
        let key: [UInt8]
        let recoveryCodes: [String]
    }

    /// Adds an operator with ``password`` as `hearth console add-operator` does.
    static func addOperator(_ live: LiveHearth, _ email: String, role: OperatorRecord.Role) async throws -> Added {
        let console = live.services.console(scopes: TenantScopes(services: live.services))
        let operators = ConsoleOperators(
            store: live.services.store, passwords: ServerPasswords(services: live.services), totp: console.signIn.totp,
            secrets: console.signIn.secrets, audit: AuditTrail(services: live.services), clock: live.services.clock)
        let added = try await operators.add(email: email, role: role, password: password, issuer: "test", actorID: "test")
        let base32 = try #require(added.authenticatorURL.firstMatch(of: #/secret=([A-Z2-7]+)/#).map { String($0.output.1) })
        #expect(base32 == added.sharedSecretKey)
        return Added(email: added.record.email, key: try #require(RFC6238.base32Decode(base32)), recoveryCodes: added.recoveryCodes)
    }

    /// An HTTP client signed in as the operator of `added`.
    static func signIn(_ live: LiveHearth, _ added: Added) async throws -> ConsoleHTTPClient {
        let client = ConsoleHTTPClient(baseURL: live.baseURL)
        try #require(try await client.post("/console/sign-in", ["email": added.email, "password": password]).status == 303)
        let csrf = try #require(try await client.get("/console/sign-in").csrf)
        // The next period's code: a code of the current one may have been taken by an earlier sign-in.
        live.clock.advance(by: 30)
        try #require(
            try await client.post("/console/sign-in/code", ["csrf": csrf, "code": RFC6238.code(key: added.key, at: live.clock.now)]).status == 303)
        return client
    }

    @discardableResult
    static func createUser(_ live: LiveHearth, email: String?, phone: String? = nil, password: String? = nil) async throws -> String {
        let now = live.clock.now
        let user = UserRecord(uid: UserRecord.makeUID(), email: email, phoneNumber: phone, createdAt: now, validSince: now)
        let accounts = live.services.console(scopes: TenantScopes(services: live.services)).accounts
        return try await accounts.create(user, password: password, from: AuditOrigin(actorID: "test")).uid
    }

    /// Runs `hearth` with `stdin` on its standard input.
    static func hearth(_ arguments: [String], stdin: String = "", environment: [String: String]) async throws -> (
        status: Int32, output: String, error: String
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try HearthProcess.executable())
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("HEARTH_") }
        env.merge(environment) { $1 }
        process.environment = env
        let input = Pipe()
        let output = Pipe()
        let error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try input.fileHandleForWriting.close()
        let (out, err) = await Task.detached {
            (output.fileHandleForReading.readDataToEndOfFile(), error.fileHandleForReading.readDataToEndOfFile())
        }.value
        await Task.detached { process.waitUntilExit() }.value
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }
}

/// A client that keeps the console's cookies, as a browser does, and never follows redirects.
final class ConsoleHTTPClient: Sendable {
    let baseURL: String
    private let cookies = LockedBox<[String: String]>([:])

    init(baseURL: String) { self.baseURL = baseURL }

    /// Answers redirects itself: the tests read where they lead.
    static let client = HTTPClient(
        eventLoopGroupProvider: .singleton, configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))

    struct Result: Sendable {
        let status: Int
        let headers: [String: String]
        let body: String
        var location: String? { headers["location"] }
        /// The page's form token.
        var csrf: String? { body.firstMatch(of: #/name="csrf" value="([0-9a-f]{64})"/#).map { String($0.output.1) } }
    }

    func cookie(_ name: String) -> String? { cookies.withLock { $0[name] } }
    func setCookie(_ name: String, _ value: String) { cookies.withLock { $0[name] = value } }

    func get(_ path: String, headers: [String: String] = [:]) async throws -> Result {
        try await send(path, method: .GET, headers: headers, body: nil)
    }

    func post(_ path: String, _ form: [String: String], headers: [String: String] = [:], rawBody: String? = nil) async throws -> Result {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let body =
            rawBody
            ?? form.map {
                "\($0.key.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
            }
            .joined(separator: "&")
        return try await send(
            path, method: .POST, headers: ["Content-Type": "application/x-www-form-urlencoded"].merging(headers) { $1 }, body: Data(body.utf8))
    }

    /// Posts `bytes` as they are; `headers` say what they are.
    func post(_ path: String, bytes: Data, headers: [String: String]) async throws -> Result {
        try await send(path, method: .POST, headers: headers, body: bytes)
    }

    private func send(_ path: String, method: HTTPMethod, headers: [String: String], body: Data?) async throws -> Result {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        let jar = cookies.withLock { $0 }
        if !jar.isEmpty { request.headers.add(name: "Cookie", value: jar.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")) }
        for (name, value) in headers { request.headers.replaceOrAdd(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await Self.client.execute(request, timeout: .seconds(120))
        for header in response.headers["set-cookie"] {
            let pair = header.split(separator: ";").first?.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false) ?? []
            guard pair.count == 2 else { continue }
            let expired = header.contains("Max-Age=0")
            cookies.withLock { $0[String(pair[0])] = expired ? nil : String(pair[1]) }
        }
        var fields: [String: String] = [:]
        for (name, value) in response.headers { fields[name.lowercased()] = value }
        let bytes = try await response.body.collect(upTo: 8 << 20)
        return Result(status: Int(response.status.code), headers: fields, body: String(buffer: bytes))
    }
}
