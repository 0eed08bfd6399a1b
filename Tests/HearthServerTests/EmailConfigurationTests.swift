import Configuration
import Foundation
import HearthConfiguration
import HearthCore
import HearthServer
import Testing

/// `email.*`: what is read, what is refused (with the key named, never the SMTP password), and what the banner says.
@Suite("Configuration: e-mail")
struct EmailConfigurationTests {
    func read(_ values: [AbsoluteConfigKey: String], defaultMode: ServerConfiguration.Mode = .development) throws -> ServerConfiguration {
        var entries: [AbsoluteConfigKey: ConfigValue] = [:]
        for (key, value) in values { entries[key] = ConfigValue(.string(value), isSecret: false) }
        return try ServerConfiguration(reader: ConfigReader(provider: InMemoryProvider(values: entries)), defaultMode: defaultMode)
    }

    @Test("the keys are read; e-mail link sign-in is on in development and off in production")
    func reads() throws {
        let configuration = try read([
            "email.smtp.url": "smtps://mailer:s3cret%21@smtp.example.com", "email.from": "Notes <no-reply@example.com>",
            "email.replyTo": "help@example.com", "email.appName": "Notes", "email.linkLifetimeSeconds": "600",
            "email.authorizedDomains": "app.example.com, example.org", "email.limits.perMinute": "10",
            "email.limits.perAddressPerHour": "3", "email.delivery.maxAttempts": "4", "email.smtp.timeoutSeconds": "5",
            "email.actionURL": "https://auth.example.com/__/auth/action",
        ])
        #expect(configuration.email.linkLifetime == 600 && configuration.email.authorizedDomains == ["app.example.com", "example.org"])
        #expect(configuration.email.perMinute.limit == 10 && configuration.email.perRecipient.limit == 3 && configuration.email.maxAttempts == 4)
        #expect(configuration.signIn.emailLinkEnabled)
        #expect(configuration.mailDescription == "smtp.example.com:465 (TLS, AUTH) from Notes <no-reply@example.com>")
        #expect(!configuration.mailDescription.contains("s3cret"))
        #expect(try read([:]).mailDescription.contains("/sandbox/mail"))
        let production = try read(
            ["project.id": "acme", "project.apiKeys": "AIzaSyTestKeyForHearth01", "secrets.key": KeyEncryptionKey.generate().base64],
            defaultMode: .production)
        #expect(!production.signIn.emailLinkEnabled)
        #expect(production.mailDescription.contains("OPERATION_NOT_ALLOWED"))
    }

    @Test(
        "invalid values stop start-up naming the key, never the password",
        arguments: [
            (["email.smtp.url": "http://mailer:s3cret@smtp.example.com"], "email.smtp.url"),
            (["email.smtp.url": "smtp://mailer:s3cret@"], "email.smtp.url"),
            (["email.smtp.url": "smtp://mailer:s3cret@mail.example.com:25?starttls=off"], "email.smtp.url"),
            (["email.smtp.url": "smtp://mailer:s3cret@mail.example.com\u{0}"], "email.smtp.url"),
            (["email.from": "not an address"], "email.from"),
            (["email.from": "A <a@example.com>\r\nBcc: victim@example.com"], "email.from"),
            (["email.replyTo": "two@example.com, three@example.com"], "email.replyTo"),
            (["email.appName": "Notes\nBcc: x"], "email.appName"),
            (["email.linkLifetimeSeconds": "10"], "email.linkLifetimeSeconds"),
            (["email.authorizedDomains": "https://app.example.com/"], "email.authorizedDomains"),
            (["email.actionURL": "javascript:alert(1)"], "email.actionURL"),
            (["email.smtp.caFile": "/nonexistent/ca.pem"], "email.smtp.caFile"),
            (["email.templatesDirectory": ""], "email.templatesDirectory"),
        ] as [([AbsoluteConfigKey: String], String)])
    func invalid(values: [AbsoluteConfigKey: String], key: String) throws {
        #expect {
            try read(values)
        } throws: { error in
            (error as? ConfigurationError)?.key == key && "\(error)".contains(key) && !"\(error)".contains("s3cret")
        }
    }

    @Test("production with a mail server needs a sender")
    func productionSender() throws {
        let base: [AbsoluteConfigKey: String] = [
            "project.id": "acme", "project.apiKeys": "AIzaSyTestKeyForHearth01", "secrets.key": KeyEncryptionKey.generate().base64,
            "email.smtp.url": "smtp://mailer:s3cret@smtp.example.com",
        ]
        #expect {
            try read(base, defaultMode: .production)
        } throws: { error in
            (error as? ConfigurationError)?.key == "email.from" && !"\(error)".contains("s3cret")
        }
        var complete = base
        complete["email.from"] = "no-reply@example.com"
        #expect(try read(complete, defaultMode: .production).email.from == "no-reply@example.com")
    }

    @Test("a broken template override stops start-up naming the file")
    func brokenTemplate() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-templates-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "{{#link}} unclosed".write(to: directory.appendingPathComponent("resetPassword.html.mustache"), atomically: true, encoding: .utf8)
        await #expect {
            _ = try await TestHearth.make { $0.email.templatesDirectory = directory.path }
        } throws: { error in
            "\(error)".contains("resetPassword.html.mustache")
        }
    }
}
