import Configuration
import Foundation
import HearthCore
import HearthTokens

/// A configuration value that is present but unusable. The message names the key.
public struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    public let key: String
    public let problem: String
    public init(key: String, problem: String) {
        self.key = key
        self.problem = problem
    }
    public var description: String { "invalid configuration: \(key): \(problem)" }
}

extension ServerConfiguration {
    /// Reads and validates every key. Defaults fill what is absent; anything present but wrong throws
    /// a ``ConfigurationError`` naming the key.
    public init(reader: ConfigReader, defaultMode: Mode = .development) throws {
        self.init()
        let r = ConfigValues(reader: reader)
        let modeText = try r.string("mode") ?? defaultMode.rawValue
        guard let mode = Mode(rawValue: modeText) else {
            throw ConfigurationError(key: "mode", problem: "expected development or production, got \(modeText)")
        }
        self.mode = mode
        projectID = try r.string("project.id") ?? projectID
        guard Self.isProjectID(projectID) else {
            throw ConfigurationError(key: "project.id", problem: "use lower-case letters, digits and dashes")
        }
        apiKeys = try r.stringArray("project.apiKeys") ?? []
        adminTokens = try r.stringArray("admin.tokens", isSecret: true) ?? []
        customTokenKeyFiles = try r.stringArray("customTokens.publicKeyFiles") ?? []
        customTokenServiceAccounts = try r.stringArray("customTokens.serviceAccounts") ?? []
        for path in customTokenKeyFiles {
            let pem = try SettingFiles.text(atPath: path, key: "customTokens.publicKeyFiles")
            guard pem.contains("BEGIN PUBLIC KEY"), (try? CustomTokenVerifier.Signer(publicKeyPEM: pem, serviceAccount: nil)) != nil else {
                throw ConfigurationError(
                    key: "customTokens.publicKeyFiles",
                    problem: "\(path) is not a PEM RSA public key (BEGIN PUBLIC KEY); export the service account's public key, "
                        + "e.g. openssl rsa -in key.pem -pubout")
            }
        }
        host = try r.string("server.host") ?? host
        port = try r.int("server.port", in: 0...65_535) ?? port
        if let text = try r.string("server.publicURL") {
            var url = text
            while url.hasSuffix("/") { url.removeLast() }
            guard let parsed = URLComponents(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""),
                parsed.host?.isEmpty == false, parsed.query == nil, parsed.fragment == nil, parsed.user == nil
            else {
                throw ConfigurationError(
                    key: "server.publicURL", problem: "expected an http(s) URL without query or fragment, e.g. https://auth.example.com")
            }
            publicURL = url
        }
        maxBodyBytes = try r.int("server.maxBodyBytes", in: 1_024...(64 << 20)) ?? maxBodyBytes
        tlsCertificateFile = try r.string("server.tls.certificateFile")
        tlsKeyFile = try r.string("server.tls.keyFile")
        if (tlsCertificateFile == nil) != (tlsKeyFile == nil) {
            throw ConfigurationError(
                key: tlsCertificateFile == nil ? "server.tls.certificateFile" : "server.tls.keyFile",
                problem: "server.tls needs both certificateFile and keyFile (PEM files), or neither")
        }
        dataDirectory = try r.string("storage.dataDirectory") ?? dataDirectory
        sqlitePath = try r.string("storage.sqlitePath")
        userCacheSize = try r.int("storage.userCacheSize", in: 0...1_000_000) ?? userCacheSize
        databaseMaxConnections = try r.int("database.maxConnections", in: 2...1_000) ?? databaseMaxConnections
        databasePreparedStatements = try r.bool("database.preparedStatements") ?? databasePreparedStatements
        databaseCacheMaxAge = TimeInterval(try r.int("database.cacheMaxAge", in: 0...60) ?? Int(databaseCacheMaxAge))
        databaseURL = try r.string("database.url", isSecret: true)
        if let databaseURL {
            if Self.isPostgresURL(databaseURL) {
                guard let url = URL(string: databaseURL), url.host?.isEmpty == false, url.path.count > 1 else {
                    throw ConfigurationError(key: "database.url", problem: "expected postgres://user:password@host:port/database")
                }
            } else if databaseURL.hasPrefix("sqlite:") {
                // sqlite:///absolute/path or sqlite:relative/path
                var path = Substring(databaseURL.dropFirst("sqlite:".count))
                if path.hasPrefix("//") { path = path.dropFirst(2) }
                guard !path.isEmpty else { throw ConfigurationError(key: "database.url", problem: "sqlite: needs a file path") }
                sqlitePath = String(path)
                self.databaseURL = nil
            } else {
                throw ConfigurationError(key: "database.url", problem: "expected a postgres:// or sqlite: URL")
            }
        }
        issuer = try r.string("tokens.issuer")
        if let issuer, URL(string: issuer)?.scheme == nil {
            throw ConfigurationError(key: "tokens.issuer", problem: "expected an absolute URL")
        }
        idTokenLifetime = TimeInterval(try r.int("tokens.idTokenLifetimeSeconds", in: 60...86_400) ?? Int(idTokenLifetime))
        keyRotationPeriod = TimeInterval(try r.int("tokens.rotationPeriodSeconds", in: 3_600...(366 * 86_400)) ?? Int(keyRotationPeriod))
        keyPublishLead = TimeInterval(try r.int("tokens.publishLeadSeconds", in: 0...86_400) ?? Int(keyPublishLead))
        scryptLogN = try r.int("passwords.scryptLogN", in: 1...20) ?? scryptLogN
        importedHashes.costLimit = Double(try r.int("passwords.importedCostLimit", in: 1...1_000) ?? Int(importedHashes.costLimit))
        importedHashes.concurrency = try r.int("passwords.importedConcurrency", in: 1...256) ?? importedHashes.concurrency
        signIn.anonymousEnabled = try r.bool("signIn.anonymous.enabled") ?? signIn.anonymousEnabled
        signIn.passwordEnabled = try r.bool("signIn.password.enabled") ?? signIn.passwordEnabled
        // On by default for production (as for Firebase projects created since September 2023).
        signIn.emailEnumerationProtection = try r.bool("signIn.emailEnumerationProtection") ?? (mode == .production)
        signIn.oneAccountPerEmail = try r.bool("signIn.oneAccountPerEmail") ?? signIn.oneAccountPerEmail
        signIn.emailLinkEnabled = try r.bool("signIn.emailLink.enabled") ?? (mode == .development)
        signIn.phoneEnabled = try r.bool("signIn.phoneNumber.enabled") ?? (mode == .development)
        signIn.testPhoneNumbers = try Self.readTestPhoneNumbers(r)
        signIn.smsRegionPolicy = try Self.readSMSRegionPolicy(r)
        signIn.multiFactor = try Self.readMultiFactor(r, mode: mode)
        signIn.passkeys = try Self.readPasskeys(r, mode: mode, publicURL: publicURL)
        signIn.passkeyAttestation = try Self.readPasskeyAttestation(r)
        anonymousCleanup.enabled = try r.bool("anonymousCleanup.enabled") ?? anonymousCleanup.enabled
        anonymousCleanup.maxAge = TimeInterval(try r.int("anonymousCleanup.maxAgeDays", in: 1...3_650) ?? 30) * 86_400
        anonymousCleanup.checkInterval = TimeInterval(try r.int("anonymousCleanup.checkIntervalSeconds", in: 1...86_400) ?? 3_600)
        recentLoginWindow = TimeInterval(try r.int("security.recentLoginSeconds", in: 1...86_400) ?? 300)
        auditRetentionDays = try r.int("audit.retentionDays", in: 0...36_500) ?? auditRetentionDays
        abuse = try Self.readAbuse(r, mode: mode)
        providers = try Self.readProviders(r)
        sandboxEnabled = try r.bool("sandbox.enabled")
        secrets = try Self.readSecrets(r)
        email = try Self.readEmail(r)
        sms = try Self.readSMS(r, mode: mode)
        log = try Self.readLog(r)
        metrics = try Self.readMetrics(r)
        tracing = try Self.readTracing(r)
        try validate()
    }

