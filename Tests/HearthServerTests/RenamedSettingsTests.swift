import Configuration
import Foundation
import HearthConfiguration
import HearthCore
import HearthServer
import HearthTesting
import Testing

/// The providers' settings under Firebase's names (`clientId`, `clientIds`, `clientSecret`), their former
/// names still read with a warning, and the new name winning when both are set: the reader, the matcher
/// that finds former names in a file and the environment, and the real binary.
@Suite("Renamed provider settings")
struct RenamedSettingsTests {
    func read(_ values: [String: String]) throws -> ServerConfiguration {
        var entries: [AbsoluteConfigKey: ConfigValue] = [:]
        for (key, value) in values { entries[AbsoluteConfigKey(ConfigKey(key))] = ConfigValue(.string(value), isSecret: false) }
        return try ServerConfiguration(reader: ConfigReader(provider: InMemoryProvider(values: entries)), defaultMode: .development)
    }

    func readEnvironment(_ variables: [String: String]) throws -> ServerConfiguration {
        var environment: [String: String] = [:]
        for (name, value) in variables { environment[String(name.dropFirst("HEARTH_".count))] = value }
        let reader = ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: environment, secretsSpecifier: .all))
        return try ServerConfiguration(reader: reader, defaultMode: .development)
    }

    /// Every provider switched on under the new names.
    static let newNames = [
        "providers.google.enabled": "true", "providers.google.clientIds": "web.apps,ios.apps",
        "providers.microsoft.enabled": "true", "providers.microsoft.clientIds": "ms-app",
        "providers.microsoft.allowedTenantIds": "3f2a9c1e-5b7d-4e8a-9c0f-1a2b3c4d5e6f",
        "providers.yahoo.enabled": "true", "providers.yahoo.clientIds": "yahoo-app",
        "providers.github.enabled": "true", "providers.github.clientId": "gh-app", "providers.github.clientSecret": "gh-secret",
        "providers.facebook.enabled": "true", "providers.facebook.clientId": "fb-app", "providers.facebook.clientSecret": "fb-secret",
        "providers.twitter.enabled": "true", "providers.twitter.clientId": "tw-key", "providers.twitter.clientSecret": "tw-secret",
        "providers.apple.enabled": "true", "providers.apple.clientIds": "com.example.web,com.example.other",
        "providers.apple.bundleIds": "com.example.app", "providers.apple.teamId": "TEAM123456", "providers.apple.keyId": "KEY1234567",
        "providers.oidc.names": "corp", "providers.oidc.corp.issuer": "https://id.corp.example", "providers.oidc.corp.clientIds": "corp-app",
    ]

    /// The same settings under their former names.
    static let formerNames = [
        "providers.google.enabled": "true", "providers.google.clientIDs": "web.apps,ios.apps",
        "providers.microsoft.enabled": "true", "providers.microsoft.clientIDs": "ms-app",
        "providers.microsoft.allowedTenantIDs": "3f2a9c1e-5b7d-4e8a-9c0f-1a2b3c4d5e6f",
        "providers.yahoo.enabled": "true", "providers.yahoo.clientIDs": "yahoo-app",
        "providers.github.enabled": "true", "providers.github.clientID": "gh-app", "providers.github.clientSecret": "gh-secret",
        "providers.facebook.enabled": "true", "providers.facebook.appID": "fb-app", "providers.facebook.appSecret": "fb-secret",
        "providers.twitter.enabled": "true", "providers.twitter.consumerKey": "tw-key", "providers.twitter.consumerSecret": "tw-secret",
        "providers.apple.enabled": "true", "providers.apple.serviceIDs": "com.example.web,com.example.other",
        "providers.apple.bundleIDs": "com.example.app", "providers.apple.teamID": "TEAM123456", "providers.apple.keyID": "KEY1234567",
        "providers.oidc.names": "corp", "providers.oidc.corp.issuer": "https://id.corp.example", "providers.oidc.corp.clientIDs": "corp-app",
    ]

    func expectEverySetting(_ configuration: ServerConfiguration, sourceLocation: SourceLocation = #_sourceLocation) {
        let p = configuration.providers
        #expect(p.google.clientIDs == ["web.apps", "ios.apps"], sourceLocation: sourceLocation)
        #expect(p.microsoft.clientIDs == ["ms-app"], sourceLocation: sourceLocation)
        #expect(p.microsoft.allowedTenantIDs == ["3f2a9c1e-5b7d-4e8a-9c0f-1a2b3c4d5e6f"], sourceLocation: sourceLocation)
        #expect(p.yahoo.clientIDs == ["yahoo-app"], sourceLocation: sourceLocation)
        #expect(p.gitHub.clientID == "gh-app" && p.gitHub.clientSecret?.value == "gh-secret", sourceLocation: sourceLocation)
        #expect(p.facebook.appID == "fb-app" && p.facebook.appSecret.value == "fb-secret", sourceLocation: sourceLocation)
        #expect(p.twitter.consumerKey == "tw-key" && p.twitter.consumerSecret.value == "tw-secret", sourceLocation: sourceLocation)
        #expect(p.apple.serviceIDs == ["com.example.web", "com.example.other"], sourceLocation: sourceLocation)
        #expect(p.apple.bundleIDs == ["com.example.app"], sourceLocation: sourceLocation)
        #expect(p.apple.teamID == "TEAM123456" && p.apple.keyID == "KEY1234567", sourceLocation: sourceLocation)
        #expect(p.oidc["corp"]?.clientIDs == ["corp-app"], sourceLocation: sourceLocation)
        let usable = [p.google.isUsable, p.microsoft.isUsable, p.yahoo.isUsable, p.gitHub.isUsable, p.facebook.isUsable, p.twitter.isUsable]
        #expect(usable.allSatisfy { $0 } && p.apple.isUsable, sourceLocation: sourceLocation)
    }

    @Test("every provider reads Firebase's names")
    func newNamesRead() throws {
        expectEverySetting(try read(Self.newNames))
    }

    @Test("every former name is still read, to the same effect")
    func formerNamesRead() throws {
        expectEverySetting(try read(Self.formerNames))
    }

    @Test("both names for one setting: the new name wins, whatever the source of each")
    func newNameWins() throws {
        let both = try read([
            "providers.facebook.clientId": "new-app", "providers.facebook.appID": "old-app",
            "providers.google.clientIds": "new.apps", "providers.google.clientIDs": "old.apps",
            "providers.apple.clientIds": "com.example.new", "providers.apple.serviceIDs": "com.example.old",
            "providers.oidc.names": "corp", "providers.oidc.corp.issuer": "https://id.corp.example",
            "providers.oidc.corp.clientIds": "new-corp", "providers.oidc.corp.clientIDs": "old-corp",
        ])
        #expect(both.providers.facebook.appID == "new-app")
        #expect(both.providers.google.clientIDs == ["new.apps"])
        #expect(both.providers.apple.serviceIDs == ["com.example.new"])
        #expect(both.providers.oidc["corp"]?.clientIDs == ["new-corp"])

        // The environment: the new variable and the former one.
        let environment = try readEnvironment([
            "HEARTH_PROVIDERS_TWITTER_CLIENT_ID": "new-key", "HEARTH_PROVIDERS_TWITTER_CONSUMER_KEY": "old-key",
            "HEARTH_PROVIDERS_TWITTER_CONSUMER_SECRET": "old-secret",
        ])
        #expect(environment.providers.twitter.consumerKey == "new-key")
        #expect(environment.providers.twitter.consumerSecret.value == "old-secret")
    }

    @Test("the former environment variables still work, and so do the new ones")
    func environmentVariables() throws {
        let former = try readEnvironment([
            "HEARTH_PROVIDERS_FACEBOOK_ENABLED": "true", "HEARTH_PROVIDERS_FACEBOOK_APP_ID": "fb-app",
            "HEARTH_PROVIDERS_FACEBOOK_APP_SECRET": "fb-secret", "HEARTH_PROVIDERS_APPLE_ENABLED": "true",
            "HEARTH_PROVIDERS_APPLE_SERVICE_IDS": "com.example.web", "HEARTH_PROVIDERS_GOOGLE_CLIENT_IDS": "a.apps,b.apps",
        ])
        #expect(former.providers.facebook.appID == "fb-app" && former.providers.facebook.appSecret.value == "fb-secret")
        #expect(former.providers.apple.serviceIDs == ["com.example.web"])
        #expect(former.providers.google.clientIDs == ["a.apps", "b.apps"])
        let new = try readEnvironment([
            "HEARTH_PROVIDERS_FACEBOOK_ENABLED": "true", "HEARTH_PROVIDERS_FACEBOOK_CLIENT_ID": "fb-app",
            "HEARTH_PROVIDERS_FACEBOOK_CLIENT_SECRET": "fb-secret", "HEARTH_PROVIDERS_APPLE_ENABLED": "true",
            "HEARTH_PROVIDERS_APPLE_CLIENT_IDS": "com.example.web",
        ])
        #expect(new.providers.facebook.appID == "fb-app" && new.providers.facebook.appSecret.value == "fb-secret")
        #expect(new.providers.apple.serviceIDs == ["com.example.web"])
    }

    @Test("a missing or malformed setting is named by its new name, a malformed former one by the name it was given")
    func problemsNameTheKey() throws {
        func problem(_ values: [String: String]) -> String? {
            do {
                _ = try read(values)
                return nil
            } catch {
                return "\(error)"
            }
        }
        #expect(
            problem(["providers.google.enabled": "true"])
                == "invalid configuration: providers.google.clientIds: Google sign-in needs at least one OAuth client ID")
        #expect(
            problem(["providers.facebook.enabled": "true"])
                == "invalid configuration: providers.facebook.clientId: Facebook sign-in needs the app ID (and the app secret, clientSecret, for access tokens)"
        )
        #expect(problem(["providers.facebook.appID": " "]) == "invalid configuration: providers.facebook.appID: must not be empty")
        #expect(
            problem(["providers.twitter.enabled": "true", "providers.twitter.consumerKey": "k"])
                == "invalid configuration: providers.twitter.clientSecret: Twitter sign-in needs the API key (clientId) and API secret (clientSecret)"
        )
    }

    @Test("Microsoft's templates have one placeholder, {tenant}; {tenantid} is refused with the key's name")
    func tenantPlaceholder() throws {
        let fixed = try read(["providers.microsoft.jwksURLTemplate": "https://login.example/one-tenant/keys"])
        #expect(fixed.providers.microsoft.jwksURLTemplate == "https://login.example/one-tenant/keys")
        #expect(fixed.providers.microsoft.issuerTemplate == "https://login.microsoftonline.com/{tenant}/v2.0")
        for key in ["jwksURLTemplate", "discoveryURLTemplate", "authorizationURLTemplate", "tokenURLTemplate"] {
            #expect(throws: ConfigurationError.self, "\(key)") {
                try read(["providers.microsoft.\(key)": "https://login.example/{tenantid}/x"])
            }
            do {
                _ = try read(["providers.microsoft.\(key)": "https://login.example/{tenantid}/x"])
            } catch let error as ConfigurationError {
                #expect(error.key == "providers.microsoft.\(key)")
                #expect(error.problem.hasPrefix("expected an absolute http(s) URL"))
            }
        }
        #expect(throws: ConfigurationError.self) { try read(["providers.microsoft.discoveryURLTemplate": "javascript:alert(1)"]) }
    }

    @Test("the former names are known settings, listed as renamed, and a typo of one is told the new name")
    func knownAndRenamed() {
        let keys = Set(KnownSettings.keys)
        for (former, name) in KnownSettings.renamed {
            #expect(keys.contains(former), "\(former)")
            #expect(keys.contains(name), "\(name)")
        }
        #expect(KnownSettings.renamed.contains { $0.former == "providers.facebook.appID" && $0.name == "providers.facebook.clientId" })
        #expect(
            KnownSettings.renamed.contains { $0.former == "providers.oidc.<name>.clientIDs" && $0.name == "providers.oidc.<name>.clientIds" })
        #expect(KnownSettings.renamed.count == 14)
        let known = KnownSettings.unknown(
            fileKeys: Array(Self.formerNames.keys), environment: ["HEARTH_PROVIDERS_FACEBOOK_APP_ID", "HEARTH_PROVIDERS_TWITTER_CONSUMER_KEY"],
            oidcNames: ["corp"])
        #expect(known.isEmpty, "\(known)")
        let typos = KnownSettings.unknown(
            fileKeys: ["providers.facebook.appId", "providers.google.clientID"], environment: ["HEARTH_PROVIDERS_TWITTER_CONSUMERKEY"],
            oidcNames: [])
        #expect(
            typos.map(\.description) == [
                "unknown setting providers.facebook.appId (configuration file); did you mean providers.facebook.clientId?",
                "unknown setting providers.google.clientID (configuration file); did you mean providers.google.clientIds?",
                "unknown setting HEARTH_PROVIDERS_TWITTER_CONSUMERKEY (environment); did you mean HEARTH_PROVIDERS_TWITTER_CLIENT_ID?",
            ])
    }

    @Test("each former name in a file or the environment is one warning naming the new name; unchanged variables none")
    func warnings() {
        let found = KnownSettings.renamedInUse(
            fileKeys: ["providers.facebook.appID", "providers.google.clientIDs", "providers.google.clientIds", "providers.oidc.corp.clientIDs"],
            file: "hearth.yaml",
            environment: [
                "HEARTH_PROVIDERS_TWITTER_CONSUMER_KEY", "HEARTH_PROVIDERS_MICROSOFT_CLIENT_IDS", "HEARTH_PROVIDERS_APPLE_SERVICE_IDS",
                "HEARTH_PROVIDERS_APPLE_CLIENT_IDS", "PATH",
            ],
            oidcNames: ["corp"])
        #expect(
            found.map(\.description).sorted() == [
                "HEARTH_PROVIDERS_APPLE_SERVICE_IDS (environment) is deprecated and ignored: HEARTH_PROVIDERS_APPLE_CLIENT_IDS is set too and wins; "
                    + "remove HEARTH_PROVIDERS_APPLE_SERVICE_IDS",
                "HEARTH_PROVIDERS_TWITTER_CONSUMER_KEY (environment) is deprecated: rename it HEARTH_PROVIDERS_TWITTER_CLIENT_ID",
                "providers.facebook.appID (hearth.yaml) is deprecated: rename it providers.facebook.clientId",
                "providers.google.clientIDs (hearth.yaml) is deprecated and ignored: providers.google.clientIds is set too and wins; "
                    + "remove providers.google.clientIDs",
                "providers.oidc.corp.clientIDs (hearth.yaml) is deprecated: rename it providers.oidc.corp.clientIds",
            ])
        #expect(KnownSettings.renamedInUse(fileKeys: Array(Self.newNames.keys), environment: [], oidcNames: ["corp"]).isEmpty)
    }

    @Test("the binary warns once per former name in both modes, and a development server starts with them")
    func binaryWarns() async throws {
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("hearth.yaml")
        let yaml = """
            mode: development
            providers:
              facebook:
                enabled: true
                appID: "1234567890"
                appSecret: fb-secret
              google:
                enabled: true
                clientIds: [web.apps.googleusercontent.com]
                clientIDs: [old.apps.googleusercontent.com]

            """
        try Data(yaml.utf8).write(to: file)
        let server = try await HearthProcess.start(
            environment: [
                "HEARTH_PROVIDERS_TWITTER_ENABLED": "true", "HEARTH_PROVIDERS_TWITTER_CONSUMER_KEY": "key",
                "HEARTH_PROVIDERS_TWITTER_CONSUMER_SECRET": "secret",
            ], arguments: ["--config", file.path])
        defer { server.stop() }
        let warnings = server.log.split(separator: "\n").filter { $0.hasPrefix("hearth: warning:") }
        #expect(
            warnings.sorted() == [
                "hearth: warning: HEARTH_PROVIDERS_TWITTER_CONSUMER_KEY (environment) is deprecated: rename it HEARTH_PROVIDERS_TWITTER_CLIENT_ID",
                "hearth: warning: HEARTH_PROVIDERS_TWITTER_CONSUMER_SECRET (environment) is deprecated: rename it HEARTH_PROVIDERS_TWITTER_CLIENT_SECRET",
                "hearth: warning: providers.facebook.appID (\(file.path)) is deprecated: rename it providers.facebook.clientId",
                "hearth: warning: providers.facebook.appSecret (\(file.path)) is deprecated: rename it providers.facebook.clientSecret",
                "hearth: warning: providers.google.clientIDs (\(file.path)) is deprecated and ignored: providers.google.clientIds is set too and wins; "
                    + "remove providers.google.clientIDs",
            ], "\(server.log)")
        #expect(!server.log.contains("fb-secret") && !server.log.contains("unknown setting"), "\(server.log)")

        // Production reads them too (they are not unknown settings): only the missing API key stops it.
        let production = try await HearthProcess.run(
            ["serve", "--mode", "production", "--project", "my-project", "--port", "0", "--data-dir", directory.path],
            environment: ["HEARTH_PROVIDERS_FACEBOOK_APP_ID": "1234567890", "HEARTH_PASSWORDS_SCRYPT_LOG_N": "4"])
        #expect(production.status == 2)
        #expect(
            production.standardError
                == "hearth: warning: HEARTH_PROVIDERS_FACEBOOK_APP_ID (environment) is deprecated: rename it HEARTH_PROVIDERS_FACEBOOK_CLIENT_ID\n"
                + "hearth: invalid configuration: project.apiKeys: production mode needs at least one API key\n")
    }
}
