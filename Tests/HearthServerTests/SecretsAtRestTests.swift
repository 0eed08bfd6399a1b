import Configuration
import Foundation
import HTTPTypes
import HearthConfiguration
import HearthCore
import HearthServer
import HearthStoragePostgres
import HearthStorageSQLite
import HearthTesting
import HearthTokens
import HearthWire
import JWTKit
import Logging
import SQLKit
import Testing

@testable import HearthStorage

private let secretsLogger = Logger(label: "hearth.tests.secrets")
private let t0 = Date(timeIntervalSince1970: 1_800_000_000)

/// Signing keys and provider secrets are sealed with the key-encryption key before they reach a row; the
/// data directory and the database files are for their owner only.
@Suite("Secrets at rest")
struct SecretsAtRestTests {
    static let appSecret = "the-facebook-app-secret-at-rest"
    static let applePrivateKey = "-----BEGIN PRIVATE KEY-----\\nMIGTAgEAapple-p8-key-at-rest\\n-----END PRIVATE KEY-----"

    // MARK: The sealer

    @Test("seal and open: a fresh nonce each time, the key id in the text, plain text passed through")
    func sealAndOpen() throws {
        let key = KeyEncryptionKey.generate()
        let sealer = SecretSealer(key: key)
        let first = try sealer.seal("-----BEGIN PRIVATE KEY-----\nabc\n", context: "signing-key/k1")
        let second = try sealer.seal("-----BEGIN PRIVATE KEY-----\nabc\n", context: "signing-key/k1")
        #expect(first.hasPrefix("hearth-sealed:v1:\(key.id):"))
        #expect(first != second)
        #expect(!first.contains("PRIVATE KEY"))
        #expect(try sealer.open(first, context: "signing-key/k1") == "-----BEGIN PRIVATE KEY-----\nabc\n")
        #expect(SecretSealer.keyID(of: first) == key.id)
        #expect(try sealer.open("plain text from an earlier version", context: "signing-key/k1") == "plain text from an earlier version")
        #expect(key.id.count == 12)
        #expect(try KeyEncryptionKey(base64: key.base64).id == key.id)
        #expect("\(key)" == "key-encryption key \(key.id)")
        #expect(!"\(key)".contains(key.base64))
    }