    /// `signIn.phoneNumber.testPhoneNumbers`: `number=code` entries, checked as the project config checks them.
    static func readTestPhoneNumbers(_ r: ConfigValues) throws -> [String: String] {
        let key = "signIn.phoneNumber.testPhoneNumbers"
        var numbers: [String: String] = [:]
        for entry in try r.stringArray(key) ?? [] {
            let parts = entry.split(separator: "=", omittingEmptySubsequences: false)
            guard parts.count == 2, numbers[String(parts[0])] == nil else {
                throw ConfigurationError(key: key, problem: "expected distinct number=code entries, e.g. +16505551234=123456")
            }
            numbers[String(parts[0])] = String(parts[1])
        }
        do {
            return try ProjectSettings.checkTestPhoneNumbers(numbers)
        } catch let error as HearthError {
            throw ConfigurationError(key: key, problem: error.detail ?? "invalid")
        }
    }

    /// `smsRegionConfig.allowByDefault.disallowedRegions` or `smsRegionConfig.allowlistOnly.allowedRegions`, not both.
    static func readSMSRegionPolicy(_ r: ConfigValues) throws -> SMSRegionPolicy {
        let denied = try r.stringArray("smsRegionConfig.allowByDefault.disallowedRegions")
        let allowed = try r.stringArray("smsRegionConfig.allowlistOnly.allowedRegions")
        let key = allowed == nil ? "smsRegionConfig.allowByDefault.disallowedRegions" : "smsRegionConfig.allowlistOnly.allowedRegions"
        if denied != nil, allowed != nil {
            throw ConfigurationError(key: key, problem: "give either allowByDefault.disallowedRegions or allowlistOnly.allowedRegions, not both")
        }
        do {
            if let allowed { return try SMSRegionPolicy.checked(.allowlistOnly(allowedRegions: Set(allowed))) }
            return try SMSRegionPolicy.checked(.allowByDefault(disallowedRegions: Set(denied ?? [])))
        } catch let error as HearthError {
            throw ConfigurationError(key: key, problem: error.detail ?? "invalid")
        }
    }

