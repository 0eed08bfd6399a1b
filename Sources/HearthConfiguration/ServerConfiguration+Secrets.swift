import Foundation
import HearthCore
import Logging

extension ServerConfiguration {
    /// Where development mode keeps its key-encryption key when none is configured.
    public var developmentKeyFile: String { (dataDirectory as NSString).appendingPathComponent("secrets.key") }

    static let missingKeyProblem = """
        production mode needs a key-encryption key to seal signing keys and provider secrets at rest: \
        set secrets.keyFile to a file holding 32 random bytes in base64 \
        (openssl rand -base64 32 > hearth-secrets.key && chmod 600 hearth-secrets.key), or HEARTH_SECRETS_KEY to the key itself
        """

    /// `secrets.keyFile` and `secrets.key` (`HEARTH_SECRETS_KEY`), checked: at most one, and a key that
    /// reads as 32 bytes of base64. The key never appears in a message.
    static func readSecrets(_ r: ConfigValues) throws -> Secrets {
        var secrets = Secrets()
        secrets.keyFile = try r.string("secrets.keyFile")
        secrets.key = try r.string("secrets.key", isSecret: true)
        if secrets.keyFile != nil, secrets.key != nil {
            throw ConfigurationError(key: "secrets.key", problem: "set secrets.keyFile or HEARTH_SECRETS_KEY (secrets.key), not both")
        }
        if let key = secrets.key {
            do {
                _ = try KeyEncryptionKey(base64: key)
            } catch let error as SecretSealerError {
                throw ConfigurationError(key: "secrets.key (HEARTH_SECRETS_KEY)", problem: error.message)
            }
        }
        if let path = secrets.keyFile {
            do {
                _ = try KeyEncryptionKey(contentsOfFile: path)
            } catch let error as SecretSealerError {
                throw ConfigurationError(key: "secrets.keyFile", problem: error.message)
            }
        }
        return secrets
    }

    /// The key that seals secrets at rest: `HEARTH_SECRETS_KEY`, the key in `secrets.keyFile` (warning
    /// when others may read the file), or in development mode the one in ``developmentKeyFile``, made
    /// (0600, its directory 0700) when missing and `createInDevelopment`.
    ///
    /// - Returns: `nil` in development mode when there is no key file and `createInDevelopment` is false.
    /// - Throws: ``ConfigurationError`` naming `secrets.keyFile` in production mode without a key, or when
    ///   a key does not read.
    public func keyEncryptionKey(logger: Logger, createInDevelopment: Bool = true) throws -> KeyEncryptionKey? {
        do {
            if let key = secrets.key { return try KeyEncryptionKey(base64: key) }
            if let path = secrets.keyFile {
                PrivateFiles.warnIfShared(path, holding: "the key-encryption key", logger: logger)
                return try KeyEncryptionKey(contentsOfFile: path)
            }
        } catch let error as SecretSealerError {
            throw ConfigurationError(key: secrets.key != nil ? "secrets.key (HEARTH_SECRETS_KEY)" : "secrets.keyFile", problem: error.message)
        }
        guard mode == .development else { throw ConfigurationError(key: "secrets.keyFile", problem: Self.missingKeyProblem) }
        let path = developmentKeyFile
        do {
            if !FileManager.default.fileExists(atPath: path) {
                guard createInDevelopment else { return nil }
                try PrivateFiles.createDirectory(atPath: dataDirectory)
                let made = KeyEncryptionKey.generate()
                // Two processes at once: the first file written wins, and both read it below.
                if try PrivateFiles.createFile(atPath: path, contents: Data((made.base64 + "\n").utf8)) {
                    logger.notice("Made a key-encryption key for development mode", metadata: ["path": "\(path)", "keyID": "\(made.id)"])
                }
            }
            PrivateFiles.warnIfShared(path, holding: "the key-encryption key", logger: logger)
            return try KeyEncryptionKey(contentsOfFile: path)
        } catch let error as SecretSealerError {
            throw ConfigurationError(key: "secrets.keyFile", problem: "development mode's key file \(error.message)")
        } catch {
            throw ConfigurationError(
                key: "storage.dataDirectory",
                problem: "cannot write development mode's key file \(path): the data directory cannot be created or written "
                    + "(check --data-dir and its permissions)")
        }
    }
}
