import Foundation
import HearthConsole
import HearthCore
import HearthTesting
import Testing

@testable import HearthServer

/// A user's passkeys on their console page: shown (name, the credential id's start with the whole in its title,
/// creation, last use) with hostile names inert, removed by an editor through the admin API's use case (its
/// `user.passkey_removed` naming the operator), in the project and under the tenant switcher; a viewer sees them with no
/// form and is refused if they post.
@Suite("Console passkeys", .serialized)
struct ConsolePasskeyTests {
    static let hostile = "<script>window.pwned=1</script><img src=x onerror=\"window.pwned=2\">\u{202E}yek.exe"

    /// Stores a passkey of `uid` named `name` in `services`' scope: its credential id.
    @discardableResult
    static func addPasskey(_ services: HearthServices, uid: String, name: String, at time: Date) async throws -> String {
        let id = (0..<43).map { _ in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".randomElement()! }.map(String.init).joined()
        let stored = try await services.store.insertPasskey(
            PasskeyCredential(
                credentialID: id, uid: uid, name: name, publicKey: [0xA5], algorithm: -7, signCount: 0, transports: ["internal"],
                backupEligible: true, backedUp: true, createdAt: time))
        try #require(stored)
        return id
    }

    /// A user of `tenant` (`nil`: the project's) with an e-mail address.
    static func createUser(_ live: LiveHearth, _ services: HearthServices, email: String) async throws -> String {
        let now = live.clock.now
        let user = UserRecord(uid: UserRecord.makeUID(), email: email, createdAt: now, validSince: now)
        let accounts = AdministeredAccounts(
            store: services.store, passwords: ServerPasswords(services: services), audit: AuditTrail(services: services), clock: services.clock)
        return try await accounts.create(user, password: nil, from: AuditOrigin(actorID: "test")).uid
    }

    @Test("Chromium: an editor sees a tenant user's passkeys (a hostile name inert) and removes them one by one, each removal audited")
    func editorRemovesInChromium() async throws {
        try await ConsoleTests.withConsole { live in
            let added = try await ConsoleTests.addOperator(live, "ed@example.com", role: .editor)
            let tenant = try await ConsoleSettingsTests.createTenant(live, "Acme")
            let services = live.services.scoped(to: tenant)
            let uid = try await Self.createUser(live, services, email: "grace@example.com")
            let laptop = try await Self.addPasskey(services, uid: uid, name: "Laptop", at: live.clock.now)
            live.clock.advance(by: 60)
            let hostileID = try await Self.addPasskey(services, uid: uid, name: Self.hostile, at: live.clock.now)
            // The project's user with no passkeys.
            let plain = try await ConsoleTests.createUser(live, email: "alan@example.com")
            try await HeadlessBrowser.with { browser in
                let page = try await browser.newPage()
                let base = "http://localhost:\(live.port)"
                _ = try await page.navigate(to: try #require(URL(string: base + "/console/sign-in")))
                try await page.fill("#email", with: "ed@example.com")
                try await page.fill("#password", with: ConsoleTests.password)
                _ = try await page.clickAndWaitForNavigation("button[type=submit]")
                try await page.fill("#code", with: RFC6238.code(key: added.key, at: live.clock.now))
                _ = try await page.clickAndWaitForNavigation("button[type=submit]")
                #expect(page.url?.path == "/console/users")

                _ = try await page.navigate(to: try #require(URL(string: base + "/console/users/\(plain)")))
                #expect(try await page.text(of: "#no-passkeys") == "None enrolled.")

                _ = try await page.navigate(to: try #require(URL(string: base + "/console/users/\(uid)?tenant=\(tenant)")))
                #expect(page.status == 200)
                #expect(try await page.evaluate("document.querySelectorAll('#passkey-table tbody tr').length") == .number(2))
                let table = try await page.text(of: "#passkey-table")
                #expect(table.contains("Laptop") && table.contains(String(laptop.prefix(16)) + "…") && !table.contains(laptop))
                #expect(table.contains("<script>window.pwned=1</script>") && table.contains("[U+202E]yek.exe"))
                #expect(
                    try await page.evaluate("document.querySelector('#passkey-table tbody tr code').getAttribute('title')") == .string(laptop))
                #expect(
                    try await page.evaluate("document.querySelector('#passkey-table tbody tr code').getAttribute('aria-label')")
                        == .string("Credential id \(laptop)"))
                #expect(try await page.evaluate("document.scripts.length") == .number(0))
                #expect(try await page.evaluate("document.images.length") == .number(0))
                #expect(try await page.evaluate("typeof window.pwned") == .string("undefined"))
                #expect(try await page.evaluate("document.body.innerText.includes('\\u202E')") == .bool(false))

                // The hostile one's form first: its label names it as text.
                let label = "document.querySelectorAll('#passkey-table button')[1].getAttribute('aria-label')"
                #expect(
                    try await page.evaluate(label)
                        == .string("Remove the passkey <script>window.pwned=1</script><img src=x onerror=\"window.pwned=2\">[U+202E]yek.exe"))
                _ = try await page.clickAndWaitForNavigation("#passkey-table tbody tr:nth-child(2) button")
                #expect(page.url?.path == "/console/users/\(uid)")
                #expect(page.url?.query == "done=remove-passkey&tenant=\(tenant)")
                #expect(try await page.text(of: "#notice").contains("The passkey was removed."))
                #expect(try await page.evaluate("document.querySelectorAll('#passkey-table tbody tr').length") == .number(1))
                #expect(try await services.store.passkeys(uid: uid).map(\.credentialID) == [laptop])
                _ = try await page.clickAndWaitForNavigation("#passkey-table button")
                #expect(try await page.text(of: "#no-passkeys") == "None enrolled.")
                #expect(page.consoleErrors.isEmpty, "\(page.consoleErrors)")
            }
            #expect(try await services.store.passkeys(uid: uid).isEmpty)
            // Each removal is the tenant's event, by the operator, as the admin API's deletePasskey records it.
            let removed = try await services.store.auditEvents(uid: uid, kind: .passkeyRemoved, after: nil, limit: 10)
            #expect(removed.count == 2)
            #expect(removed.allSatisfy { $0.actor == .administrator && $0.actorID == "operator:ed@example.com" })
            #expect(Set(removed.compactMap { $0.details["credential"] }) == [String(laptop.prefix(16)), String(hostileID.prefix(16))])
            let updated = try await services.store.auditEvents(uid: uid, kind: .adminUserUpdated, after: nil, limit: 10)
            #expect(updated.map { $0.details["fields"] } == ["deletePasskey", "deletePasskey"])
            #expect(try await live.services.store.auditEvents(uid: uid, kind: nil, after: nil, limit: 10).isEmpty)
        }
    }

    @Test(
        "a viewer sees the passkeys without a form and is refused if they post; another user's, an unknown or another scope's passkey is not removed")
    func refusals() async throws {
        try await ConsoleTests.withConsole { live in
            let editor = try await ConsoleTests.signIn(live, try await ConsoleTests.addOperator(live, "ed@example.com", role: .editor))
            let viewer = try await ConsoleTests.signIn(live, try await ConsoleTests.addOperator(live, "vi@example.com", role: .viewer))
            let tenant = try await ConsoleSettingsTests.createTenant(live, "Acme")
            let uid = try await ConsoleTests.createUser(live, email: "grace@example.com")
            let other = try await ConsoleTests.createUser(live, email: "alan@example.com")
            let passkey = try await Self.addPasskey(live.services, uid: uid, name: "Phone", at: live.clock.now)
            let othersPasskey = try await Self.addPasskey(live.services, uid: other, name: "Alan's", at: live.clock.now)

            let seen = try await viewer.get("/console/users/\(uid)")
            #expect(seen.body.contains("id=\"passkey-table\"") && seen.body.contains("Phone"))
            #expect(!seen.body.contains("remove-passkey"))
            let csrf = try #require(seen.csrf)
            let forbidden = try await viewer.post("/console/users/\(uid)/remove-passkey", ["csrf": csrf, "credential": passkey])
            #expect(forbidden.status == 403)
            #expect(forbidden.body.contains("needs an editor"))

            let editorCSRF = try #require(try await editor.get("/console/users/\(uid)").csrf)
            #expect(try await editor.post("/console/users/\(uid)/remove-passkey", ["credential": passkey]).status == 403)
            for credential in [othersPasskey, "no-such-passkey", "", String(repeating: "A", count: 5_000)] {
                let refused = try await editor.post("/console/users/\(uid)/remove-passkey", ["csrf": editorCSRF, "credential": credential])
                #expect(refused.status == 400)
                #expect(ConsoleSettingsTests.notice(refused.body) == "The user has no such passkey (any more).")
            }
            let missing = try await editor.post("/console/users/\(uid)/remove-passkey", ["csrf": editorCSRF])
            #expect(missing.status == 400)
            // The project's user under a tenant's switcher is not found there.
            let elsewhere = try await editor.post(
                "/console/users/\(uid)/remove-passkey", ["csrf": editorCSRF, "tenant": tenant, "credential": passkey])
            #expect(elsewhere.status == 404)
            #expect(try await live.services.store.passkeys(uid: uid).map(\.credentialID) == [passkey])
            #expect(try await live.services.store.passkeys(uid: other).map(\.credentialID) == [othersPasskey])
            #expect(try await live.services.store.auditEvents(uid: uid, kind: .passkeyRemoved, after: nil, limit: 5).isEmpty)

            let removed = try await editor.post("/console/users/\(uid)/remove-passkey", ["csrf": editorCSRF, "credential": passkey])
            #expect(removed.location == "/console/users/\(uid)?done=remove-passkey")
            #expect(try await live.services.store.passkeys(uid: uid).isEmpty)
            let event = try await live.services.store.auditEvents(uid: uid, kind: .passkeyRemoved, after: nil, limit: 5)
            #expect(event.map(\.actorID) == ["operator:ed@example.com"] && event.first?.details["name"] == "Phone")
        }
    }
}