    /// `mfa.state` (`DISABLED`, `ENABLED`, `MANDATORY`), `mfa.enabledProviders` (`PHONE_SMS`), `mfa.totp.enabled`,
    /// `mfa.totp.adjacentIntervals` (0…10, 5 by default), `mfa.recoveryCodes.enabled`. Development mode enables SMS and
    /// TOTP factors unless told otherwise.
    static func readMultiFactor(_ r: ConfigValues, mode: Mode) throws -> MultiFactorSettings {
        var settings = MultiFactorSettings()
        let development = mode == .development
        if let raw = try r.string("mfa.state") {
            guard let state = MultiFactorSettings.State(rawValue: raw) else {
                throw ConfigurationError(key: "mfa.state", problem: "expected DISABLED, ENABLED or MANDATORY")
            }
            settings.state = state
        } else if development {
            settings.state = .enabled
        }
        if let providers = try r.stringArray("mfa.enabledProviders") {
            guard providers.allSatisfy({ $0 == "PHONE_SMS" }) else {
                throw ConfigurationError(key: "mfa.enabledProviders", problem: "expected PHONE_SMS or nothing")
            }
            settings.phoneEnabled = !providers.isEmpty
        } else {
            settings.phoneEnabled = development
        }
        settings.totpEnabled = try r.bool("mfa.totp.enabled") ?? development
        settings.totpAdjacentIntervals =
            try r.int("mfa.totp.adjacentIntervals", in: 0...MultiFactorSettings.maxAdjacentIntervals) ?? settings.totpAdjacentIntervals
        settings.recoveryCodesEnabled = try r.bool("mfa.recoveryCodes.enabled") ?? false
        return settings
    }

    /// `passkeys.rpId`, `passkeys.rpName` (the RP ID by default), `passkeys.expectedOrigins` (`server.publicURL`, else
    /// `https://<rpId>`, by default) and `passkeys.userVerification` (`REQUIRED` or `PREFERRED`, the default), checked
    /// as the project config checks them. Without `passkeys.rpId`: ``PasskeySettings/development`` in development mode,
    /// passkeys off in production.
    static func readPasskeys(_ r: ConfigValues, mode: Mode, publicURL: String?) throws -> PasskeySettings? {
        let rpID = try r.string("passkeys.rpId")
        let rpName = try r.string("passkeys.rpName")
        let origins = try r.stringArray("passkeys.expectedOrigins")
        let verification = try r.string("passkeys.userVerification")
        guard verification == nil || ["REQUIRED", "PREFERRED"].contains(verification) else {
            throw ConfigurationError(key: "passkeys.userVerification", problem: "expected REQUIRED or PREFERRED")
        }
        guard let rpID else {
            if let key = [("passkeys.rpName", rpName != nil), ("passkeys.expectedOrigins", origins != nil)].first(where: \.1)?.0 {
                throw ConfigurationError(key: key, problem: "needs passkeys.rpId")
            }
            guard mode == .development else { return nil }
            var settings = PasskeySettings.development
            settings.requiresUserVerification = verification == "REQUIRED"
            return settings
        }
        do {
            return try PasskeySettings.checked(
                PasskeySettings(
                    rpID: rpID, rpName: rpName ?? rpID, origins: origins ?? [publicURL ?? "https://\(rpID)"],
                    requiresUserVerification: verification == "REQUIRED"))
        } catch let error as HearthError {
            throw ConfigurationError(key: "passkeys.\(error.reason ?? "rpId")", problem: error.detail ?? "invalid")
        }
    }

