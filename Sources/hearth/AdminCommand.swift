import ArgumentParser
import Foundation
import HearthComposition
import HearthConfiguration
import HearthCore
import HearthServer
import HearthStorage
import HearthTokens
import Logging

/// `hearth admin …`: the service-account keys that authenticate administrators outside development mode.
struct AdminCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin",
        abstract: "Manage service-account keys for the admin API (Firebase Admin SDKs, google-auth).",
        discussion: """
            Works on the database directly, also while servers run: every replica sees a new key at once and refuses a \
            deleted one's access tokens at once. See docs/admin-credentials.md.
            """,
        subcommands: [CreateKey.self, ListKeys.self, DeleteKey.self])

    /// The configured store, or one line naming the problem and exit code 1.
    static func openStore(_ configuration: ServerConfiguration) async throws -> SQLStore {
        try await StartupFailure.opening(configuration) {
            try await HearthServices.openStore(configuration: configuration, logger: Logger(label: "hearth.admin"))
        }
    }

    /// Runs `body` on the store and closes it; a failure is one line and exit code 1.
    static func withStore<T>(_ configuration: ServerConfiguration, _ body: (SQLStore) async throws -> T) async throws -> T {
        let store = try await openStore(configuration)
        do {
            let result = try await body(store)
            try await store.close()
            return result
        } catch let exit as ExitCode {
            try? await store.close()
            throw exit
        } catch {
            try? await store.close()
            FileHandle.standardError.write(Data("hearth: \(StartupFailure.message(error, configuration: configuration))\n".utf8))
            throw ExitCode(1)
        }
    }

    /// `hearth admin create-key [--name NAME] [--tenant TENANT] [--out FILE]`.
    struct CreateKey: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create-key",
            abstract: "Make a service-account key and write its JSON file (mode 0600).",
            discussion: """
                Stores the public key in the database and writes the private key only to the file, in the format Google's \
                auth libraries read (GOOGLE_APPLICATION_CREDENTIALS). Its token_uri is <server.publicURL>/oauth2/v4/token; \
                its client_email is NAME@<project>.iam.hearth.local. The key works for this project alone; with --tenant, \
                for that tenant's users and settings alone.
                """)

        @OptionGroup var options: CommonOptions
        @Option(name: .long, help: "The service account: 6-30 lower-case letters, digits and dashes.") var name = "hearth-admin"
        @Option(name: .long, help: "Where to write the file (default: ./NAME-<key id>.json); never overwritten.") var out: String?
        @Option(name: .long, help: "The one tenant the key administers (default: the whole project).") var tenant: String?

        func validate() throws {
            guard ServiceAccountKeys.isValidName(name) else {
                throw ValidationError("--name: use 6 to 30 lower-case letters, digits and dashes, starting with a letter")
            }
            if let tenant, !TenantRecord.isValidID(tenant) { throw ValidationError("--tenant: not a tenant id") }
        }

        func run() async throws {
            umask(0o077)
            let configuration = try await options.configurationOrExit()
            if configuration.publicURL == nil, ["0.0.0.0", "::", "[::]"].contains(configuration.host) {
                FileHandle.standardError.write(
                    Data("hearth: set server.publicURL (where clients reach this server): the file's token_uri lies under it\n".utf8))
                throw ExitCode(2)
            }
            if let out, FileManager.default.fileExists(atPath: out) {
                FileHandle.standardError.write(Data("hearth: --out: \(out) exists; choose a new file\n".utf8))
                throw ExitCode(2)
            }
            try await AdminCommand.withStore(configuration) { store in
                if let tenant, try await store.tenant(id: tenant) == nil {
                    FileHandle.standardError.write(Data("hearth: --tenant: there is no tenant \(tenant)\n".utf8))
                    throw ExitCode(2)
                }
                let keys = ServiceAccountKeys(store: store)
                let created = try await keys.create(
                    name: name, projectID: configuration.projectID, tenantID: tenant, baseURL: configuration.publicBaseURL, now: Date())
                let path = out ?? "\(name)-\(created.key.keyID.prefix(12)).json"
                let written: Bool
                do {
                    written = try PrivateFiles.createFile(atPath: path, contents: created.file)
                } catch {
                    _ = try? await keys.delete(id: created.key.keyID)
                    throw error
                }
                guard written else {
                    _ = try await keys.delete(id: created.key.keyID)
                    FileHandle.standardError.write(Data("hearth: \(path) exists; nothing was created\n".utf8))
                    throw ExitCode(1)
                }
                print(
                    """
                    created key \(created.key.keyID) for \(created.key.clientEmail)\(tenant.map { " (tenant \($0) only)" } ?? "")
                    wrote \(path) (mode 0600; it holds the only copy of the private key)
                    token_uri: \(created.key.tokenURI)
                    """)
            }
        }
    }

    /// `hearth admin list-keys`.
    struct ListKeys: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list-keys", abstract: "List the service-account keys (their ids, accounts and creation times).")

        @OptionGroup var options: CommonOptions

        func run() async throws {
            let configuration = try await options.configurationOrExit()
            let keys = try await AdminCommand.withStore(configuration) { try await ServiceAccountKeys(store: $0).all() }
            guard !keys.isEmpty else {
                print("no service-account keys (make one with hearth admin create-key)")
                return
            }
            let formatter = ISO8601DateFormatter()
            for key in keys {
                print("\(key.keyID)  \(key.clientEmail)  \(formatter.string(from: key.createdAt))")
            }
        }
    }

    /// `hearth admin delete-key KEY_ID`.
    struct DeleteKey: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete-key",
            abstract: "Delete a service-account key: it signs nothing more, and its access tokens stop working at once.")

        @OptionGroup var options: CommonOptions
        @Argument(help: "The key id (private_key_id in the file, as list-keys shows it).") var keyID: String

        func run() async throws {
            let configuration = try await options.configurationOrExit()
            let deleted = try await AdminCommand.withStore(configuration) { try await ServiceAccountKeys(store: $0).delete(id: keyID) }
            guard deleted else {
                FileHandle.standardError.write(Data("hearth: no service-account key \(keyID.prefix(64))\n".utf8))
                throw ExitCode(1)
            }
            print("deleted key \(keyID)")
        }
    }
}
