import Foundation
import HearthCore
import HearthTesting
import HearthWire
import Testing

@testable import HearthServer

/// The tenants on the console's settings pages: an owner creates, renames and deletes one (through `TenantChanges`, as
/// the admin API does, with its audit events), a viewer's or editor's and a token-less or other site's post is refused,
/// each refused input has its message, and a hostile display name is shown inert.
@Suite("Console tenants", .serialized)
struct ConsoleTenantsTests {
    static let path = "/console/settings/tenants"

    @Test("an owner creates, renames and deletes a tenant; the admin API sees each change; each is audited naming the operator")
    func createRenameDelete() async throws {
        try await ConsoleTests.withConsole { live in
            let owner = try await ConsoleTests.signIn(live, try await ConsoleTests.addOperator(live, "owner@example.com", role: .owner))
            let created = try await ConsoleSettingsTests.save(owner, "/console/settings", "tenants", ["display-name": "Acme"])
            #expect(created.status == 303)
            let location = try #require(created.location)
            let tenantID = try #require(location.firstMatch(of: #/tenant=(acme-[a-z0-9]{5})&created=tenant/#).map { String($0.output.1) })
            let shown = try await owner.get(location)
            #expect(shown.body.contains("The tenant was created."))
            #expect(shown.body.contains("<dd id=\"tenant-display-name\"><bdi>Acme</bdi></dd>"))
            let tenantPath = "/console/settings?tenant=\(tenantID)"

            let renamed = try await ConsoleSettingsTests.save(owner, tenantPath, "tenants/\(tenantID)/rename", ["display-name": "Acme-Two"])
            #expect(renamed.location == "/console/settings?tenant=\(tenantID)&saved=tenant#tenant")
            var resource = try await ConsoleSettingsTests.adminGet(live, "/v2/projects/\(live.projectID)/tenants/\(tenantID)")
            #expect(try resource.decode(TenantResource.self).displayName == "Acme-Two")
            #expect(try await owner.get("/console/settings").body.contains("Acme-Two"))

            let unconfirmed = try await ConsoleSettingsTests.save(owner, tenantPath, "tenants/\(tenantID)/delete", ["confirm": "Acme-Two"])
            #expect(unconfirmed.status == 400)
            #expect(ConsoleSettingsTests.notice(unconfirmed.body) == "To delete this tenant and all its users, type its id exactly.")
            #expect(try await live.services.store.tenant(id: tenantID) != nil)
            let deleted = try await ConsoleSettingsTests.save(owner, tenantPath, "tenants/\(tenantID)/delete", ["confirm": tenantID])
            #expect(deleted.location == "/console/settings?deleted=tenant#tenants")
            #expect(try await owner.get(try #require(deleted.location)).body.contains("The tenant and its users were deleted."))
            resource = try await ConsoleSettingsTests.adminGet(live, "/v2/projects/\(live.projectID)/tenants/\(tenantID)")
            #expect(resource.errorMessage == "TENANT_NOT_FOUND")
            #expect(try await owner.get(tenantPath).status == 404)

            let events = try await live.services.store.auditEvents(uid: nil, kind: .adminTenantChanged, after: nil, limit: 10)
            #expect(events.map { $0.details["operation"] ?? "" }.sorted() == ["create", "delete", "update"])
            #expect(
                events.allSatisfy { $0.actorID == "operator:owner@example.com" && $0.actor == .administrator && $0.details["tenant"] == tenantID })
            #expect(events.first { $0.details["operation"] == "update" }?.details["fields"] == "displayName")
        }
    }

    @Test("a viewer's or an editor's tenant change is refused; a viewer sees the tenants without the forms")
    func rolesRefused() async throws {
        try await ConsoleTests.withConsole { live in
            let tenantID = try await ConsoleSettingsTests.createTenant(live, "Acme")
            let viewer = try await ConsoleTests.signIn(live, try await ConsoleTests.addOperator(live, "vi@example.com", role: .viewer))
            let editor = try await ConsoleTests.signIn(live, try await ConsoleTests.addOperator(live, "ed@example.com", role: .editor))
            let listing = try await viewer.get("/console/settings")
            #expect(listing.body.contains("id=\"tenant-table\"") && listing.body.contains(tenantID))
            #expect(!listing.body.contains("action=\"\(Self.path)\""))
            #expect(!(try await viewer.get("/console/settings?tenant=\(tenantID)").body.contains("/delete\"")))
            for client in [viewer, editor] {
                let csrf = try #require(try await client.get("/console/settings").csrf)
                for (path, form) in [
                    (Self.path, ["display-name": "Globex"]), ("\(Self.path)/\(tenantID)/rename", ["display-name": "Other"]),
                    ("\(Self.path)/\(tenantID)/delete", ["confirm": tenantID]),
                ] {
                    let refused = try await client.post(path, form.merging(["csrf": csrf]) { a, _ in a })
                    #expect(refused.status == 403)
                    #expect(ConsoleSettingsTests.notice(refused.body) == "Your role may not do this: it needs an owner.")
                }
            }
            #expect(try await live.services.store.tenants(after: nil, limit: 10).map(\.displayName) == ["Acme"])
            #expect(try await live.services.store.auditEvents(uid: nil, kind: .adminTenantChanged, after: nil, limit: 10).count == 1)
        }
    }

    @Test("a post without the session's form token, with another's, or from another site is refused and changes nothing")
    func forgedPostsRefused() async throws {
        try await ConsoleTests.withConsole { live in
            let tenantID = try await ConsoleSettingsTests.createTenant(live, "Acme")
            let owner = try await ConsoleTests.signIn(live, try await ConsoleTests.addOperator(live, "owner@example.com", role: .owner))
            let csrf = try #require(try await owner.get("/console/settings").csrf)
            for (path, form) in [
                (Self.path, ["display-name": "Globex"]), ("\(Self.path)/\(tenantID)/rename", ["display-name": "Other"]),
                ("\(Self.path)/\(tenantID)/delete", ["confirm": tenantID]),
            ] {
                let missing = try await owner.post(path, form)
                #expect(missing.status == 403)
                #expect(
                    ConsoleSettingsTests.notice(missing.body)
                        == "The form has expired or did not come from this console. Reload the page and try again.")
                #expect(try await owner.post(path, form.merging(["csrf": String(repeating: "0", count: 64)]) { a, _ in a }).status == 403)
                for headers in [["Origin": "https://evil.example"], ["Sec-Fetch-Site": "cross-site"]] {
                    let refused = try await owner.post(path, form.merging(["csrf": csrf]) { a, _ in a }, headers: headers)
                    #expect(refused.status == 403)
                    #expect(
                        ConsoleSettingsTests.notice(refused.body)
                            == "This request came from another site, so it was refused. Use the console's own pages.")
                }
            }
            #expect(try await live.services.store.tenants(after: nil, limit: 10).map(\.displayName) == ["Acme"])
        }
    }

    @Test("each refused name or confirmation has its message; a hostile name typed or stored is shown inert")
    func refusalsAndHostileNames() async throws {
        try await ConsoleTests.withConsole { live in
            let owner = try await ConsoleTests.signIn(live, try await ConsoleTests.addOperator(live, "owner@example.com", role: .owner))
            let tenantID = try await ConsoleSettingsTests.createTenant(live, "Acme")
            let hostile = "<script>alert(1)</script>\u{202E}evil"
            let rule = "A tenant's display name is 4 to 20 characters: a letter first, then letters, digits and hyphens."
            let cases: [(String, String, [String: String], String)] = [
                ("/console/settings", "tenants", ["display-name": hostile], rule),
                ("/console/settings", "tenants", ["display-name": "abc"], rule),
                ("/console/settings", "tenants", ["display-name": "9lives"], rule),
                ("/console/settings", "tenants", ["display-name": ""], rule),
                ("/console/settings", "tenants", ["display-name": "Ac\u{0}me"], "The display name may not hold control characters."),
                (
                    "/console/settings", "tenants", ["display-name": String(repeating: "a", count: 201)],
                    "The display name is too long: at most 200 characters."
                ),
                ("/console/settings?tenant=\(tenantID)", "tenants/\(tenantID)/rename", ["display-name": "x y z w"], rule),
                (
                    "/console/settings?tenant=\(tenantID)", "tenants/\(tenantID)/delete", [:],
                    "To delete this tenant and all its users, type its id exactly."
                ),
            ]
            for (page, action, form, message) in cases {
                let refused = try await ConsoleSettingsTests.save(owner, page, action, form)
                #expect(refused.status == 400, "\(message)")
                #expect(ConsoleSettingsTests.notice(refused.body) == message)
                #expect(!refused.body.contains("<script>alert"))
            }
            // The refused name is in its field again, escaped, its direction override visible.
            let typed = try await ConsoleSettingsTests.save(owner, "/console/settings", "tenants", ["display-name": hostile])
            #expect(typed.body.contains("value=\"&lt;script&gt;alert(1)&lt;/script&gt;[U+202E]evil\""))
            #expect(
                try await ConsoleSettingsTests.save(owner, "/console/settings", "tenants/no-such-tenant/rename", ["display-name": "Good"]).status
                    == 404)
            #expect(try await ConsoleSettingsTests.save(owner, "/console/settings", "tenants/\(tenantID)/nothing", [:]).status == 404)
            #expect(try await live.services.store.tenants(after: nil, limit: 10).map(\.displayName) == ["Acme"])

            // A name that reached the database another way is shown inert in the list, the switcher and the tenant's page.
            try await live.services.store.createTenant(TenantRecord(id: "stored-hostile", displayName: hostile, createdAt: live.clock.now))
            for path in ["/console/settings", "/console/settings?tenant=stored-hostile", "/console/users"] {
                let page = try await owner.get(path)
                #expect(page.status == 200, "\(path)")
                #expect(!page.body.contains("<script>alert") && !page.body.contains("\u{202E}"), "\(path)")
                #expect(page.body.contains("&lt;script&gt;alert(1)&lt;/script&gt;[U+202E]evil"), "\(path)")
            }
        }
    }

    @Test("the users pages follow the tenant switcher: a user of one tenant is neither seen nor changed under another or the project")
    func usersByTenant() async throws {
        try await ConsoleTests.withConsole { live in
            let editor = try await ConsoleTests.signIn(live, try await ConsoleTests.addOperator(live, "ed@example.com", role: .editor))
            let tenantA = try await ConsoleSettingsTests.createTenant(live, "Acme")
            let tenantB = try await ConsoleSettingsTests.createTenant(live, "Globex")
            // The same address in each scope: three users.
            var uids: [String?: String] = [:]
            for tenant in [nil, tenantA, tenantB] as [String?] {
                let query = tenant.map { "?tenant=\($0)" } ?? ""
                let csrf = try #require(try await editor.get("/console/users/new\(query)").csrf)
                let created = try await editor.post(
                    "/console/users",
                    ["csrf": csrf, "email": "same@example.com", "password": "a password"].merging(tenant.map { ["tenant": $0] } ?? [:]) { a, _ in a })
                #expect(created.status == 303)
                let location = try #require(created.location)
                #expect(location.hasSuffix("?done=created" + (tenant.map { "&tenant=\($0)" } ?? "")))
                uids[tenant] = try #require(location.split(separator: "/").last?.split(separator: "?").first.map(String.init))
            }
            let (inA, inB, inProject) = (try #require(uids[tenantA]), try #require(uids[tenantB]), try #require(uids[nil]))
            #expect(try await live.services.scoped(to: tenantA).store.user(uid: inA)?.email == "same@example.com")
            #expect(try await live.services.store.user(uid: inA) == nil)

            for (tenant, own) in [(tenantA, inA), (tenantB, inB), (nil, inProject)] as [(String?, String)] {
                let query = tenant.map { "tenant=\($0)" } ?? ""
                let others = [inA, inB, inProject].filter { $0 != own }
                for path in ["/console/users?\(query)", "/console/users?q=same%40example.com&\(query)", "/console/users?q=same&\(query)"] {
                    let page = try await editor.get(path)
                    #expect(page.status == 200, "\(path)")
                    #expect(page.body.contains(own), "\(path)")
                    #expect(!others.contains { page.body.contains($0) }, "\(path)")
                }
                for other in others {
                    #expect(try await editor.get("/console/users?q=\(other)&\(query)").body.contains("No user matches"))
                    #expect(try await editor.get("/console/users/\(other)?\(query)").status == 404)
                    let csrf = try #require(try await editor.get("/console/users?\(query)").csrf)
                    let form = ["csrf": csrf].merging(tenant.map { ["tenant": $0] } ?? [:]) { a, _ in a }
                    let refused = try await editor.post("/console/users/\(other)/disable", form)
                    #expect(refused.status == 404)
                    #expect(ConsoleSettingsTests.notice(refused.body) == "There is no such user (any more).")
                    #expect(try await editor.post("/console/users/\(other)/delete", form.merging(["confirm": other]) { a, _ in a }).status == 404)
                }
                let page = try await editor.get("/console/users/\(own)?\(query)")
                #expect(page.status == 200)
                if let tenant {
                    // Every form of the user's page carries the tenant, and the listing's links keep it.
                    let forms = page.body.matches(of: #/<form class="(inline|stack)" method="post" action="/console/users/[^"]+">/#).count
                    #expect(forms >= 5)
                    #expect(page.body.components(separatedBy: "<input type=\"hidden\" name=\"tenant\" value=\"\(tenant)\">").count - 1 == forms)
                    #expect(try await editor.get("/console/users?\(query)").body.contains("href=\"/console/users/\(own)?tenant=\(tenant)\""))
                }
            }
            // The users of each scope are all still there, none disabled.
            for (services, uid) in [(live.services.scoped(to: tenantA), inA), (live.services.scoped(to: tenantB), inB), (live.services, inProject)] {
                #expect(try await services.store.user(uid: uid)?.disabled == false)
            }

            // A change in its own tenant takes effect there, keeps the tenant in the redirect, and is that tenant's event.
            let csrf = try #require(try await editor.get("/console/users/\(inA)?tenant=\(tenantA)").csrf)
            let disabled = try await editor.post("/console/users/\(inA)/disable", ["csrf": csrf, "tenant": tenantA])
            #expect(disabled.location == "/console/users/\(inA)?done=disable&tenant=\(tenantA)")
            let tenantStore = live.services.scoped(to: tenantA).store
            #expect(try await tenantStore.user(uid: inA)?.disabled == true)
            let events = try await tenantStore.auditEvents(uid: inA, kind: .adminUserUpdated, after: nil, limit: 5)
            #expect(events.first?.actorID == "operator:ed@example.com" && events.first?.details["fields"] == "disableUser")
            let deleted = try await editor.post("/console/users/\(inA)/delete", ["csrf": csrf, "tenant": tenantA, "confirm": inA])
            #expect(deleted.location == "/console/users?deleted=1&tenant=\(tenantA)")
            #expect(try await tenantStore.user(uid: inA) == nil)
            #expect(try await live.services.scoped(to: tenantB).store.user(uid: inB) != nil)
            #expect(try await editor.get("/console/users?tenant=no-such-tenant").status == 404)
        }
    }
}
