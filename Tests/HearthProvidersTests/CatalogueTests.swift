import Foundation
import HearthCore
import HearthProviders
import Testing

/// Settings as the server's configuration would give them, by dotted key.
private struct SettingsTable: ProviderSettingsSource {
    struct Problem: Error, Equatable {
        let key: String
    }

    var values: [String: String]

    func string(_ key: String, isSecret: Bool) throws -> String? { values[key] }
    func stringArray(_ key: String, isSecret: Bool) throws -> [String]? { values[key]?.split(separator: ",").map(String.init) }
    func bool(_ key: String) throws -> Bool? { values[key].map { $0 == "true" } }
    func int(_ key: String, in range: ClosedRange<Int>) throws -> Int? { values[key].flatMap(Int.init) }
    func problem(_ key: String, _ problem: String) -> any Error { Problem(key: key) }
}

@Suite("One catalogue of providers")
struct CatalogueTests {
    @Test("every provider has one description; ids, settings keys and families do not overlap")
    func descriptions() {
        let ids = ProviderCatalogue.all.map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(Set(ProviderCatalogue.all.map(\.settingsKey)).count == ids.count)
        #expect(
            ProviderCatalogue.builtInProviderIDs
                == ["apple.com", "microsoft.com", "twitter.com", "google.com", "facebook.com", "github.com", "yahoo.com"])
        for id in ProviderCatalogue.builtInProviderIDs { #expect(ProviderCatalogue.description(of: id)?.id == id) }
        #expect(ProviderCatalogue.description(of: "oidc.corp")?.isFamily == true)
    }

    @Test(
        "known means in the catalogue, configured or not",
        arguments: [
            ("yahoo.com", true), ("oidc.anything", true), ("google.com", true), ("oidc.", false), ("myspace.com", false),
            ("", false), ("saml.corp", true), ("saml.", false),
        ])
    func known(id: String, known: Bool) {
        #expect(ProviderCatalogue.isKnown(id) == known)
    }

