import Configuration
import Foundation
import HearthConfiguration
import HearthCore
import HearthServer
import SystemPackage
import Testing

@Suite("Configuration")
struct ConfigurationTests {
    func read(_ values: [AbsoluteConfigKey: ConfigValue], defaultMode: ServerConfiguration.Mode = .development) throws -> ServerConfiguration {
        try ServerConfiguration(reader: ConfigReader(provider: InMemoryProvider(values: values)), defaultMode: defaultMode)
    }

    @Test("no configuration means development mode on 127.0.0.1:9099 with project demo-hearth in ./.hearth")
    func defaults() throws {
        let configuration = try read([:])
        #expect(configuration.mode == .development)
        #expect(configuration.projectID == "demo-hearth")
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.port == 9099)
        #expect(configuration.resolvedSQLitePath == "./.hearth/hearth.sqlite")
        #expect(configuration.resolvedIssuer == "https://securetoken.google.com/demo-hearth")
    }

    @Test(
        "invalid values stop start-up with a message that names the key",
        arguments: [
            (["server.port": ConfigValue(.string("ninety"), isSecret: false)], "server.port"),
            (["server.port": ConfigValue(.int(70_000), isSecret: false)], "server.port"),
            (["mode": ConfigValue(.string("staging"), isSecret: false)], "mode"),
            (["project.id": ConfigValue(.string("Bad Project!"), isSecret: false)], "project.id"),
            (["signIn.anonymous.enabled": ConfigValue(.string("perhaps"), isSecret: false)], "signIn.anonymous.enabled"),
            (["server.host": ConfigValue(.string("0.0.0.0"), isSecret: false)], "server.host"),
            (["tokens.issuer": ConfigValue(.string("not a url"), isSecret: false)], "tokens.issuer"),
            (["passwords.scryptLogN": ConfigValue(.int(40), isSecret: false)], "passwords.scryptLogN"),
            (["anonymousCleanup.maxAgeDays": ConfigValue(.int(0), isSecret: false)], "anonymousCleanup.maxAgeDays"),
        ] as [([AbsoluteConfigKey: ConfigValue], String)])
    func invalid(values: [AbsoluteConfigKey: ConfigValue], key: String) throws {
        #expect {
            try read(values)
        } throws: { error in
            (error as? ConfigurationError)?.key == key && "\(error)".contains(key)
        }
    }

    @Test("passkeys: localhost on any port in development, off in production until passkeys.rpId; each key checked by name")
    func passkeys() throws {
        #expect(try read([:]).signIn.passkeys == .development)
        let production: [AbsoluteConfigKey: ConfigValue] = [
            "project.id": .init(.string("acme"), isSecret: false),
            "project.apiKeys": .init(.stringArray(["AIzaSyTestKeyForHearth01"]), isSecret: true),
            "secrets.key": .init(.string(KeyEncryptionKey.generate().base64), isSecret: true),
        ]
        #expect(try read(production, defaultMode: .production).signIn.passkeys == nil)
        var configured = production
        configured["passkeys.rpId"] = .init(.string("example.com"), isSecret: false)
        configured["server.publicURL"] = .init(.string("https://auth.example.com"), isSecret: false)
        configured["passkeys.userVerification"] = .init(.string("REQUIRED"), isSecret: false)
        #expect(
            try read(configured, defaultMode: .production).signIn.passkeys
                == PasskeySettings(rpID: "example.com", rpName: "example.com", origins: ["https://auth.example.com"], requiresUserVerification: true))
        let refusals: [(AbsoluteConfigKey, ConfigValue, String)] = [
            ("passkeys.rpId", .init(.string("https://example.com"), isSecret: false), "passkeys.rpId"),
            ("passkeys.expectedOrigins", .init(.stringArray(["https://evil.test"]), isSecret: false), "passkeys.expectedOrigins"),
            ("passkeys.expectedOrigins", .init(.stringArray(["http://example.com"]), isSecret: false), "passkeys.expectedOrigins"),
            ("passkeys.expectedOrigins", .init(.stringArray(["https://example.com/path"]), isSecret: false), "passkeys.expectedOrigins"),
            ("passkeys.userVerification", .init(.string("ALWAYS"), isSecret: false), "passkeys.userVerification"),
            ("passkeys.rpName", .init(.string("Acme\u{7}"), isSecret: false), "passkeys.rpName"),
        ]
        for (key, value, named) in refusals {
            var values = configured
            values[key] = value
            do {
                _ = try read(values, defaultMode: .production)
                Issue.record("\(key) = \(value) was accepted")
            } catch let error as ConfigurationError {
                #expect(error.key == named)
            }
        }
        // Origins without an RP ID are a mistake, not a default.
        #expect(throws: ConfigurationError.self) {
            try read(["passkeys.expectedOrigins": .init(.stringArray(["https://example.com"]), isSecret: false)])
        }
    }

    @Test("project.id: 2 to 63 lower-case letters, digits and dashes, not starting with a dash; anything else refused, naming the key")
    func projectID() throws {
        for good in ["ab", "demo-hearth", "0-1", "a-", String(repeating: "x", count: 63)] {
            #expect(try read(["project.id": .init(.string(good), isSecret: false)]).projectID == good)
        }
        let sixtyFour = String(repeating: "x", count: 64)
        for bad in ["", "a", "-ab", "Abc", "ab_c", "ab c", "ab\n", "ab\0c", "ab\u{7f}", "ab.c", "äb", "ab/", sixtyFour] {
            let error = #expect(throws: ConfigurationError.self, "\(bad.debugDescription)") {
                try read(["project.id": .init(.string(bad), isSecret: false)])
            }
            #expect(error?.key == "project.id")
        }
    }

    @Test("production needs API keys and a real project id")
    func production() throws {
        #expect(throws: ConfigurationError.self) { try read(["project.id": .init(.string("acme"), isSecret: false)], defaultMode: .production) }
        let ok = try read(
            [
                "project.id": .init(.string("acme"), isSecret: false),
                "project.apiKeys": .init(.stringArray(["AIzaSyTestKeyForHearth01"]), isSecret: true),
                "server.host": .init(.string("0.0.0.0"), isSecret: false),
                "secrets.key": .init(.string(KeyEncryptionKey.generate().base64), isSecret: true),
            ], defaultMode: .production)
        #expect(ok.mode == .production)
        #expect(ok.apiKeys == ["AIzaSyTestKeyForHearth01"])
    }

    @Test("a YAML file sets nested keys")
    func yamlFile() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-\(UUID().uuidString).yaml").path
        let keyPath = path + ".key"
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: keyPath)
        }
        try KeyEncryptionKey.generate().base64.write(toFile: keyPath, atomically: true, encoding: .utf8)
        try """
        mode: production
        secrets:
          keyFile: \(keyPath)
        project:
          id: acme-prod
          apiKeys: ["AIzaSyTestKeyForHearth01"]
        server:
          host: 0.0.0.0
          port: 8080
        signIn:
          anonymous:
            enabled: false
          emailEnumerationProtection: true
        anonymousCleanup:
          enabled: true
          maxAgeDays: 10
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let provider = try await FileProvider<YAMLSnapshot>(filePath: FilePath(path))
        let configuration = try ServerConfiguration(reader: ConfigReader(provider: provider), defaultMode: .production)
        #expect(configuration.projectID == "acme-prod")
        #expect(configuration.port == 8080)
        #expect(configuration.signIn.anonymousEnabled == false)
        #expect(configuration.signIn.emailEnumerationProtection)
        #expect(configuration.anonymousCleanup.enabled)
        #expect(configuration.anonymousCleanup.maxAge == 10 * 86_400)
        #expect(configuration.secrets.keyFile == keyPath)
    }
}
