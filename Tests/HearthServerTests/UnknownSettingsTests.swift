import Configuration
import Foundation
import HearthConfiguration
import HearthCore
import HearthServer
import HearthTesting
import Testing

/// Settings Hearth does not read are reported with the nearest known one: the matcher on its own, then
/// the real binary in both modes, for an environment variable and for a YAML file.
@Suite("Unknown settings")
struct UnknownSettingsTests {
    @Test("the known keys come from the reader itself and cover every part of the configuration")
    func knownKeys() {
        let keys = Set(KnownSettings.keys)
        for key in [
            "mode", "server.port", "storage.dataDirectory", "database.url", "signIn.anonymous.enabled", "secrets.keyFile",
            "secrets.key", "customTokens.publicKeyFiles", "abuse.lockout.maxWaitSeconds", "abuse.limits.newAccounts.limit",
            "providers.apple.privateKeyFile", "browserSignIn.returnURLs", "providers.oidc.names",
            "providers.oidc.<name>.issuer", "providers.oidc.<name>.clientSecret", "sandbox.enabled",
            "providers.yahoo.clientIDs", "providers.yahoo.discoveryURL", "providers.microsoft.tokenURLTemplate",
            "providers.requestTimeoutSeconds",
        ] {
            #expect(keys.contains(key), "\(key)")
        }
        #expect(KnownSettings.keys.count > 100)
    }

