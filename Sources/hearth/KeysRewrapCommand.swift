import ArgumentParser
import Foundation
import HearthComposition
import HearthConfiguration
import HearthCore
import HearthServer
import HearthStorage
import Logging

/// `hearth keys rewrap --new-key-file PATH`: re-seals every stored secret under a new key-encryption key.
struct KeysRewrapCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rewrap",
        abstract: "Re-seal the stored secrets (signing keys, provider settings) under a new key-encryption key.",
        discussion: """
            Opens every sealed value with the key the configuration names (secrets.keyFile, HEARTH_SECRETS_KEY, or \
            in development mode <dataDirectory>/secrets.key) and seals it with the key in --new-key-file, in one \
            transaction. Stop the servers first (a SQLite file is refused while a server holds it); afterwards \
            configure the new key, then start them again. See docs/configuration.md, "Secrets at rest".
            """)

    @OptionGroup var options: CommonOptions
    @Option(name: .customLong("new-key-file"), help: "A file holding the new key: 32 bytes in base64 (openssl rand -base64 32).")
    var newKeyFile: String

    func run() async throws {
        umask(0o077)
        let logger = Logger(label: "hearth.keys")
        let configuration: ServerConfiguration
        let current: KeyEncryptionKey?
        let new: KeyEncryptionKey
        do {
            configuration = try await options.loadConfiguration()
            current = try configuration.keyEncryptionKey(logger: logger, createInDevelopment: false)
            PrivateFiles.warnIfShared(newKeyFile, holding: "the new key-encryption key", logger: logger)
            do {
                new = try KeyEncryptionKey(contentsOfFile: newKeyFile)
            } catch let error as SecretSealerError {
                throw ConfigurationError(key: "--new-key-file", problem: error.message)
            }
        } catch let error as ConfigurationError {
            FileHandle.standardError.write(Data("hearth: \(error)\n".utf8))
            throw ExitCode(2)
        } catch let error as UnknownSettingsError {
            FileHandle.standardError.write(Data(error.lines.map { "hearth: \($0)\n" }.joined().utf8))
            throw ExitCode(2)
        }
        if let current, current.id == new.id {
            FileHandle.standardError.write(Data("hearth: --new-key-file holds the key in use (\(current.id)); nothing to do\n".utf8))
            throw ExitCode(2)
        }
        let store: SQLStore
        do {
            // On SQLite the server's exclusive lock is taken (briefly waited for): no server may run meanwhile.
            store = try await Self.openStore(configuration, sealer: current.map(SecretSealer.init(key:)), logger: logger)
        } catch {
            FileHandle.standardError.write(Data("hearth: \(StartupFailure.message(error, configuration: configuration))\n".utf8))
            throw ExitCode(1)
        }
        let counts: SQLStore.ResealedSecrets
        do {
            counts = try await store.rewrapStoredSecrets(to: SecretSealer(key: new))
        } catch {
            try? await store.close()
            FileHandle.standardError.write(Data("hearth: nothing changed: \(StartupFailure.message(error, configuration: configuration))\n".utf8))
            throw ExitCode(1)
        }
        try await store.close()
        print(
            """
            rewrapped \(counts.signingKeys) signing key(s), \(counts.settings) provider setting(s), \(counts.totpSecrets) TOTP factor(s) \
            and \(counts.operatorSecrets) console operator(s) \
            from key \(current?.id ?? "(none: they were plain text)") to key \(new.id)
            now configure the new key (secrets.keyFile: \(newKeyFile), or HEARTH_SECRETS_KEY) before starting the servers
            """)
    }

    static func openStore(_ configuration: ServerConfiguration, sealer: SecretSealer?, logger: Logger) async throws -> SQLStore {
        if configuration.usesPostgres {
            return try await HearthServices.openStore(configuration: configuration, logger: logger, migrate: false, sealer: sealer)
        }
        var exclusive = configuration
        exclusive.userCacheSize = max(1, exclusive.userCacheSize)
        return try await HearthServices.openStore(configuration: exclusive, logger: logger, migrate: false, servesRequests: true, sealer: sealer)
    }
}
