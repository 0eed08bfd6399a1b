import Foundation
import HTTPTypes
import HearthCore
import HearthMessages
import HearthServer
import HearthWire
import Testing

/// `/__/auth/action` against hostile input, without a browser: every answer is a page or Google's error envelope
/// with the right status, nothing is used up by a GET, and nothing from the request reaches the page unescaped.
@Suite("Action page: hostile input")
struct ActionPageInputTests {
    @Test("missing and garbage codes, unknown modes, oversized posts, script in every parameter")
    func hostile() async throws {
        try await withHearth { hearth, client async throws in
            var browser = client
            browser.apiKey = nil
            _ = try await client.signUp(email: "ada@example.com")
            let code = try await EmailActionsTests.resetCode(client, hearth, email: "ada@example.com")

            let missing = try await browser.raw("/__/auth/action?mode=resetPassword", method: .get)
            #expect(missing.status == .badRequest && String(decoding: missing.body, as: UTF8.self).contains("<h1>"))
            #expect(missing.headers[.contentSecurityPolicy]?.contains("default-src 'none'") == true)
            #expect(try await browser.raw("/__/auth/action?mode=deleteEverything&oobCode=\(code)", method: .get).status == .badRequest)
            for garbage in ["x", "%00", String(repeating: "A", count: 5_000), "\(code)%0d%0aSet-Cookie:%20a=b"] {
                let page = try await browser.raw("/__/auth/action?mode=resetPassword&oobCode=\(garbage)", method: .get)
                #expect(page.status == .badRequest, "\(garbage.prefix(20))")
                #expect(page.headers[HTTPField.Name("Set-Cookie")!] == nil)
            }
            // Script in the language, the continue URL and the mode: escaped or dropped, never echoed.
            let script = "%3Cscript%3Ealert(1)%3C%2Fscript%3E"
            let page = try await browser.raw(
                "/__/auth/action?mode=resetPassword&oobCode=\(code)&lang=\(script)&continueUrl=javascript:alert(1)%2F%2F\(script)", method: .get)
            let html = String(decoding: page.body, as: UTF8.self)
            #expect(page.status == .ok)
            #expect(!html.contains("<script") && !html.contains("javascript:"))
            #expect(html.contains("lang=\"en\""))

            // A continue URL to a host that is not authorized gets no link.
            let foreign = try await browser.raw(
                "/__/auth/action?mode=resetPassword&oobCode=\(code)&continueUrl=https%3A%2F%2Fevil.example%2F", method: .get)
            #expect(!String(decoding: foreign.body, as: UTF8.self).contains("evil.example"))

            // A body over the page's limit is refused with the envelope; the code still works afterwards.
            let huge = "mode=resetPassword&oobCode=\(code)&newPassword=" + String(repeating: "a", count: 100_000)
            let tooLarge = try await browser.raw(
                "/__/auth/action", method: .post, body: Data(huge.utf8), headers: [.contentType: "application/x-www-form-urlencoded"])
            #expect(tooLarge.status == .contentTooLarge)
            #expect(tooLarge.errorMessage?.contains("exceeds the limit") == true)
            // A password with a NUL and control characters is just a password.
            let odd = "pass\u{0}word\u{7}"
            let form = "mode=resetPassword&oobCode=\(code)&newPassword=pass%00word%07&confirmPassword=pass%00word%07"
            let reset = try await browser.raw(
                "/__/auth/action", method: .post, body: Data(form.utf8), headers: [.contentType: "application/x-www-form-urlencoded"])
            #expect(reset.status == .ok, "\(String(decoding: reset.body, as: UTF8.self).prefix(300))")
            #expect(try await client.signIn(email: "ada@example.com", password: odd).status == .ok)
            // Used: a second post shows the failure page, not an error envelope.
            let again = try await browser.raw(
                "/__/auth/action", method: .post, body: Data(form.utf8), headers: [.contentType: "application/x-www-form-urlencoded"])
            #expect(again.status == .badRequest && String(decoding: again.body, as: UTF8.self).contains("<h1>"))
        }
    }

    @Test("a GET never uses a code up, however often it is fetched")
    func getIsSafe() async throws {
        try await withHearth { hearth, client async throws in
            var browser = client
            browser.apiKey = nil
            let ada = try await client.signUp(email: "ada@example.com")
            _ = try await client.post("/v1/accounts:sendOobCode", ["requestType": .string("VERIFY_EMAIL"), "idToken": .string(ada.idToken ?? "")])
            let code = try await EmailActionsTests.latestCode(hearth)
            for _ in 0..<3 {
                #expect(try await browser.raw("/__/auth/action?mode=verifyEmail&oobCode=\(code)", method: .get).status == .ok)
            }
            #expect(try await hearth.services.store.user(uid: ada.localId)?.emailVerified == false)
            #expect(try await client.post("/v1/accounts:update", ["oobCode": .string(code)]).status == .ok)
        }
    }
}
