import Foundation
import HearthCore
import HearthProviders
import HearthTesting
import HearthWire
import Testing

@testable import HearthServer

/// The providers' own sections on `/console/settings/providers` (Apple's code-flow key, Microsoft's tenant rule, the
/// other client IDs) and the mail and SMS blocking hooks on `/console/settings`: saved through the admin API's use
/// cases, Apple's private key write-only like a client secret, hostile values shown inert.
@Suite("Console provider sections", .serialized)
struct ConsoleProviderSectionsTests {
    static let path = "/console/settings/providers"

    @Test("Apple's bundle IDs, team ID, key ID and write-only private key, and other client IDs, as the admin API shows them")
    func apple() async throws {
        try await ConsoleTests.withConsole { live in
            let owner = try await ConsoleTests.signIn(live, try await ConsoleTests.addOperator(live, "owner@example.com", role: .owner))
            let key = "-----BEGIN PRIVATE KEY-----\nMIGTAgEAconsoleAppleKeyVq93\n-----END PRIVATE KEY-----"
            let saved = try await ConsoleSettingsTests.save(
                owner, Self.path, "apple.com/save",
                [
                    "enabled": "on", "client-id": "com.example.web", "audiences": "com.example.other\n com.example.third ",
                    "apple-bundle-ids": "com.example.ios, com.example.mac", "apple-team-id": "TEAM123456", "apple-key-id": "KEY1234567",
                    "apple-private-key": key,
                ])
            #expect(saved.status == 303, "\(ConsoleSettingsTests.notice(saved.body) ?? "")")
            let answered = try await ConsoleSettingsTests.adminGet(live, "/v2/projects/\(live.projectID)/defaultSupportedIdpConfigs/apple.com")
            let apple = try answered.decode(DefaultSupportedIdpConfig.self)
            #expect(apple.whitelistedAudiences == ["com.example.other", "com.example.third"])
            #expect(apple.appleSignInConfig?.bundleIds == ["com.example.ios", "com.example.mac"])
            #expect(apple.appleSignInConfig?.codeFlowConfig?.teamId == "TEAM123456" && apple.appleSignInConfig?.codeFlowConfig?.keyId == "KEY1234567")
            #expect(apple.appleSignInConfig?.codeFlowConfig?.privateKey == nil && !answered.text.contains("consoleAppleKey"))
            var page = try await owner.get(Self.path)
            #expect(!page.body.contains("consoleAppleKey"))
            #expect(page.body.contains("<dt>Private key</dt><dd><span class=\"secret-state\">set</span></dd>"))
            #expect(page.body.contains("com.example.mac") && page.body.contains("TEAM123456"))

            // Saved again with the key field empty: the key stays; emptied lists and ids are cleared.
            #expect(
                try await ConsoleSettingsTests.save(owner, Self.path, "apple.com/save", ["enabled": "on", "client-id": "com.example.web"]).status
                    == 303)
            let stored = try #require(try await live.services.store.setting(IdentityProviderSetting.storageName(for: "apple.com")))
            let setting = try #require(IdentityProviderSetting(storedText: stored))
            #expect(setting.applePrivateKey == key)
            #expect(setting.appleTeamID == nil && setting.appleBundleIDs == nil && setting.additionalClientIDs == nil)
            page = try await owner.get(Self.path)
            #expect(!page.body.contains("consoleAppleKey"))
            let events = try await live.services.store.auditEvents(uid: nil, kind: .adminProviderSettingsChanged, after: nil, limit: 10)
            #expect(events.count == 2 && events.allSatisfy { $0.actorID == "operator:owner@example.com" && $0.details["provider"] == "apple.com" })
        }
    }

    @Test("Microsoft's tenant rule, an OIDC provider's other client IDs, and hostile values refused or shown inert")
    func microsoftAndAudiences() async throws {
        try await ConsoleTests.withConsole { live in
            let owner = try await ConsoleTests.signIn(live, try await ConsoleTests.addOperator(live, "owner@example.com", role: .owner))
            let guid = "9188040d-6c67-4c5b-b112-36a304b66dad"
            #expect(
                try await ConsoleSettingsTests.save(
                    owner, Self.path, "microsoft.com/save",
                    ["enabled": "on", "client-id": "ms-client", "microsoft-tenant": "organizations", "microsoft-allowed-tenants": guid]
                ).status == 303)
            let microsoft = try await ConsoleSettingsTests.adminGet(live, "/v2/projects/\(live.projectID)/defaultSupportedIdpConfigs/microsoft.com")
                .decode(DefaultSupportedIdpConfig.self)
            #expect(microsoft.microsoftSignInConfig?.tenant == "organizations" && microsoft.microsoftSignInConfig?.allowedTenantIds == [guid])

            let added = try await ConsoleSettingsTests.save(
                owner, Self.path, "",
                [
                    "kind": "oidc", "id": "oidc.corp", "enabled": "on", "issuer": "https://idp.corp.example", "client-id": "corp-web",
                    "audiences": "<script>alert(1)</script>",
                ])
            #expect(added.status == 303, "\(ConsoleSettingsTests.notice(added.body) ?? "")")
            let oidc = try await ConsoleSettingsTests.adminGet(live, "/v2/projects/\(live.projectID)/oauthIdpConfigs/oidc.corp").decode(
                OAuthIdpConfig.self)
            #expect(oidc.whitelistedAudiences == ["<script>alert(1)</script>"])
            let page = try await owner.get(Self.path)
            #expect(!page.body.contains("<script>alert"))
            #expect(page.body.contains("<dd><bdi>&lt;script&gt;alert(1)&lt;/script&gt;</bdi></dd>"))

            let cases: [(String, [String: String], String)] = [
                ("google.com/save", ["audiences": "web\u{0}client"], "The other client IDs may not hold control characters."),
                (
                    "google.com/save", ["client-id": "web", "audiences": "two words\nok"],
                    "whitelistedAudiences must be at most 50 client IDs of 1 to 256 characters, without spaces or control characters"
                ),
                ("google.com/save", ["audiences": "android-client"], "whitelistedAudiences needs a clientId"),
                ("apple.com/save", ["apple-team-id": String(repeating: "T", count: 65)], "The team ID is too long: at most 64 characters."),
                ("apple.com/save", ["apple-private-key": "key\u{7}"], "The private key may not hold control characters."),
                ("microsoft.com/save", ["microsoft-tenant": "a\u{1B}b"], "The tenant may not hold control characters."),
            ]
            for (action, form, message) in cases {
                let refused = try await ConsoleSettingsTests.save(owner, Self.path, action, form)
                #expect(refused.status == 400, "\(message)")
                #expect(ConsoleSettingsTests.notice(refused.body) == message)
            }
            // A viewer sees the sections without their forms; a forged post is refused.
            let viewer = try await ConsoleTests.signIn(live, try await ConsoleTests.addOperator(live, "vi@example.com", role: .viewer))
            let viewed = try await viewer.get(Self.path)
            #expect(viewed.body.contains("<dt>Tenant</dt><dd><bdi>organizations</bdi></dd>") && !viewed.body.contains("name=\"microsoft-tenant\""))
            let csrf = try #require(viewed.csrf)
            #expect(try await viewer.post("\(Self.path)/microsoft.com/save", ["csrf": csrf, "microsoft-tenant": "common"]).status == 403)
            #expect(try await owner.post("\(Self.path)/microsoft.com/save", ["microsoft-tenant": "common"]).status == 403)
            let kept = try await ConsoleSettingsTests.adminGet(live, "/v2/projects/\(live.projectID)/defaultSupportedIdpConfigs/microsoft.com")
            #expect(try kept.decode(DefaultSupportedIdpConfig.self).microsoftSignInConfig?.tenant == "organizations")
        }
    }

    @Test("the mail and SMS blocking hooks are saved with the others, their rule's message when not HTTPS")
    func mailAndSMSHooks() async throws {
        try await ConsoleTests.withConsole { live in
            let owner = try await ConsoleTests.signIn(live, try await ConsoleTests.addOperator(live, "owner@example.com", role: .owner))
            let saved = try await ConsoleSettingsTests.save(
                owner, "/console/settings", "hooks",
                ["hook-before-send-email": "https://hooks.example.com/mail", "hook-before-send-sms": "https://hooks.example.com/sms"])
            #expect(saved.status == 303)
            let config = try await ConsoleSettingsTests.adminGet(live, "/v2/projects/\(live.projectID)/config").decode(ProjectConfig.self)
            #expect(config.blockingFunctions?.triggers?["beforeSendEmail"]?.functionUri == "https://hooks.example.com/mail")
            #expect(config.blockingFunctions?.triggers?["beforeSendSms"]?.functionUri == "https://hooks.example.com/sms")
            #expect(config.blockingFunctions?.triggers?["beforeCreate"] == nil)
            let page = try await owner.get("/console/settings")
            #expect(page.body.contains("value=\"https://hooks.example.com/sms\""))
            let refused = try await ConsoleSettingsTests.save(
                owner, "/console/settings", "hooks", ["hook-before-send-email": "http://hooks.example.com/mail"])
            #expect(refused.status == 400)
            #expect(ConsoleSettingsTests.notice(refused.body) == "blockingFunctions.triggers.beforeSendEmail.functionUri must be an https URL.")
            // Emptied, they are gone.
            #expect(try await ConsoleSettingsTests.save(owner, "/console/settings", "hooks", [:]).status == 303)
            let emptied = try await ConsoleSettingsTests.adminGet(live, "/v2/projects/\(live.projectID)/config").decode(ProjectConfig.self)
            #expect(emptied.blockingFunctions?.triggers == nil || emptied.blockingFunctions?.triggers?.isEmpty == true)
        }
    }
}
