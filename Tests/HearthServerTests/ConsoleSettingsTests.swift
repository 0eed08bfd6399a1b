import Foundation
import HTTPTypes
import HearthCore
import HearthSandbox
import HearthTesting
import HearthWire
import Testing

@testable import HearthServer

/// The console's sign-in methods and settings pages (`/console/settings/providers`, `/console/settings`) against a live
/// production-mode server: what a viewer sees and may not do, every owner's change taking effect over the REST and admin
/// APIs with its audit event naming the operator, secrets never shown again, each refused input with its message, other
/// sites' and token-less posts refused; in Chromium, the tenant switcher.
@Suite("Console settings", .serialized)
struct ConsoleSettingsTests {
    static let admin: HTTPFields = [.authorization: "Bearer \(ConsoleTests.adminToken)"]

    @Test("every settings page renders for a viewer, the project's and a tenant's; a viewer's or an editor's change is refused")
    func pagesAndRoles() async throws {
        try await ConsoleTests.withConsole { live in
            let viewer = try await ConsoleTests.signIn(live, try await ConsoleTests.addOperator(live, "vi@example.com", role: .viewer))
            let editor = try await ConsoleTests.signIn(live, try await ConsoleTests.addOperator(live, "ed@example.com", role: .editor))
            let tenantID = try await Self.createTenant(live, "Acme")
            for path in [
                "/console/settings", "/console/settings/providers", "/console/settings?tenant=\(tenantID)",
                "/console/settings/providers?tenant=\(tenantID)",
            ] {
                let page = try await viewer.get(path)
                #expect(page.status == 200, "\(path)")
                #expect(page.body.contains("id=\"tenant-switcher\""), "\(path)")
                #expect(!page.body.contains("<button type=\"submit\">Save"), "\(path)")
            }
            let providers = try await viewer.get("/console/settings/providers")
            for name in ["Google", "Apple", "Microsoft", "Twitter", "Facebook", "GitHub", "Yahoo"] { #expect(providers.body.contains(name)) }
            #expect(try await viewer.get("/console/settings?tenant=\(tenantID)").body.contains("Settings of <bdi>tenant Acme</bdi>"))
            #expect(try await viewer.get("/console/settings?tenant=nobody-here").status == 404)
            #expect(try await viewer.get("/console/settings?tenant=%00%3Cscript%3E").status == 404)

            for client in [viewer, editor] {
                let csrf = try #require(try await client.get("/console/settings").csrf)
                let refused = try await client.post("/console/settings/methods", ["csrf": csrf, "password": "on"])
                #expect(refused.status == 403)
                #expect(refused.body.contains("needs an owner"))
                #expect(try await client.post("/console/settings/providers/google.com/save", ["csrf": csrf, "enabled": "on"]).status == 403)
                #expect(try await client.post("/console/settings/providers", ["csrf": csrf, "kind": "oidc", "id": "oidc.x"]).status == 403)
            }
            #expect(try await live.services.projectSettings.projectSettings().anonymousEnabled)
            #expect(try await live.services.store.settings(withPrefix: IdentityProviderSetting.storagePrefix).isEmpty)
        }
    }

    @Test("an owner's project settings take effect over the REST API, each with its audit event naming the operator")
    func projectSettings() async throws {
        try await ConsoleTests.withConsole { live in
            let owner = try await ConsoleTests.signIn(live, try await ConsoleTests.addOperator(live, "owner@example.com", role: .owner))
            let client = Self.restClient(live)
            #expect(try await client.post("/v1/accounts:signUp", ["returnSecureToken": .bool(true)]).status == .ok)

            #expect(try await Self.save(owner, "/console/settings", "methods", ["password": "on", "email-link": "on"]).status == 303)
            #expect(try await client.post("/v1/accounts:signUp", ["returnSecureToken": .bool(true)]).errorMessage == "ADMIN_ONLY_OPERATION")
            #expect(try await Self.save(owner, "/console/settings", "accounts", ["enumeration": "on", "cleanup": "on"]).status == 303)
            let saved = try await Self.save(
                owner, "/console/settings", "phone",
                ["test-numbers": "+16505551234 123456\n+447700900123, 654321", "regions-mode": "allow", "regions": "US, GB"])
            #expect(saved.status == 303)
            #expect(saved.location == "/console/settings?saved=phone#phone")
            #expect(
                try await Self.save(owner, "/console/settings", "mfa", ["mfa-state": "ENABLED", "mfa-totp": "on", "mfa-intervals": "3"]).status == 303
            )
            #expect(
                try await Self.save(owner, "/console/settings", "hooks", ["hook-before-create": "https://hooks.example.com/create"]).status == 303)

            let config = try await Self.adminGet(live, "/v2/projects/\(live.projectID)/config").decode(ProjectConfig.self)
            #expect(config.signIn?.anonymous?.enabled == false)
            #expect(config.signIn?.email?.enabled == true && config.signIn?.email?.passwordRequired == false)
            #expect(config.signIn?.allowDuplicateEmails == true)
            #expect(config.emailPrivacyConfig?.enableImprovedEmailPrivacy == true)
            #expect(config.autodeleteAnonymousUsers == true)
            #expect(config.signIn?.phoneNumber?.testPhoneNumbers == ["+16505551234": "123456", "+447700900123": "654321"])
            #expect(config.smsRegionConfig?.allowlistOnly?.allowedRegions == ["GB", "US"])
            #expect(config.mfa?.state == "ENABLED" && config.mfa?.providerConfigs?.first?.state == "ENABLED")
            #expect(config.mfa?.providerConfigs?.first?.totpProviderConfig?.adjacentIntervals == 3)
            #expect(config.blockingFunctions?.triggers?["beforeCreate"]?.functionUri == "https://hooks.example.com/create")

            let page = try await owner.get("/console/settings?saved=phone")
            #expect(page.body.contains("Saved."))
            #expect(page.body.contains("+447700900123 654321"))
            let events = try await live.services.store.auditEvents(uid: nil, kind: .adminProjectSettingsChanged, after: nil, limit: 10)
            #expect(events.count == 5)
            #expect(events.allSatisfy { $0.actorID == "operator:owner@example.com" && $0.actor == .administrator })
            #expect(events.contains { $0.details["fields"] == "mfa" })
        }
    }

    @Test("providers: on and off with write-only secrets (never in the page), OIDC and SAML added and removed, each audited")
    func providers() async throws {
        try await ConsoleTests.withConsole { live in
            let owner = try await ConsoleTests.signIn(live, try await ConsoleTests.addOperator(live, "owner@example.com", role: .owner))
            let path = "/console/settings/providers"
            let secret = "google-secret-value-Zq81"
            #expect(
                try await Self.save(owner, path, "google.com/save", ["enabled": "on", "client-id": "web.apps.example", "client-secret": secret])
                    .status
                    == 303)
            let google = try await Self.adminGet(live, "/v2/projects/\(live.projectID)/defaultSupportedIdpConfigs/google.com")
                .decode(DefaultSupportedIdpConfig.self)
            #expect(google.enabled == true && google.clientId == "web.apps.example")
            var page = try await owner.get(path)
            #expect(!page.body.contains(secret))
            #expect(page.body.contains("<span class=\"secret-state\">set</span>"))
            // An empty secret field keeps the secret; turning the provider off shows in the admin API.
            #expect(try await Self.save(owner, path, "google.com/save", ["client-id": "web.apps.example"]).status == 303)
            let stored = try #require(try await live.services.store.setting(IdentityProviderSetting.storageName(for: "google.com")))
            #expect(IdentityProviderSetting(storedText: stored)?.clientSecret == secret)
            let off = try await Self.adminGet(live, "/v2/projects/\(live.projectID)/defaultSupportedIdpConfigs/google.com")
            #expect(try off.decode(DefaultSupportedIdpConfig.self).enabled == false)

            let oidcSecret = "oidc-secret-value-Pw27"
            let added = try await Self.save(
                owner, path, "",
                [
                    "kind": "oidc", "id": "oidc.corp", "enabled": "on", "display-name": "<script>alert(1)</script>\u{202E}Corp",
                    "issuer": "https://idp.corp.example", "client-id": "corp-client", "client-secret": oidcSecret,
                ])
            #expect(added.status == 303)
            let oidc = try await Self.adminGet(live, "/v2/projects/\(live.projectID)/oauthIdpConfigs/oidc.corp").decode(OAuthIdpConfig.self)
            #expect(oidc.enabled == true && oidc.issuer == "https://idp.corp.example" && oidc.clientSecret == oidcSecret)
            page = try await owner.get(path)
            #expect(!page.body.contains(oidcSecret) && !page.body.contains("<script>alert"))
            #expect(page.body.contains("&lt;script&gt;alert(1)&lt;/script&gt;[U+202E]Corp"))

            let certificate = try live.sandbox.samlCertificatePEM()
            let saml = try await Self.save(
                owner, path, "",
                [
                    "kind": "saml", "id": "saml.okta", "enabled": "on", "display-name": "Okta", "idp-entity-id": live.sandbox.samlEntityID,
                    "sso-url": live.sandbox.samlSSOURL, "idp-certificate": certificate, "sp-entity-id": "https://hearth.example/sp",
                ])
            #expect(saml.status == 303, "\(saml.body)")
            let samlConfig = try await Self.adminGet(live, "/v2/projects/\(live.projectID)/inboundSamlConfigs/saml.okta")
                .decode(InboundSamlConfig.self)
            #expect(samlConfig.enabled == true && samlConfig.idpConfig?.idpCertificates?.first?.x509Certificate == certificate)
            page = try await owner.get(path)
            let spCertificate = try #require(samlConfig.spConfig?.spCertificates?.first?.x509Certificate)
            #expect(page.body.contains(spCertificate.components(separatedBy: "\n")[1]))
            #expect(page.body.contains("https://hearth.example/sp") && !page.body.contains("PRIVATE KEY"))
            // Saving the SAML provider with the certificate field empty keeps its certificate.
            #expect(
                try await Self.save(
                    owner, path, "saml.okta/save",
                    [
                        "display-name": "Okta", "idp-entity-id": live.sandbox.samlEntityID, "sso-url": live.sandbox.samlSSOURL,
                        "sp-entity-id": "https://hearth.example/sp",
                    ]
                ).status == 303)
            let kept = try await Self.adminGet(live, "/v2/projects/\(live.projectID)/inboundSamlConfigs/saml.okta").decode(InboundSamlConfig.self)
            #expect(kept.enabled == false && kept.idpConfig?.idpCertificates?.count == 1)

            #expect(try await Self.save(owner, path, "oidc.corp/delete", [:]).location == "\(path)?removed=oidc.corp")
            #expect(
                try await Self.adminGet(live, "/v2/projects/\(live.projectID)/oauthIdpConfigs/oidc.corp").errorMessage == "CONFIGURATION_NOT_FOUND")
            let events = try await live.services.store.auditEvents(uid: nil, kind: .adminProviderSettingsChanged, after: nil, limit: 20)
            // The clock stands still: the events share a time, so their order is not asked.
            #expect(
                events.map { "\($0.details["provider"] ?? "") \($0.details["operation"] ?? "")" }.sorted() == [
                    "google.com created", "google.com updated", "oidc.corp created", "oidc.corp deleted", "saml.okta created", "saml.okta updated",
                ])
            #expect(events.allSatisfy { $0.actorID == "operator:owner@example.com" })
        }
    }

    @Test("each refused input shows its message on the page (the admin API's rules), never a 500, and changes nothing")
    func refusedInputs() async throws {
        try await ConsoleTests.withConsole { live in
            let owner = try await ConsoleTests.signIn(live, try await ConsoleTests.addOperator(live, "owner@example.com", role: .owner))
            let eleven = (0..<11).map { "+1650555123\($0 % 10)\($0 / 10) 123456" }.joined(separator: "\n")
            let cases: [(String, String, [String: String], String)] = [
                ("/console/settings", "phone", ["test-numbers": eleven], "At most 10 test phone numbers are allowed."),
                ("/console/settings", "phone", ["test-numbers": "12345 123456"], "A test phone number must be E.164, e.g. +16505551234."),
                (
                    "/console/settings", "phone", ["test-numbers": "+16505551234 12ab56"],
                    "The code of test phone number +16505551234 must be 6 digits."
                ),
                (
                    "/console/settings", "phone", ["test-numbers": "+16505551234"],
                    "Each line of the test phone numbers is a number and its code, e.g. +16505551234 123456."
                ),
                ("/console/settings", "phone", ["regions": "usa"], "Invalid region code in smsRegionConfig: usa."),
                ("/console/settings", "mfa", ["mfa-state": "ENABLED", "mfa-intervals": "11"], "adjacentIntervals must be between 0 and 10."),
                ("/console/settings", "mfa", ["mfa-state": "ENABLED", "mfa-intervals": "three"], "adjacentIntervals must be between 0 and 10."),
                ("/console/settings", "mfa", ["mfa-state": "ON", "mfa-intervals": "5"], "mfa.state must be DISABLED, ENABLED or MANDATORY."),
                (
                    "/console/settings", "hooks", ["hook-before-create": "http://hooks.example.com/create"],
                    "blockingFunctions.triggers.beforeCreate.functionUri must be an https URL."
                ),
                ("/console/settings", "hooks", ["hook-before-sign-in": "https://x.example/\u{0}"], "beforeSignIn may not hold control characters."),
                (
                    "/console/settings/providers", "", ["kind": "oidc", "id": "OIDC.Bad"],
                    "OIDC provider ids look like oidc.<name>, with lower-case letters, digits, '.', '_' and '-'"
                ),
                (
                    "/console/settings/providers", "", ["kind": "oidc", "id": "oidc.x", "enabled": "on", "issuer": "not a url", "client-id": "c"],
                    "issuer must be an absolute http(s) URL"
                ),
                (
                    "/console/settings/providers", "", ["kind": "oidc", "id": "oidc.x", "display-name": String(repeating: "a", count: 10_000)],
                    "The display name is too long: at most 200 characters."
                ),
                (
                    "/console/settings/providers", "google.com/save", ["enabled": "on", "client-id": "web\u{0}client"],
                    "The client ID may not hold control characters."
                ),
            ]
            for (page, action, form, message) in cases {
                let refused = try await Self.save(owner, page, action, form)
                #expect(refused.status == 400, "\(message): \(refused.status)")
                #expect(Self.notice(refused.body) == message)
            }
            #expect(
                try await owner.post("/console/settings/nothing", ["csrf": try #require(try await owner.get("/console/settings").csrf)]).status == 404
            )
            #expect(try await live.services.projectSettings.storedOverrides() == ProjectSettings.Overrides())
            #expect(try await live.services.store.settings(withPrefix: IdentityProviderSetting.storagePrefix).isEmpty)
            let events = try await live.services.store.auditEvents(uid: nil, kind: nil, after: nil, limit: 50)
            #expect(!events.contains { [.adminProjectSettingsChanged, .adminProviderSettingsChanged].contains($0.kind) })
        }
    }

    @Test("a post from another site, or without the session's form token, is refused and changes nothing")
    func crossSiteAndCSRF() async throws {
        try await ConsoleTests.withConsole { live in
            let owner = try await ConsoleTests.signIn(live, try await ConsoleTests.addOperator(live, "owner@example.com", role: .owner))
            let csrf = try #require(try await owner.get("/console/settings").csrf)
            for (path, form) in [
                ("/console/settings/methods", ["password": "on"]), ("/console/settings/providers/google.com/save", ["enabled": "on"]),
                ("/console/settings/providers", ["kind": "oidc", "id": "oidc.evil"]),
            ] {
                #expect(try await owner.post(path, form).status == 403)
                #expect(try await owner.post(path, form.merging(["csrf": String(repeating: "0", count: 64)]) { a, _ in a }).status == 403)
                for headers in [["Origin": "https://evil.example"], ["Sec-Fetch-Site": "cross-site"]] {
                    let refused = try await owner.post(path, form.merging(["csrf": csrf]) { a, _ in a }, headers: headers)
                    #expect(refused.status == 403 && refused.body.contains("another site"))
                }
            }
            #expect(try await live.services.projectSettings.storedOverrides() == ProjectSettings.Overrides())
            #expect(try await live.services.store.settings(withPrefix: IdentityProviderSetting.storagePrefix).isEmpty)
        }
    }

    @Test("Chromium: the tenant switcher shows a tenant's settings; a change there is the tenant's, not the project's; screenshots")
    func tenantSwitcher() async throws {
        try await ConsoleTests.withConsole { live in
            let added = try await ConsoleTests.addOperator(live, "ada@example.com", role: .owner)
            let tenantID = try await Self.createTenant(live, "Acme")
            _ = try await Self.createTenant(live, "Globex")
            try await HeadlessBrowser.with { browser in
                let page = try await browser.newPage()
                let base = "http://localhost:\(live.port)"
                _ = try await page.navigate(to: try #require(URL(string: base + "/console/sign-in")))
                try await page.fill("#email", with: "ada@example.com")
                try await page.fill("#password", with: ConsoleTests.password)
                _ = try await page.clickAndWaitForNavigation("button[type=submit]")
                try await page.fill("#code", with: RFC6238.code(key: added.key, at: live.clock.now))
                _ = try await page.clickAndWaitForNavigation("button[type=submit]")
                _ = try await page.navigate(to: try #require(URL(string: base + "/console/settings")))
                #expect(try await page.text(of: "h1") == "Settings of the project")
                _ = try await page.evaluate("document.querySelector('#tenant').value = '\(tenantID)'")
                _ = try await page.clickAndWaitForNavigation("#tenant-switcher button")
                #expect(page.url?.query == "tenant=\(tenantID)")
                #expect(try await page.text(of: "h1") == "Settings of tenant Acme")
                #expect(try await page.evaluate("document.querySelector('#anonymous').checked") == .bool(false))
                try await page.click("#anonymous")
                _ = try await page.clickAndWaitForNavigation("#methods button[type=submit]")
                #expect(page.url?.query?.contains("tenant=\(tenantID)") == true)
                #expect(try await page.text(of: "#notice") == "Saved.")
                #expect(try await page.evaluate("document.querySelector('#anonymous').checked") == .bool(true))
                #expect(page.consoleErrors.isEmpty, "\(page.consoleErrors)")

                for (mode, dark, width) in [("light", false, 1_100), ("dark", true, 1_100), ("narrow", false, 390)] {
                    try await page.emulateColorScheme(dark: dark)
                    try await page.resize(width: width, height: 900, mobile: width < 500)
                    for (path, name) in [("/console/settings/providers", "sign-in-methods"), ("/console/settings?tenant=\(tenantID)", "settings")] {
                        _ = try await page.navigate(to: try #require(URL(string: base + path)))
                        #expect(page.status == 200, "\(path)")
                        try await ConsoleTests.screenshot(page, "console-\(name)-\(mode)")
                    }
                }
            }
            let tenant = try await Self.adminGet(live, "/v2/projects/\(live.projectID)/tenants/\(tenantID)").decode(TenantResource.self)
            #expect(tenant.enableAnonymousUser == true)
            #expect(try await live.services.projectSettings.storedOverrides() == ProjectSettings.Overrides())
            let signedUp = try await Self.restClient(live).post(
                "/v1/accounts:signUp", ["returnSecureToken": .bool(true), "tenantId": .string(tenantID)])
            #expect(signedUp.status == .ok, "\(signedUp.text)")
            let events = try await live.services.store.auditEvents(uid: nil, kind: .adminTenantChanged, after: nil, limit: 10)
            let change = try #require(events.first { $0.details["operation"] == "update" })
            #expect(change.actorID == "operator:ada@example.com" && change.details["tenant"] == tenantID)
            #expect(change.details["fields"] == "allowPasswordSignup,enableEmailLinkSignin,enableAnonymousUser,disableAuth")
        }
    }

    @Test("a tenant's test phone numbers and second factors through the console, with the tenant rules' messages")
    func tenantSettings() async throws {
        try await ConsoleTests.withConsole { live in
            let owner = try await ConsoleTests.signIn(live, try await ConsoleTests.addOperator(live, "owner@example.com", role: .owner))
            let tenantID = try await Self.createTenant(live, "Acme")
            let page = "/console/settings?tenant=\(tenantID)"
            let saved = try await Self.save(owner, page, "phone", ["tenant": tenantID, "test-numbers": "+16505550000 111111", "regions": "FR"])
            #expect(saved.location == "/console/settings?tenant=\(tenantID)&saved=phone#phone")
            #expect(
                try await Self.save(owner, page, "mfa", ["tenant": tenantID, "mfa-state": "MANDATORY", "mfa-sms": "on", "mfa-intervals": "5"])
                    .status == 303)
            let refused = try await Self.save(owner, page, "mfa", ["tenant": tenantID, "mfa-state": "ENABLED", "mfa-intervals": "42"])
            #expect(Self.notice(refused.body) == "adjacentIntervals must be between 0 and 10.")
            #expect(try await Self.save(owner, page, "hooks", ["tenant": tenantID]).status == 404)
            #expect(try await Self.save(owner, page, "mfa", ["tenant": "no-such-tenant", "mfa-state": "ENABLED"]).status == 404)
            let tenant = try await Self.adminGet(live, "/v2/projects/\(live.projectID)/tenants/\(tenantID)").decode(TenantResource.self)
            #expect(tenant.testPhoneNumbers == ["+16505550000": "111111"])
            #expect(tenant.smsRegionConfig?.allowByDefault?.disallowedRegions == ["FR"])
            #expect(tenant.mfaConfig?.state == "MANDATORY" && tenant.mfaConfig?.enabledProviders == ["PHONE_SMS"])
            let project = try await live.services.projectSettings.projectSettings()
            #expect(project.testPhoneNumbers.isEmpty && project.multiFactor.state == .disabled)
            // A tenant's providers are its own.
            #expect(
                try await Self.save(
                    owner, "/console/settings/providers?tenant=\(tenantID)", "google.com/save",
                    [
                        "tenant": tenantID, "enabled": "on", "client-id": "acme-web",
                    ]
                ).status == 303)
            let tenantGoogle = try await Self.adminGet(
                live, "/v2/projects/\(live.projectID)/tenants/\(tenantID)/defaultSupportedIdpConfigs/google.com")
            #expect(try tenantGoogle.decode(DefaultSupportedIdpConfig.self).clientId == "acme-web")
            #expect(try await live.services.store.setting(IdentityProviderSetting.storageName(for: "google.com")) == nil)
        }
    }

    // MARK: Support

    static func restClient(_ live: LiveHearth) -> FirebaseTestClient {
        var client = FirebaseTestClient(baseURL: live.baseURL)
        client.apiKey = "console-test-api-key"
        return client
    }

    static func adminGet(_ live: LiveHearth, _ path: String) async throws -> WireResult {
        var client = FirebaseTestClient(baseURL: live.baseURL)
        client.apiKey = nil
        return try await client.raw(path, method: .get, headers: admin)
    }

    /// A tenant made through the admin API; its id.
    static func createTenant(_ live: LiveHearth, _ displayName: String, allowPasswordSignup: Bool = false) async throws -> String {
        var client = FirebaseTestClient(baseURL: live.baseURL)
        client.apiKey = nil
        let body = #"{"displayName":"\#(displayName)","allowPasswordSignup":\#(allowPasswordSignup)}"#
        let created = try await client.post("/v2/projects/\(live.projectID)/tenants", json: body, headers: admin)
        return try #require(created.string("tenantId"), "\(created.text)")
    }

    /// Posts `form` to `page`'s `action` (`page`'s path, then `/action`) with the form token of `page`.
    static func save(_ client: ConsoleHTTPClient, _ page: String, _ action: String, _ form: [String: String]) async throws -> ConsoleHTTPClient.Result
    {
        let csrf = try #require(try await client.get(page).csrf)
        let path = String(page.prefix { $0 != "?" }) + (action.isEmpty ? "" : "/\(action)")
        return try await client.post(path, form.merging(["csrf": csrf]) { a, _ in a })
    }

    /// The page's error notice as text.
    static func notice(_ body: String) -> String? {
        body.firstMatch(of: #/<p class="notice error" role="alert" id="notice">(.*?)</p>/#).map {
            String($0.output.1).replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(
                    of: "&amp;", with: "&")
        }
    }
}