    @Test("every known key's environment variable is the one swift-configuration looks up")
    func environmentNames() throws {
        #expect(KnownSettings.environmentName(of: "signIn.anonymous.enabled") == "HEARTH_SIGN_IN_ANONYMOUS_ENABLED")
        #expect(KnownSettings.environmentName(of: "providers.apple.jwksURL") == "HEARTH_PROVIDERS_APPLE_JWKS_URL")
        #expect(KnownSettings.environmentName(of: "passwords.scryptLogN") == "HEARTH_PASSWORDS_SCRYPT_LOG_N")
        for key in KnownSettings.keys where !key.contains(KnownSettings.providerName) {
            let name = String(KnownSettings.environmentName(of: key).dropFirst("HEARTH_".count))
            let reader = ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: [name: "value"]))
            #expect(reader.string(forKey: ConfigKey(key)) == "value", "\(key) as \(name)")
        }
    }

    @Test("an environment variable with a typo is named with the nearest known one")
    func environmentTypo() {
        let found = KnownSettings.unknown(
            fileKeys: [], environment: ["HEARTH_SIGNIN_ANONYMOUS_ENABLED", "HEARTH_SIGN_IN_PASSWORD_ENABLED", "PATH", "HOME"], oidcNames: [])
        #expect(found.count == 1)
        #expect(
            found.first?.description
                == "unknown setting HEARTH_SIGNIN_ANONYMOUS_ENABLED (environment); did you mean HEARTH_SIGN_IN_ANONYMOUS_ENABLED?")
    }

    @Test("a file key with a typo is named with the nearest known one, each leaf on its own")
    func fileTypo() {
        let found = KnownSettings.unknown(
            fileKeys: ["sever.port", "sever.host", "project.id", "signin.anonymous.enabled"], file: "hearth.yaml", environment: [],
            oidcNames: [])
        #expect(
            found.map(\.description) == [
                "unknown setting sever.host (hearth.yaml); did you mean server.host?",
                "unknown setting sever.port (hearth.yaml); did you mean server.port?",
                "unknown setting signin.anonymous.enabled (hearth.yaml); did you mean signIn.anonymous.enabled?",
            ])
    }

    @Test("a name that is nothing like a setting gets no wild guess; a lone last word finds its setting")
    func farNames() {
        let found = KnownSettings.unknown(fileKeys: ["colour"], environment: ["HEARTH_PORT"], oidcNames: [])
        #expect(
            found.map(\.description) == [
                "unknown setting colour (configuration file); see docs/configuration.md for the settings",
                "unknown setting HEARTH_PORT (environment); did you mean HEARTH_SERVER_PORT?",
            ])
    }

    @Test("OpenID Connect providers: keys of a listed name are known, those of an unlisted one say so")
    func providerNames() {
        let listed = KnownSettings.unknown(
            fileKeys: ["providers.oidc.names", "providers.oidc.corp.issuer", "providers.oidc.corp.clientIDs", "providers.oidc.corp.clientSecret"],
            environment: ["HEARTH_PROVIDERS_OIDC_CORP_ISSUER", "HEARTH_PROVIDERS_OIDC_MY_IDP_CLIENT_SECRET"], oidcNames: ["corp", "my-idp"])
        #expect(listed.isEmpty, "\(listed)")

        let unlisted = KnownSettings.unknown(
            fileKeys: ["providers.oidc.acme.issuer", "providers.oidc.corp.isuer"], environment: ["HEARTH_PROVIDERS_OIDC_ACME_CLIENT_IDS"],
            oidcNames: ["corp"])
        #expect(unlisted.map(\.name) == ["providers.oidc.acme.issuer", "providers.oidc.corp.isuer", "HEARTH_PROVIDERS_OIDC_ACME_CLIENT_IDS"])
        #expect(unlisted[0].note?.contains("acme is not in providers.oidc.names") == true)
        #expect(unlisted[1].suggestion == "providers.oidc.corp.issuer")
        #expect(unlisted[2].note?.contains("acme is not in providers.oidc.names") == true)
    }

    @Test("the variables of the client SDK, the tests and the scripts are not settings and never reported")
    func foreignVariables() {
        let found = KnownSettings.unknown(
            fileKeys: [],
            environment: ["HEARTH_TEST_DATABASE", "HEARTH_SERVER_URL", "HEARTH_API_KEY", "HEARTH_PG_BIN", "HEARTH_BIN", "HEARTH_FUZZ_SEED"],
            oidcNames: [])
        #expect(found.isEmpty, "\(found)")
    }

    @Test("a YAML and a JSON file's leaf keys, dotted as the file provider reads them")
    func fileKeys() throws {
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let yaml = directory.appendingPathComponent("hearth.yaml")
        try Data("sever:\n  port: 1\nproject:\n  apiKeys: [a, b]\nsignIn.anonymous.enabled: false\n".utf8).write(to: yaml)
        #expect(try KnownSettings.fileKeys(atPath: yaml.path) == ["project.apiKeys", "sever.port", "signIn.anonymous.enabled"])
        let json = directory.appendingPathComponent("hearth.json")
        try Data(#"{"server": {"port": 1, "hots": "x"}, "mode": "development"}"#.utf8).write(to: json)
        #expect(try KnownSettings.fileKeys(atPath: json.path) == ["mode", "server.hots", "server.port"])
    }

    /// A production configuration that starts but for the settings under test.
    static let productionEnvironment = [
        "HEARTH_PROJECT_API_KEYS": "a-production-api-key-0123456789",
        "HEARTH_SECRETS_KEY": KeyEncryptionKey.generate().base64,
        "HEARTH_PASSWORDS_SCRYPT_LOG_N": "4",
    ]

    @Test("production mode: an environment variable typo is an error naming the right one, and nothing starts")
    func productionEnvironmentTypo() async throws {
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var environment = Self.productionEnvironment
        environment["HEARTH_SIGNIN_ANONYMOUS_ENABLED"] = "false"
        let result = try await HearthProcess.run(
            ["serve", "--mode", "production", "--project", "my-project", "--port", "0", "--data-dir", directory.path],
            environment: environment)
        #expect(result.status == 2, "\(result.standardError)")
        #expect(
            result.standardError
                == "hearth: unknown setting HEARTH_SIGNIN_ANONYMOUS_ENABLED (environment); did you mean HEARTH_SIGN_IN_ANONYMOUS_ENABLED? "
                + "(production mode refuses unknown settings)\n")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("hearth.sqlite").path))
    }

    @Test("production mode (a file's default): a YAML typo is an error, one line per unknown key")
    func productionFileTypo() async throws {
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("hearth.yaml")
        try Data("project:\n  id: my-project\nsever:\n  port: 0\n  host: 127.0.0.1\n".utf8).write(to: file)
        let result = try await HearthProcess.run(
            ["serve", "--config", file.path, "--data-dir", directory.path], environment: Self.productionEnvironment)
        #expect(result.status == 2, "\(result.standardError)")
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 2, "\(result.standardError)")
        #expect(
            lines.first == "hearth: unknown setting sever.host (\(file.path)); did you mean server.host? (production mode refuses unknown settings)")
        #expect(lines.last?.hasPrefix("hearth: unknown setting sever.port (\(file.path)); did you mean server.port?") == true)
    }

    @Test("development mode: the typos are warnings and the server starts with the defaults")
    func developmentWarns() async throws {
        let directory = try CommandLineTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("hearth.yaml")
        try Data("mode: development\nsever:\n  port: 1234\n".utf8).write(to: file)
        let server = try await HearthProcess.start(
            environment: ["HEARTH_SIGNIN_ANONYMOUS_ENABLED": "false"], arguments: ["--config", file.path])
        defer { server.stop() }
        #expect(
            server.log.contains(
                "hearth: warning: unknown setting HEARTH_SIGNIN_ANONYMOUS_ENABLED (environment); did you mean HEARTH_SIGN_IN_ANONYMOUS_ENABLED? (ignored in development mode)"
            ),
            "\(server.log)")
        #expect(
            server.log.contains(
                "hearth: warning: unknown setting sever.port (\(file.path)); did you mean server.port? (ignored in development mode)"),
            "\(server.log)")
    }
}