    @Test("each provider reads its own section, and says which key is missing")
    func reading() throws {
        let providers = try ProvidersConfiguration.reading(
            SettingsTable(values: [
                "providers.yahoo.enabled": "true", "providers.yahoo.clientIds": "dj0yJmk9", "providers.yahoo.clientSecret": "s3cret",
                "providers.google.enabled": "true", "providers.google.clientIds": "web.apps.googleusercontent.com",
                "providers.oidc.names": "corp", "providers.oidc.corp.issuer": "https://id.corp.example",
                "providers.oidc.corp.clientIds": "corp-app",
            ]))
        #expect(providers.yahoo.isUsable && providers.yahoo.supportsBrowserSignIn)
        #expect(providers.google.clientIDs == ["web.apps.googleusercontent.com"])
        #expect(providers.oidc["corp"]?.issuer == "https://id.corp.example")
        #expect(!providers.apple.enabled)
        #expect(!providers.description.contains("s3cret"))

        #expect(throws: SettingsTable.Problem(key: "providers.yahoo.clientIds")) {
            try ProvidersConfiguration.reading(SettingsTable(values: ["providers.yahoo.enabled": "true"]))
        }
        #expect(throws: SettingsTable.Problem(key: "providers.yahoo.discoveryURL")) {
            try ProvidersConfiguration.reading(SettingsTable(values: ["providers.yahoo.discoveryURL": "javascript:alert(1)"]))
        }
    }

    @Test("a former name is read when the new name is absent; the new one wins; only renamed leaves of the provider's own section")
    func formerNames() throws {
        let former = try ProvidersConfiguration.reading(
            SettingsTable(values: [
                "providers.facebook.appID": "old-app", "providers.facebook.appSecret": "old-secret",
                "providers.twitter.consumerKey": "old-key", "providers.twitter.clientKey": "not-a-name",
                "providers.oidc.names": "corp", "providers.oidc.corp.issuer": "https://id.corp.example",
                "providers.oidc.corp.clientIDs": "old-corp",
            ]))
        #expect(former.facebook.appID == "old-app" && former.facebook.appSecret.value == "old-secret")
        #expect(former.twitter.consumerKey == "old-key")
        #expect(former.oidc["corp"]?.clientIDs == ["old-corp"])
        let both = try ProvidersConfiguration.reading(
            SettingsTable(values: ["providers.facebook.appID": "old-app", "providers.facebook.clientId": "new-app"]))
        #expect(both.facebook.appID == "new-app")

        let facebook = try #require(ProviderCatalogue.description(of: "facebook.com"))
        #expect(facebook.formerName(of: "providers.facebook.clientId") == "providers.facebook.appID")
        #expect(facebook.formerName(of: "providers.google.clientId") == nil)
        #expect(facebook.formerName(of: "providers.facebook.x.clientId") == nil)
        let oidc = try #require(ProviderCatalogue.description(of: "oidc.corp"))
        #expect(oidc.formerName(of: "providers.oidc.corp.clientIds") == "providers.oidc.corp.clientIDs")
        #expect(oidc.formerName(of: "providers.oidc.clientIds") == nil)
        #expect(oidc.formerName(of: "providers.oidc..clientIds") == nil)
    }

    @Test("whitelistedAudiences: every client id after clientId, checked, and only where a provider takes several")
    func additionalClientIDs() throws {
        var google = IdentityProviderSetting(providerID: "google.com", enabled: true)
        google.clientID = "web"
        google.additionalClientIDs = ["ios", "web", "android"]
        try ProviderCatalogue.validate(google)
        #expect(google.clientIDs == ["web", "ios", "android"])
        #expect(ProvidersConfiguration().applying([google]).google.clientIDs == ["web", "ios", "android"])

        var apple = IdentityProviderSetting(providerID: "apple.com", enabled: true)
        apple.clientID = "com.example.web"
        apple.additionalClientIDs = ["com.example.other"]
        apple.appleBundleIDs = ["com.example.app"]
        try ProviderCatalogue.validate(apple)
        let applied = ProvidersConfiguration().applying([apple])
        #expect(applied.apple.serviceIDs == ["com.example.web", "com.example.other"])
        #expect(applied.apple.bundleIDs == ["com.example.app"])

        let refused = { (setting: IdentityProviderSetting) -> String? in
            do {
                try ProviderCatalogue.validate(setting)
                return nil
            } catch let error as HearthError {
                return error.detail
            } catch {
                return "\(error)"
            }
        }
        var github = IdentityProviderSetting(providerID: "github.com", enabled: true)
        github.clientID = "gh"
        github.additionalClientIDs = ["other"]
        #expect(refused(github) == "whitelistedAudiences is only for apple.com, google.com, microsoft.com, yahoo.com and oidc. providers")
        google.clientID = nil
        google.enabled = false
        #expect(refused(google) == "whitelistedAudiences needs a clientId")
        google.clientID = "web"
        let malformed =
            "whitelistedAudiences must be at most 50 client IDs of 1 to 256 characters, without spaces or control characters"
        for bad in [[""], ["with space"], ["nul\u{0}"], ["line\nbreak"], [String(repeating: "a", count: 257)], Array(repeating: "a", count: 51)] {
            google.additionalClientIDs = bad
            #expect(refused(google) == malformed, "\(bad.prefix(1))")
        }
    }

    @Test("admin settings apply through each provider's description, and are checked by it")
    func adminSettings() throws {
        var yahoo = IdentityProviderSetting(providerID: "yahoo.com", enabled: true)
        #expect(throws: HearthError(.invalidOAuthClientID, detail: "clientId is required")) { try ProviderCatalogue.validate(yahoo) }
        yahoo.clientID = "dj0yJmk9"
        yahoo.clientSecret = "s3cret"
        try ProviderCatalogue.validate(yahoo)
        yahoo.microsoftTenant = "common"
        #expect(throws: HearthError.self) { try ProviderCatalogue.validate(yahoo) }
        yahoo.microsoftTenant = nil

        let applied = ProvidersConfiguration().applying([yahoo])
        #expect(applied.yahoo.clientIDs == ["dj0yJmk9"])
        #expect(applied.yahoo.supportsBrowserSignIn)
        #expect(throws: HearthError.self) { try ProviderCatalogue.validate(IdentityProviderSetting(providerID: "myspace.com", enabled: true)) }
    }

    @Test("filling the providers a configuration leaves off keeps the ones it switches on")
    func filling() {
        var own = ProvidersConfiguration()
        own.google = .init(enabled: true, clientIDs: ["mine"])
        own.oidc["corp"] = .init(issuer: "https://id.corp.example", clientIDs: ["mine"])
        var fallback = ProvidersConfiguration()
        fallback.google = .init(enabled: true, clientIDs: ["sandbox"])
        fallback.yahoo = .init(enabled: true, clientIDs: ["sandbox"])
        fallback.oidc["corp"] = .init(issuer: "https://sandbox.example/corp", clientIDs: ["sandbox"])
        fallback.oidc["sandbox"] = .init(issuer: "https://sandbox.example/oidc", clientIDs: ["sandbox"])
        let merged = own.fillingDisabled(from: fallback)
        #expect(merged.google.clientIDs == ["mine"])
        #expect(merged.yahoo.clientIDs == ["sandbox"])
        #expect(merged.oidc["corp"]?.clientIDs == ["mine"])
        #expect(merged.oidc["sandbox"]?.clientIDs == ["sandbox"])
    }
}
