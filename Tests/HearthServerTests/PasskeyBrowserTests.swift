import Foundation
import HearthCore
import HearthTesting
import Testing

@testable import HearthServer

/// Passkeys in a real browser: headless Chromium with DevTools' virtual authenticators drives development mode's
/// passkey page (`/sandbox/passkeys`) through sign-up, enrolment with `navigator.credentials.create`, sign-out and a
/// username-less sign-in with `navigator.credentials.get`, so that Chromium's own WebAuthn (its `clientDataJSON`, its
/// authenticator data and signatures) is what the server verifies.
@Suite("Passkeys in Chromium", .serialized)
struct PasskeyBrowserTests {
    /// A live server, a page on `http://localhost:<port>/sandbox/passkeys` (the relying party is `localhost`) with
    /// virtual authenticators switched on, and one authenticator added.
    /// `query` (the page's, such as `?tenant=…`) is made once the server runs.
    static func withPage(
        query: (LiveHearth) async throws -> String = { _ in "" }, _ body: (LiveHearth, BrowserPage, String) async throws -> Void
    ) async throws {
        try await withLiveHearth { live in
            let query = try await query(live)
            try await HeadlessBrowser.with { browser in
                let page = try await browser.newPage()
                try await page.navigate(to: try #require(URL(string: "http://localhost:\(live.port)/sandbox/passkeys\(query)")))
                #expect(page.status == 200)
                try await page.enableVirtualAuthenticators()
                let authenticator = try await page.addVirtualAuthenticator()
                try await body(live, page, authenticator)
                #expect(page.consoleErrors.isEmpty, "\(page.consoleErrors)")
            }
        }
    }

    /// Clicks `button` and waits until its action has finished; what the page then shows in its status and error lines.
    static func press(_ page: BrowserPage, _ button: String) async throws -> (status: String, error: String) {
        let finished = "Number(document.body.dataset.finished || 0)"
        guard case .number(let before) = try await page.evaluate(finished) else { throw BrowserError.scriptError("no count") }
        try await page.click(button)
        _ = try await page.evaluate(
            """
            new Promise((resolve) => { const check = () => (\(finished) > \(Int(before)) ? resolve(true) : setTimeout(check, 20)); check(); })
            """)
        return (try await page.text(of: "#status"), try await page.text(of: "#error"))
    }

    @Test("Chromium: sign up, enrol a passkey, sign out, sign in username-less as the same user with sign_in_provider passkey")
    func enrolAndSignIn() async throws {
        try await Self.withPage { live, page, authenticator in
            // The page's script is its own file under a CSP without inline script.
            #expect(try await page.evaluate("Array.from(document.scripts).every((s) => s.src.endsWith('/sandbox/passkeys.js'))") == .bool(true))
            #expect(try await Self.press(page, "#sign-up") == ("Signed up anonymously.", ""))
            let uid = try await page.text(of: "#uid")
            #expect(uid.count > 10)
            #expect(try await Self.press(page, "#enrol") == ("Passkey enrolled.", ""))
            #expect(try await page.credentialCount(ofVirtualAuthenticator: authenticator) == 1)
            #expect(try await Self.press(page, "#sign-out") == ("Signed out.", ""))
            #expect(try await page.text(of: "#uid") == "none")

            #expect(try await Self.press(page, "#sign-in") == ("Signed in with a passkey.", ""))
            #expect(try await page.text(of: "#uid") == uid)
            #expect(try await page.text(of: "#provider") == "passkey")
            let claims = jwtClaims(try await page.text(of: "#id-token"))
            #expect(claims["sub"] == .string(uid))
            guard case .object(let firebase)? = claims["firebase"] else {
                Issue.record("no firebase claim in \(claims)")
                return
            }
            #expect(firebase["sign_in_provider"] == .string("passkey"))
            // The server holds the browser's passkey under the user's name from the page.
            #expect(try await live.services.store.passkeys(uid: uid).map(\.name) == ["This browser"])
        }
    }

    @Test("Chromium: another authenticator without the passkey cannot sign in, and the page says so")
    func otherAuthenticatorFails() async throws {
        try await Self.withPage { _, page, authenticator in
            _ = try await Self.press(page, "#sign-up")
            #expect(try await Self.press(page, "#enrol") == ("Passkey enrolled.", ""))
            _ = try await Self.press(page, "#sign-out")
            try await page.removeVirtualAuthenticator(authenticator)
            let other = try await page.addVirtualAuthenticator()
            let (status, error) = try await Self.press(page, "#sign-in")
            #expect(status == "Signed out.")
            // Chromium's own words (the link after them changes with its version).
            #expect(error.hasPrefix("NotAllowedError: The operation either timed out or was not allowed."), "\(error)")
            #expect(try await page.text(of: "#uid") == "none")
            #expect(try await page.credentialCount(ofVirtualAuthenticator: other) == 0)
        }
    }

    @Test("Chromium: in a tenant (the page's ?tenant=), enrol and sign in username-less; the passkey is nothing in the project or another tenant")
    func inTenant() async throws {
        let tenants = LockedBox<[String]>([])
        try await Self.withPage(query: { live in
            let client = FirebaseTestClient(baseURL: live.baseURL)
            let made = [try await TenantTests.makeTenant(client), try await TenantTests.makeTenant(client, name: "Globex")]
            tenants.withLock { $0 = made }
            return "?tenant=\(made[0])"
        }) { live, page, authenticator in
            let (tenant, other) = tenants.withLock { ($0[0], $0[1]) }
            #expect(try await page.text(of: "#tenant") == tenant)
            #expect(try await Self.press(page, "#sign-up") == ("Signed up anonymously.", ""))
            let uid = try await page.text(of: "#uid")
            #expect(try await Self.press(page, "#enrol") == ("Passkey enrolled.", ""))
            #expect(try await Self.press(page, "#sign-out") == ("Signed out.", ""))
            #expect(try await Self.press(page, "#sign-in") == ("Signed in with a passkey.", ""))
            #expect(try await page.text(of: "#uid") == uid)
            guard case .object(let firebase)? = jwtClaims(try await page.text(of: "#id-token"))["firebase"] else {
                Issue.record("no firebase claim")
                return
            }
            #expect(firebase["tenant"] == .string(tenant))
            #expect(firebase["sign_in_provider"] == .string("passkey"))
            #expect(try await live.services.scoped(to: tenant).store.passkeys(uid: uid).map(\.name) == ["This browser"])
            #expect(try await live.services.store.user(uid: uid) == nil)

            // The same authenticator offers the passkey (its RP ID is localhost's) to the project's page and another
            // tenant's: neither knows it.
            for query in ["", "?tenant=\(other)"] {
                try await page.navigate(to: try #require(URL(string: "http://localhost:\(live.port)/sandbox/passkeys\(query)")))
                #expect(try await page.text(of: "#tenant") == (query.isEmpty ? "none (the project)" : other))
                #expect(try await Self.press(page, "#sign-in") == ("Signed out.", "Error: PASSKEY_CREDENTIAL_NOT_FOUND"), "\(query)")
                #expect(try await page.text(of: "#uid") == "none")
            }
            #expect(try await page.credentialCount(ofVirtualAuthenticator: authenticator) == 1)
        }
    }
}