    @Test("a wrong key, a moved value, an altered value and a missing key each fail with their own clear error")
    func openFailures() throws {
        let key = KeyEncryptionKey.generate()
        let other = KeyEncryptionKey.generate()
        let sealed = try SecretSealer(key: key).seal("secret", context: "setting/identity-provider/facebook.com")

        let wrong = #expect(throws: SecretSealerError.self) {
            try SecretSealer(key: other).open(sealed, context: "setting/identity-provider/facebook.com")
        }
        #expect(wrong?.code == .wrongKey)
        #expect(
            wrong?.message.contains("sealed with key-encryption key \(key.id), but the configured key is \(other.id)") == true,
            "\(String(describing: wrong))")
        #expect(wrong?.message.contains(key.base64) == false)
        #expect(wrong?.message.contains(other.base64) == false)

        let moved = #expect(throws: SecretSealerError.self) {
            try SecretSealer(key: key).open(sealed, context: "setting/identity-provider/apple.com")
        }
        #expect(moved?.code == .tampered)

        var bytes = Array(sealed.utf8)
        let index = bytes.count - 5
        bytes[index] = bytes[index] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let altered = #expect(throws: SecretSealerError.self) {
            try SecretSealer(key: key).open(String(decoding: bytes, as: UTF8.self), context: "setting/identity-provider/facebook.com")
        }
        #expect(altered?.code == .tampered)

        let garbled = #expect(throws: SecretSealerError.self) { try SecretSealer(key: key).open("hearth-sealed:v1:\(key.id):%%%", context: "x") }
        #expect(garbled?.code == .malformedValue)
        let future = #expect(throws: SecretSealerError.self) { try SecretSealer(key: key).open("hearth-sealed:v9:\(key.id):AAAA", context: "x") }
        #expect(future?.code == .malformedValue)

        let none: SecretSealer? = nil
        let missing = #expect(throws: SecretSealerError.self) { try none.open(sealed, context: "x") }
        #expect(missing?.code == .noKey)
        #expect(missing?.message.contains(key.id) == true)
        #expect(try none.open("plain", context: "x") == "plain")
    }

    @Test("a key that is not 32 bytes of base64 is refused without echoing it")
    func malformedKeys() throws {
        for text in ["c2VjcmV0LXRvby1zaG9ydA==", "not base64 at all: hunter2", Data(count: 33).base64EncodedString()] {
            let error = #expect(throws: SecretSealerError.self) { try KeyEncryptionKey(base64: text) }
            #expect(error?.code == .malformedKey)
            #expect(error?.message.contains(text) == false)
        }
    }

    // MARK: Configuration

    func read(_ values: [AbsoluteConfigKey: ConfigValue], defaultMode: ServerConfiguration.Mode = .development) throws -> ServerConfiguration {
        try ServerConfiguration(reader: ConfigReader(provider: InMemoryProvider(values: values)), defaultMode: defaultMode)
    }

    static let production: [AbsoluteConfigKey: ConfigValue] = [
        "project.id": .init(.string("acme"), isSecret: false),
        "project.apiKeys": .init(.stringArray(["AIzaSyTestKeyForHearth01"]), isSecret: true),
    ]

    @Test("production without a key refuses to start, naming secrets.keyFile and HEARTH_SECRETS_KEY; a bad key is not echoed")
    func configuration() throws {
        let missing = #expect(throws: ConfigurationError.self) { try read(Self.production, defaultMode: .production) }
        #expect(missing?.key == "secrets.keyFile")
        #expect("\(missing.map { "\($0)" } ?? "")".contains("HEARTH_SECRETS_KEY"))

        var withKey = Self.production
        let key = KeyEncryptionKey.generate()
        withKey["secrets.key"] = .init(.string(key.base64), isSecret: true)
        #expect(try read(withKey, defaultMode: .production).secrets.key == key.base64)

        var short = Self.production
        short["secrets.key"] = .init(.string("c2VjcmV0LXRvby1zaG9ydA=="), isSecret: true)
        let bad = #expect(throws: ConfigurationError.self) { try read(short, defaultMode: .production) }
        #expect(bad?.key == "secrets.key (HEARTH_SECRETS_KEY)")
        #expect(bad.map { "\($0)".contains("c2VjcmV0LXRvby1zaG9ydA==") } == false)

        var both = withKey
        both["secrets.keyFile"] = .init(.string("/nonexistent/key"), isSecret: false)
        #expect(throws: ConfigurationError.self) { try read(both) }

        let absent = #expect(throws: ConfigurationError.self) {
            try read(["secrets.keyFile": .init(.string("/nonexistent/hearth.key"), isSecret: false)])
        }
        #expect(absent?.key == "secrets.keyFile")
        #expect(absent.map { "\($0)".contains("/nonexistent/hearth.key") } == true)
    }

    // MARK: Files

    @Test("a new server's data directory is 0700 and its files 0600")
    func freshPermissions() async throws {
        let hearth = try await TestHearth.make()
        defer { hearth.removeFiles() }
        // Checked while the server runs: SQLite removes -wal and -shm on close.
        let directory = hearth.directory.path
        #expect(PrivateFiles.mode(ofPath: directory) == 0o700)
        #expect(PrivateFiles.mode(ofPath: directory + "/secrets.key") == 0o600)
        if TestDatabase.backend == .sqlite {
            for name in ["hearth.sqlite", "hearth.sqlite-wal", "hearth.sqlite-shm", "hearth.sqlite.lock"] {
                #expect(PrivateFiles.mode(ofPath: directory + "/" + name) == 0o600, "\(name)")
            }
        }
        try await hearth.close()
    }

    @Test("an existing data directory or key file that others may read gets one warning each, naming the chmod; the key is never logged")
    func widerFilesWarn() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-wide-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        defer { try? FileManager.default.removeItem(at: directory) }
        chmod(directory.path, 0o755)
        let key = KeyEncryptionKey.generate()
        let keyFile = directory.appendingPathComponent("secrets.key").path
        try (key.base64 + "\n").write(toFile: keyFile, atomically: false, encoding: .utf8)
        chmod(keyFile, 0o644)

        let logs = CapturedLogs()
        let hearth = try await TestHearth.make(directory: directory, logger: logs.logger())
        try await hearth.close()
        let text = logs.text
        #expect(
            text.contains("warning \(keyFile) (the key-encryption key) is accessible to other users (mode 0644); run: chmod 600 \(keyFile)"),
            "\(text)")
        if TestDatabase.backend == .sqlite {
            #expect(
                text.contains(
                    "warning \(directory.path) (the database directory) is accessible to other users (mode 0755); run: chmod 700 \(directory.path)"),
                "\(text)")
            // The files it made itself are private: no warning for them.
            #expect(!text.contains("hearth.sqlite (the database)"))
        }
        #expect(!text.contains(key.base64))
        // The warning changes nothing: the operator decides.
        #expect(PrivateFiles.mode(ofPath: directory.path) == 0o755)
    }

    // MARK: Sealed rows

    /// The raw `private_key_pem` of every signing key and the raw value of every provider setting.
    static func rawSecrets(_ store: any HearthStore) async throws -> (keys: [String: String], settings: [String: String]) {
        let sql = try #require(store as? SQLStore)
        return try await sql.transactor.read { database in
            var keys: [String: String] = [:]
            for row in try await database.raw("SELECT kid, private_key_pem FROM signing_keys").all() {
                keys[try row.decode(column: "kid", as: String.self)] = try row.decode(column: "private_key_pem", as: String.self)
            }
            var settings: [String: String] = [:]
            for row in try await database.raw("SELECT name, value FROM settings").all() {
                let name = try row.decode(column: "name", as: String.self)
                if name.hasPrefix(IdentityProviderSetting.storagePrefix) { settings[name] = try row.decode(column: "value", as: String.self) }
            }
            return (keys, settings)
        }
    }

    /// Stores Facebook's app secret and Apple's private key through the admin API.
    static func storeProviderSecrets(_ client: FirebaseTestClient) async throws {
        let base = "/v2/projects/demo-hearth/defaultSupportedIdpConfigs"
        let facebook = try await client.send(
            .post, base + "?idpId=facebook.com", #"{"enabled":true,"clientId":"1234567890","clientSecret":"\#(appSecret)"}"#)
        #expect(facebook.status == .ok, "\(facebook.text)")
        let apple = try await client.send(
            .post, base + "?idpId=apple.com",
            #"{"enabled":true,"clientId":"com.example.web","appleSignInConfig":{"codeFlowConfig":{"teamId":"TEAM123456","keyId":"KEY1234567","privateKey":"\#(applePrivateKey)"}}}"#
        )
        #expect(apple.status == .ok, "\(apple.text)")
    }

    /// Checks that `idToken` verifies against the server's published JWKS.
    static func verifiesAgainstJWKS(_ idToken: String, uid: String, client: FirebaseTestClient) async throws {
        let jwks = try await client.raw("/.well-known/jwks.json", method: .get)
        #expect(jwks.status == .ok)
        let keys = try await JWTKeyCollection().add(jwksJSON: String(decoding: jwks.body, as: UTF8.self))
        #expect(try await keys.verify(idToken, as: IDTokenClaims.self).userID == uid)
    }

    @Test("rows hold sealed private keys and provider secrets; the server signs; a restart with the key works, with another key fails clearly")
    func sealedRowsAndRestart() async throws {
        let logs = CapturedLogs()
        let first = try await TestHearth.make(logger: logs.logger())
        defer { first.removeFiles() }
        let key = try KeyEncryptionKey(contentsOfFile: first.directory.appendingPathComponent("secrets.key").path)
        let created: SignUpResponse
        do {
            created = try await first.withClient { client in
                try await Self.storeProviderSecrets(client)
                let created = try await client.signUp(email: "ada@example.com")
                try await Self.verifiesAgainstJWKS(try #require(created.idToken), uid: created.localId, client: client)
                return created
            }
            let raw = try await Self.rawSecrets(first.services.store)
            #expect(!raw.keys.isEmpty)
            for (kid, pem) in raw.keys {
                #expect(pem.hasPrefix("hearth-sealed:v1:\(key.id):"), "\(kid)")
                #expect(!pem.contains("PRIVATE KEY"))
            }
            #expect(Set(raw.settings.keys) == ["identity-provider/facebook.com", "identity-provider/apple.com"])
            for (name, value) in raw.settings {
                #expect(value.hasPrefix("hearth-sealed:v1:\(key.id):"), "\(name)")
                #expect(!value.contains(Self.appSecret) && !value.contains("apple-p8-key-at-rest"))
            }
            // Through the store, the domain sees plain text.
            let opened = try #require(try await first.services.store.setting("identity-provider/facebook.com"))
            #expect(opened.contains(Self.appSecret))
            #expect(try await first.services.store.signingKeys().allSatisfy { $0.privateKeyPEM.contains("PRIVATE KEY-----") })
        } catch {
            try? await first.close()
            throw error
        }
        try await first.close()

        if TestDatabase.backend == .sqlite {
            // The file itself (and its journal), byte by byte.
            for name in ["hearth.sqlite", "hearth.sqlite-wal"] {
                let path = first.directory.appendingPathComponent(name).path
                guard let bytes = FileManager.default.contents(atPath: path) else { continue }
                #expect(bytes.range(of: Data("PRIVATE KEY".utf8)) == nil, "\(name) holds a PEM private key")
                #expect(bytes.range(of: Data(Self.appSecret.utf8)) == nil, "\(name) holds the app secret")
                #expect(bytes.range(of: Data("apple-p8-key-at-rest".utf8)) == nil, "\(name) holds Apple's key")
            }
        }
        #expect(!logs.text.contains(key.base64))

        // The same key: everything still works, with the same signing key.
        let again = try await TestHearth.make(directory: first.directory)
        do {
            try await again.withClient { client in
                let signedIn = try await client.signIn(email: "ada@example.com")
                #expect(signedIn.status == .ok, "\(signedIn.text)")
                let idToken = try #require(signedIn.string("idToken"))
                #expect(jwtHeader(idToken)["kid"] == jwtHeader(try #require(created.idToken))["kid"])
                try await Self.verifiesAgainstJWKS(idToken, uid: created.localId, client: client)
            }
            #expect(try await again.services.store.setting("identity-provider/apple.com")?.contains("apple-p8-key-at-rest") == true)
        } catch {
            try? await again.close()
            throw error
        }
        try await again.close()

        // Another key: start-up stops, naming both key ids and the settings, never a key.
        let other = KeyEncryptionKey.generate()
        let failure = await #expect(throws: SecretSealerError.self) {
            let wrong = try await TestHearth.make(directory: first.directory) { $0.secrets.key = other.base64 }
            try? await wrong.close()
        }
        #expect(failure?.code == .wrongKey)
        let message = failure.map { "\($0)" } ?? ""
        #expect(message.contains("sealed with key-encryption key \(key.id), but the configured key is \(other.id)"), "\(message)")
        #expect(message.contains("secrets.keyFile or HEARTH_SECRETS_KEY"))
        #expect(!message.contains(key.base64) && !message.contains(other.base64))
    }

    @Test("plain-text rows an earlier version wrote keep working and are sealed at start")
    func legacyRowsAreSealed() async throws {
        let first = try await TestHearth.make()
        defer { first.removeFiles() }
        let key = try KeyEncryptionKey(contentsOfFile: first.directory.appendingPathComponent("secrets.key").path)
        let created: SignUpResponse
        let plainKeys: [SigningKeyRecord]
        let plainSetting: String
        do {
            created = try await first.withClient { client in
                try await Self.storeProviderSecrets(client)
                return try await client.signUp(email: "grace@example.com")
            }
            plainKeys = try await first.services.store.signingKeys()
            plainSetting = try #require(try await first.services.store.setting("identity-provider/facebook.com"))
        } catch {
            try? await first.close()
            throw error
        }
        try await first.close()

        // What the previous version left: the same rows, in plain text.
        let legacy = try await HearthServices.openStore(configuration: first.configuration, logger: secretsLogger)
        do {
            try await legacy.transactor.write { database in
                for record in plainKeys {
                    try await database.raw("UPDATE signing_keys SET private_key_pem = \(bind: record.privateKeyPEM) WHERE kid = \(bind: record.kid)")
                        .run()
                }
                try await database.raw("UPDATE settings SET value = \(bind: plainSetting) WHERE name = 'identity-provider/facebook.com'").run()
            }
            let raw = try await Self.rawSecrets(legacy)
            #expect(raw.keys.values.allSatisfy { $0.contains("PRIVATE KEY-----") })
            #expect(raw.settings["identity-provider/facebook.com"] == plainSetting)
            // A store without a key reads plain text as it is, and refuses a sealed value.
            #expect(try await legacy.setting("identity-provider/facebook.com") == plainSetting)
            let sealedApple = #expect(throws: SecretSealerError.self) {
                _ = try legacy.openedSetting("identity-provider/apple.com", raw.settings["identity-provider/apple.com"] ?? "")
            }
            #expect(sealedApple?.code == .noKey)
        } catch {
            try? await legacy.close()
            throw error
        }
        try await legacy.close()

        let logs = CapturedLogs()
        let upgraded = try await TestHearth.make(directory: first.directory, logger: logs.logger())
        do {
            #expect(logs.text.contains("Sealed secrets an earlier version stored in plain text"), "\(logs.text)")
            #expect(
                logs.text.contains("signingKeys: \(plainKeys.count)") || logs.text.contains("\"signingKeys\": \(plainKeys.count)"), "\(logs.text)")
            let raw = try await Self.rawSecrets(upgraded.services.store)
            #expect(raw.keys.count == plainKeys.count)
            #expect(raw.keys.values.allSatisfy { $0.hasPrefix("hearth-sealed:v1:\(key.id):") })
            #expect(raw.settings.values.allSatisfy { $0.hasPrefix("hearth-sealed:v1:\(key.id):") })
            #expect(try await upgraded.services.store.signingKeys() == plainKeys)
            #expect(try await upgraded.services.store.setting("identity-provider/facebook.com") == plainSetting)
            try await upgraded.withClient { client in
                let signedIn = try await client.signIn(email: "grace@example.com")
                #expect(signedIn.status == .ok, "\(signedIn.text)")
                try await Self.verifiesAgainstJWKS(try #require(signedIn.string("idToken")), uid: created.localId, client: client)
            }
        } catch {
            try? await upgraded.close()
            throw error
        }
        try await upgraded.close()
    }
}

