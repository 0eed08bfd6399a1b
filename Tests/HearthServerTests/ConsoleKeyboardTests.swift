import Foundation
import HearthConsole
import HearthCore
import HearthTesting
import Testing

@testable import HearthServer

/// The console by keyboard and at a phone's width, in Chromium: Tab from the top of the users page and of a user's
/// page reaches the skip link first and then every link, button and field, each with a visible focus ring, and comes
/// round again (no trap); at 375 CSS pixels, and at 200 % zoom of a 640-pixel window (320 CSS pixels), no page
/// scrolls sideways.
@Suite("Console keyboard and zoom", .serialized)
struct ConsoleKeyboardTests {
    /// What the focused element is, and whether its outline shows (the focus ring is a 3px outline).
    static let focused = """
        (() => { const e = document.activeElement; if (!e || e === document.body) return "body";
          const s = getComputedStyle(e); const visible = s.outlineStyle !== "none" && parseFloat(s.outlineWidth) >= 2;
          const id = e.tagName + "|" + (e.id || e.getAttribute("href") || e.name || e.textContent.trim().slice(0, 30)) + "|" + Array.from(document.querySelectorAll("a[href], button, input:not([type=hidden]), select, textarea, summary")).indexOf(e);
          return id + (visible ? "" : "|NO-OUTLINE"); })()
        """
    /// Every control the keyboard should reach, counted in the page.
    static let controls = """
        Array.from(document.querySelectorAll("a[href], button, input:not([type=hidden]), select, textarea, summary")).filter(e => !e.disabled && e.getClientRects().length > 0).length
        """

    @Test("Chromium: Tab reaches the skip link first, then every control with a visible focus ring, and no trap")
    func tabbing() async throws {
        try await ConsoleTests.withConsole { live in
            let added = try await ConsoleTests.addOperator(live, "ada@example.com", role: .owner)
            let uid = try await ConsoleTests.createUser(live, email: "grace@example.com", password: "a password")
            try await live.services.store.updateUser(uid: uid, session: nil) { user in
                user.providers = [ProviderLink(providerID: "google.com", rawID: "1045", email: "grace@example.com")]
                user.customAttributes = #"{"admin":true}"#
            }
            try await HeadlessBrowser.with { browser in
                let page = try await Self.signedIn(browser, live, added)
                for path in ["/console/users", "/console/users/\(uid)", "/console/activity", "/console/operators", "/console/templates"] {
                    _ = try await page.navigate(to: try #require(URL(string: live.baseURL + path)))
                    guard case .number(let count) = try await page.evaluate(Self.controls) else {
                        Issue.record("no count")
                        continue
                    }
                    // A date field takes a Tab for each of its parts; the round ends back at the page or the skip link.
                    var seen: [String] = []
                    for _ in 0..<(Int(count) * 4 + 5) {
                        try await page.pressTab()
                        guard case .string(let focused) = try await page.evaluate(Self.focused) else { continue }
                        seen.append(focused)
                        if seen.count > 1, focused == "body" || focused.hasPrefix("A|#content|") { break }
                    }
                    #expect(seen.first?.hasPrefix("A|#content|") == true, "\(path): \(seen.first ?? "")")
                    #expect(!seen.contains { $0.hasSuffix("|NO-OUTLINE") }, "\(path): \(seen.filter { $0.hasSuffix("|NO-OUTLINE") })")
                    // Every control was reached once before the focus came round (to the page, then the skip link again).
                    let distinct = Set(seen.filter { $0 != "body" }.map { $0.replacingOccurrences(of: "|NO-OUTLINE", with: "") })
                    #expect(distinct.count == Int(count), "\(path): reached \(distinct.count) of \(Int(count))")
                    #expect(seen.count > 1 && (seen.last == "body" || seen.last?.hasPrefix("A|#content|") == true), "\(path): \(seen.suffix(3))")
                }
            }
        }
    }

    @Test("Chromium: at 375 pixels wide and at 200 % zoom (320 CSS pixels) no console page scrolls sideways")
    func narrowAndZoomed() async throws {
        try await ConsoleTests.withConsole { live in
            let added = try await ConsoleTests.addOperator(live, "ada@example.com", role: .owner)
            let uid = try await ConsoleTests.createUser(live, email: "a-rather-long-address-for-a-narrow-screen@example.com", password: "a password")
            try await live.services.store.updateUser(uid: uid, session: nil) { user in
                user.providers = [ProviderLink(providerID: "google.com", rawID: "1045", email: user.email)]
                user.customAttributes = #"{"admin":true,"plan":"team"}"#
            }
            try await HeadlessBrowser.with { browser in
                let page = try await Self.signedIn(browser, live, added)
                let paths = [
                    "/console/users", "/console/users/\(uid)", "/console/users/new", "/console/activity", "/console/keys", "/console/operators",
                    "/console/templates", "/console/templates/resetPassword/en", "/console/status",
                ]
                // A 375-pixel phone, and a 640-pixel window at 200 % zoom: 320 CSS pixels to lay out.
                for (width, scale) in [(375, 1), (640, 2)] {
                    try await page.resize(width: width / scale, height: 800, mobile: true)
                    for path in paths {
                        _ = try await page.navigate(to: try #require(URL(string: live.baseURL + path)))
                        let overflow = try await page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
                        #expect(overflow == .number(0), "\(path) at \(width)/\(scale): \(overflow)")
                    }
                }
            }
        }
    }

    /// A Chromium tab signed in as `added`.
    static func signedIn(_ browser: HeadlessBrowser, _ live: LiveHearth, _ added: ConsoleTests.Added) async throws -> BrowserPage {
        let page = try await browser.newPage()
        _ = try await page.navigate(to: try #require(URL(string: live.baseURL + "/console/sign-in")))
        try await page.fill("#email", with: added.email)
        try await page.fill("#password", with: ConsoleTests.password)
        _ = try await page.clickAndWaitForNavigation("button[type=submit]")
        live.clock.advance(by: 30)
        try await page.fill("#code", with: RFC6238.code(key: added.key, at: live.clock.now))
        _ = try await page.clickAndWaitForNavigation("button[type=submit]")
        try #require(page.url?.path == "/console/users")
        return page
    }
}