    /// `passkeys.attestationTrustAnchors` (a PEM file of root certificates, read now) and `passkeys.requireTrustedAttestation`
    /// (which needs them).
    static func readPasskeyAttestation(_ r: ConfigValues) throws -> PasskeyAttestation {
        let required = try r.bool("passkeys.requireTrustedAttestation") ?? false
        guard let path = try r.string("passkeys.attestationTrustAnchors") else {
            guard !required else {
                throw ConfigurationError(key: "passkeys.requireTrustedAttestation", problem: "needs passkeys.attestationTrustAnchors")
            }
            return .any
        }
        let pem = try SettingFiles.text(atPath: path, key: "passkeys.attestationTrustAnchors")
        do {
            return try PasskeyAttestation(anchorsPEM: pem, requiresTrustedAttestation: required)
        } catch {
            throw ConfigurationError(key: "passkeys.attestationTrustAnchors", problem: "\(path): \(error)")
        }
    }

    /// Rules that span keys.
    public func validate() throws {
        switch mode {
        case .development:
            guard ["127.0.0.1", "::1", "localhost"].contains(host) else {
                throw ConfigurationError(
                    key: "server.host",
                    problem: "development mode binds to loopback only (127.0.0.1, ::1 or localhost); set mode: production to listen on \(host)")
            }
        case .production:
            guard !apiKeys.isEmpty else {
                throw ConfigurationError(key: "project.apiKeys", problem: "production mode needs at least one API key")
            }
            if apiKeys.contains(where: { $0.count < 16 }) {
                throw ConfigurationError(key: "project.apiKeys", problem: "every API key must be at least 16 characters")
            }
            if adminTokens.contains(where: { $0.count < 32 }) {
                throw ConfigurationError(key: "admin.tokens", problem: "every admin token must be at least 32 characters")
            }
            if projectID.hasPrefix("demo-") {
                throw ConfigurationError(key: "project.id", problem: "demo- projects are for development mode; choose your project id")
            }
            if sandboxEnabled == true {
                throw ConfigurationError(key: "sandbox.enabled", problem: "the provider sandbox exists in development mode only")
            }
            if email.smtpURL != nil, email.from == nil {
                throw ConfigurationError(
                    key: "email.from", problem: "needed with email.smtp.url: the sender of Hearth's mails, e.g. \"Example <no-reply@example.com>\"")
            }
            if secrets.keyFile == nil, secrets.key == nil {
                throw ConfigurationError(key: "secrets.keyFile", problem: Self.missingKeyProblem)
            }
        }
    }
}

/// Typed reads that tell "absent" from "present but wrong".
struct ConfigValues {
    let reader: ConfigReader

    func string(_ key: String, isSecret: Bool = false) throws -> String? {
        guard let value = reader.string(forKey: ConfigKey(key), isSecret: isSecret) else { return nil }
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw ConfigurationError(key: key, problem: "must not be empty") }
        return trimmed
    }

    func int(_ key: String, in range: ClosedRange<Int>) throws -> Int? {
        if let value = reader.int(forKey: ConfigKey(key)) {
            guard range.contains(value) else {
                throw ConfigurationError(key: key, problem: "\(value) is outside \(range.lowerBound)...\(range.upperBound)")
            }
            return value
        }
        guard let text = reader.string(forKey: ConfigKey(key)) else { return nil }
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else {
            throw ConfigurationError(key: key, problem: "expected a whole number, got \(text)")
        }
        guard range.contains(value) else {
            throw ConfigurationError(key: key, problem: "\(value) is outside \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }

    func bool(_ key: String) throws -> Bool? {
        if let value = reader.bool(forKey: ConfigKey(key)) { return value }
        guard let text = reader.string(forKey: ConfigKey(key)) else { return nil }
        switch text.lowercased() {
        case "true", "yes", "on", "1": return true
        case "false", "no", "off", "0": return false
        default: throw ConfigurationError(key: key, problem: "expected true or false, got \(text)")
        }
    }

    func stringArray(_ key: String, isSecret: Bool = false) throws -> [String]? {
        if let values = reader.stringArray(forKey: ConfigKey(key), isSecret: isSecret) {
            return values.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        guard let text = reader.string(forKey: ConfigKey(key), isSecret: isSecret) else { return nil }
        return text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}

extension ServerConfiguration {
    /// 2 to 63 of `a`–`z`, `0`–`9` and `-`, not starting with `-`. Checked by hand: the regular expression used before
    /// (ICU's, through Foundation) also let a trailing newline through, as its `$` matches before one.
    static func isProjectID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard (2...63).contains(bytes.count), bytes[0] != UInt8(ascii: "-") else { return false }
        return bytes.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "-")
        }
    }
}