// MARK: - The binary: keys rewrap, migrate-data

/// `hearth keys rewrap` and `hearth migrate-data` on sealed databases, run as an operator would.
@Suite("Secrets at rest: hearth keys rewrap and migrate-data, the real binary")
struct SecretsCommandLineTests {
    enum Backend: String, CaseIterable, Sendable { case sqlite, postgres }

    /// A scratch directory with two key files (0600).
    struct Scratch {
        let directory: URL
        let oldKey = KeyEncryptionKey.generate()
        let newKey = KeyEncryptionKey.generate()
        var oldKeyFile: String { directory.appendingPathComponent("old.key").path }
        var newKeyFile: String { directory.appendingPathComponent("new.key").path }
        var sqlitePath: String { directory.appendingPathComponent("hearth.sqlite").path }

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-rewrap-\(UUID().uuidString)")
            try PrivateFiles.createDirectory(atPath: directory.path)
            _ = try PrivateFiles.createFile(atPath: oldKeyFile, contents: Data(oldKey.base64.utf8))
            _ = try PrivateFiles.createFile(atPath: newKeyFile, contents: Data((newKey.base64 + "\n").utf8))
        }
    }

    static func key(_ kid: String) -> SigningKeyRecord {
        SigningKeyRecord(
            kid: kid, algorithm: "RS256", privateKeyPEM: "-----BEGIN PRIVATE KEY-----\n\(kid)-secret\n-----END PRIVATE KEY-----\n",
            certificatePEM: "-----BEGIN CERTIFICATE-----\n\(kid)\n", createdAt: t0, activatesAt: t0,
            retiresAt: t0.addingTimeInterval(86_400), expiresAt: t0.addingTimeInterval(2 * 86_400))
    }

    static let facebook = #"{"providerID":"facebook.com","enabled":true,"clientID":"1","clientSecret":"rewrap-app-secret"}"#

    static func open(_ backend: Backend, _ scratch: Scratch, url: String?, sealer: SecretSealer?) async throws -> SQLStore {
        switch backend {
        case .sqlite: try await SQLiteStorage.open(path: scratch.sqlitePath, logger: secretsLogger, sealer: sealer)
        case .postgres: try await PostgresStorage.open(url: try #require(url), logger: secretsLogger, sealer: sealer)
        }
    }

    @Test("rewrap re-seals every signing key and provider setting under the new key, in one go", arguments: Backend.allCases)
    func rewrap(backend: Backend) async throws {
        let scratch = try Scratch()
        defer { try? FileManager.default.removeItem(at: scratch.directory) }
        let url = backend == .postgres ? try await PostgresTestCluster.shared().createDatabase() : nil
        let old = SecretSealer(key: scratch.oldKey)

        // k1 and the Facebook setting sealed with the old key; k2 left in plain text by an earlier version.
        let store = try await Self.open(backend, scratch, url: url, sealer: old)
        try await store.insertSigningKey(Self.key("k1"))
        try await store.setSetting("identity-provider/facebook.com", to: Self.facebook)
        try await store.setSetting("cleanup.enabledAt", to: "1")
        try await store.close()
        let plain = try await Self.open(backend, scratch, url: url, sealer: nil)
        try await plain.insertSigningKey(Self.key("k2"))
        try await plain.close()

        var environment = ["HEARTH_SECRETS_KEY_FILE": scratch.oldKeyFile]
        if let url { environment["HEARTH_DATABASE_URL"] = url }
        let arguments = ["keys", "rewrap", "--data-dir", scratch.directory.path, "--new-key-file", scratch.newKeyFile]
        let result = try await HearthProcess.run(arguments, environment: environment)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            result.standardOutput.hasPrefix(
                "rewrapped 2 signing key(s), 1 provider setting(s), 0 TOTP factor(s) and 0 console operator(s) from key \(scratch.oldKey.id) to key \(scratch.newKey.id)\n"
            ),
            "\(result.standardOutput)")
        for text in [result.standardOutput, result.standardError] {
            #expect(!text.contains(scratch.oldKey.base64) && !text.contains(scratch.newKey.base64))
        }

        let rewrapped = try await Self.open(backend, scratch, url: url, sealer: SecretSealer(key: scratch.newKey))
        do {
            #expect(try await rewrapped.signingKeys() == [Self.key("k1"), Self.key("k2")])
            #expect(try await rewrapped.setting("identity-provider/facebook.com") == Self.facebook)
            #expect(try await rewrapped.setting("cleanup.enabledAt") == "1")
            let raw = try await SecretsAtRestTests.rawSecrets(rewrapped)
            #expect(raw.keys.count == 2 && raw.settings.count == 1)
            #expect((Array(raw.keys.values) + Array(raw.settings.values)).allSatisfy { $0.hasPrefix("hearth-sealed:v1:\(scratch.newKey.id):") })
        } catch {
            try? await rewrapped.close()
            throw error
        }
        try await rewrapped.close()

        // The old key no longer opens them: the tool says so and changes nothing.
        let stale = try await HearthProcess.run(arguments, environment: environment)
        #expect(stale.status == 1)
        #expect(stale.standardError.contains("nothing changed"), "\(stale.standardError)")
        #expect(
            stale.standardError.contains("sealed with key-encryption key \(scratch.newKey.id), but the configured key is \(scratch.oldKey.id)"),
            "\(stale.standardError)")
        #expect(!stale.standardError.contains(scratch.oldKey.base64) && !stale.standardError.contains(scratch.newKey.base64))

        // The key in use as the "new" one: nothing to do.
        var current = environment
        current["HEARTH_SECRETS_KEY_FILE"] = scratch.newKeyFile
        let same = try await HearthProcess.run(arguments, environment: current)
        #expect(same.status == 2)
        #expect(same.standardError.contains("holds the key in use (\(scratch.newKey.id))"), "\(same.standardError)")

        let oldStore = try await Self.open(backend, scratch, url: url, sealer: old)
        let error = await #expect(throws: SecretSealerError.self) { _ = try await oldStore.signingKeys() }
        #expect(error?.code == .wrongKey)
        try await oldStore.close()
    }

    @Test("rewrap in development mode takes the current key from <dataDirectory>/secrets.key")
    func rewrapDevelopmentKey() async throws {
        let scratch = try Scratch()
        defer { try? FileManager.default.removeItem(at: scratch.directory) }
        let developmentKey = KeyEncryptionKey.generate()
        _ = try PrivateFiles.createFile(
            atPath: scratch.directory.appendingPathComponent("secrets.key").path, contents: Data(developmentKey.base64.utf8))
        let store = try await SQLiteStorage.open(path: scratch.sqlitePath, logger: secretsLogger, sealer: SecretSealer(key: developmentKey))
        try await store.insertSigningKey(Self.key("k1"))
        try await store.close()

        let result = try await HearthProcess.run(["keys", "rewrap", "--data-dir", scratch.directory.path, "--new-key-file", scratch.newKeyFile])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("from key \(developmentKey.id) to key \(scratch.newKey.id)"), "\(result.standardOutput)")
        let rewrapped = try await SQLiteStorage.open(path: scratch.sqlitePath, logger: secretsLogger, sealer: SecretSealer(key: scratch.newKey))
        let keys = try await rewrapped.signingKeys()
        try await rewrapped.close()
        #expect(keys == [Self.key("k1")])
    }

    @Test("migrate-data copies sealed values as they are: the target opens them with the same key")
    func migrateDataKeepsSealedValues() async throws {
        let scratch = try Scratch()
        defer { try? FileManager.default.removeItem(at: scratch.directory) }
        let sealer = SecretSealer(key: scratch.oldKey)
        let source = try await SQLiteStorage.open(path: scratch.sqlitePath, logger: secretsLogger, sealer: sealer)
        try await source.insertSigningKey(Self.key("k1"))
        try await source.setSetting("identity-provider/facebook.com", to: Self.facebook)
        let sourceRaw = try await SecretsAtRestTests.rawSecrets(source)
        try await source.close()

        let url = try await PostgresTestCluster.shared().createDatabase()
        let result = try await HearthProcess.run(["migrate-data", "--from", scratch.sqlitePath, "--to", url])
        #expect(result.status == 0, "\(result.standardError)")

        let target = try await PostgresStorage.open(url: url, logger: secretsLogger, sealer: sealer)
        do {
            let targetRaw = try await SecretsAtRestTests.rawSecrets(target)
            #expect(targetRaw.keys == sourceRaw.keys)
            #expect(targetRaw.settings == sourceRaw.settings)
            #expect(try await target.signingKeys() == [Self.key("k1")])
            #expect(try await target.setting("identity-provider/facebook.com") == Self.facebook)
        } catch {
            try? await target.close()
            throw error
        }
        try await target.close()
    }

    @Test("serve with another key than the database's stops at once, naming both key ids and never a key")
    func serveWithWrongKey() async throws {
        let scratch = try Scratch()
        defer { try? FileManager.default.removeItem(at: scratch.directory) }
        let store = try await SQLiteStorage.open(path: scratch.sqlitePath, logger: secretsLogger, sealer: SecretSealer(key: scratch.oldKey))
        try await store.insertSigningKey(Self.key("k1"))
        try await store.close()

        let result = try await HearthProcess.run(
            ["serve", "--port", "0", "--data-dir", scratch.directory.path], environment: ["HEARTH_SECRETS_KEY": scratch.newKey.base64])
        #expect(result.status == 1)
        #expect(
            result.standardError.contains(
                "hearth: cannot open the stored secrets: the value stored for signing-key/k1 was sealed with key-encryption key "
                    + "\(scratch.oldKey.id), but the configured key is \(scratch.newKey.id)"),
            "\(result.standardError)")
        for text in [result.standardOutput, result.standardError] {
            #expect(!text.contains(scratch.oldKey.base64) && !text.contains(scratch.newKey.base64))
        }
    }

    @Test("hearth serve makes its database files and development key 0600, and never prints the key")
    func servePrivateFiles() async throws {
        let replica = try await HearthProcess.start(environment: [:])
        defer { replica.stop() }
        let directory = replica.dataDirectory.path
        for name in ["secrets.key", "hearth.sqlite", "hearth.sqlite-wal", "hearth.sqlite-shm", "hearth.sqlite.lock"] {
            #expect(PrivateFiles.mode(ofPath: directory + "/" + name) == 0o600, "\(name)")
        }
        let key = try KeyEncryptionKey(contentsOfFile: directory + "/secrets.key")
        #expect(!replica.log.contains(key.base64))
        // The harness made the directory with the test process's umask: when that lets others in, the server says so.
        if let mode = PrivateFiles.mode(ofPath: directory), mode & 0o077 != 0 {
            #expect(replica.log.contains("(the database directory) is accessible to other users"), "\(replica.log)")
            #expect(replica.log.contains("run: chmod 700 \(directory)"))
        }
    }

    @Test("serve in production mode without a key refuses to start, naming both settings")
    func productionWithoutKey() async throws {
        let scratch = try Scratch()
        defer { try? FileManager.default.removeItem(at: scratch.directory) }
        let result = try await HearthProcess.run(
            ["serve", "--mode", "production", "--project", "acme-prod", "--data-dir", scratch.directory.path],
            environment: ["HEARTH_PROJECT_API_KEYS": "AIzaSyTestKeyForHearth01"])
        #expect(result.status == 2)
        #expect(
            result.standardError.hasPrefix("hearth: invalid configuration: secrets.keyFile: production mode needs a key-encryption key"),
            "\(result.standardError)")
        #expect(result.standardError.contains("HEARTH_SECRETS_KEY"))
    }
}
