import ArgumentParser
import Foundation
import HearthConfiguration
import HearthCore
import HearthOTP
import HearthStorage
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `hearth console add-operator|list-operators|remove-operator`: the people who sign in to `/console`, kept apart from
/// the project's users. Works on the database directly, also while servers run.
struct ConsoleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "console",
        abstract: "Manage the console's operators: who signs in to /console, with a password and an authenticator app.",
        discussion: """
            Works on the configured database directly, also while servers run. An operator signs in with their e-mail, \
            password and a code of their authenticator app (or a recovery code, each usable once). Roles: viewer reads, \
            editor also changes users, owner also manages settings and operators.
            """,
        subcommands: [AddOperator.self, ListOperators.self, RemoveOperator.self])

    /// The operators' use case on `store`, with the server's password hashing, TOTP and key-encryption key.
    static func operators(_ configuration: ServerConfiguration, store: SQLStore) throws -> ConsoleOperators {
        let sealer = try configuration.keyEncryptionKey(logger: Logger(label: "hearth.console")).map(SecretSealer.init(key:))
        return ConsoleOperators(
            store: store, passwords: CommandLinePasswords(hasher: PasswordHasher(logN: configuration.scryptLogN)),
            totp: TOTPCodes(algorithm: HummingbirdTOTP()), secrets: OperatorSecrets(sealer: sealer), audit: StoreAudit(store: store),
            clock: .system)
    }

    /// How the command names itself in audit events.
    static let actorID = "command-line"

    struct AddOperator: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add-operator",
            abstract: "Add an operator; prints their authenticator secret and recovery codes once.",
            discussion: """
                Asks for the password twice (at least 12 characters), or reads one line from standard input with \
                --password-stdin. Prints the otpauth:// URI for the authenticator app (and its secret to type in) and ten \
                recovery codes: they are shown only now, and the database keeps only their hashes.
                """)

        @OptionGroup var options: CommonOptions
        @Argument(help: "The operator's e-mail address.") var email: String
        @Option(name: .long, help: "viewer, editor or owner.") var role: String
        @Flag(name: .customLong("password-stdin"), help: "Read the password from the first line of standard input.") var passwordStdin = false

        func validate() throws {
            guard OperatorRecord.Role(rawValue: role) != nil else { throw ValidationError("--role: use viewer, editor or owner") }
            guard EmailAddress.normalize(email) != nil else { throw ValidationError("\(email) is not an e-mail address") }
        }

        func run() async throws {
            let password = try readPassword()
            let configuration = try await options.configurationOrExit()
            let role = OperatorRecord.Role(rawValue: role) ?? .viewer
            let email = self.email
            try await AdminCommand.withStore(configuration) { store in
                let added: ConsoleOperators.Added
                do {
                    added = try await ConsoleCommand.operators(configuration, store: store).add(
                        email: email, role: role, password: password, issuer: "Hearth console (\(configuration.projectID))",
                        actorID: ConsoleCommand.actorID)
                } catch let error as HearthError where [.emailExists, .weakPassword, .invalidEmail].contains(error.code) {
                    let message =
                        switch error.code {
                        case .emailExists: "there is an operator with this e-mail already"
                        case .weakPassword: "the password needs at least \(ConsoleOperators.minimumPasswordLength) characters"
                        default: "not an e-mail address"
                        }
                    FileHandle.standardError.write(Data("hearth: \(message)\n".utf8))
                    throw ExitCode(2)
                }
                print(
                    """
                    added operator \(added.record.email) (\(added.record.role.rawValue))

                    Authenticator app: open or scan this URI, or type the secret in:
                      \(added.authenticatorURL)
                      secret: \(added.sharedSecretKey)

                    Recovery codes (each works once in place of a code; shown only now, keep them safe):
                    \(added.recoveryCodes.map { "  " + $0 }.joined(separator: "\n"))
                    """)
            }
        }

        /// The password from standard input (`--password-stdin`) or typed twice at the terminal.
        func readPassword() throws -> String {
            if passwordStdin {
                guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                    FileHandle.standardError.write(Data("hearth: --password-stdin: standard input holds no password\n".utf8))
                    throw ExitCode(2)
                }
                return line
            }
            guard isatty(STDIN_FILENO) == 1 else {
                FileHandle.standardError.write(Data("hearth: no terminal to ask for the password: use --password-stdin\n".utf8))
                throw ExitCode(2)
            }
            let first = String(cString: getpass("Password for \(email): "))
            let second = String(cString: getpass("The same password again: "))
            guard first == second else {
                FileHandle.standardError.write(Data("hearth: the two passwords differ\n".utf8))
                throw ExitCode(2)
            }
            return first
        }
    }

    struct ListOperators: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list-operators", abstract: "List the operators: e-mail, role, when added, last sign-in, recovery codes left.")
        @OptionGroup var options: CommonOptions

        func run() async throws {
            let configuration = try await options.configurationOrExit()
            let operators = try await AdminCommand.withStore(configuration) { store in try await store.consoleOperators() }
            for record in operators {
                let added = record.createdAt.formatted(Date.ISO8601FormatStyle())
                let last = record.lastSignInAt.map { $0.formatted(Date.ISO8601FormatStyle()) } ?? "never"
                print(
                    "\(record.email)\t\(record.role.rawValue)\tadded \(added)\tlast sign-in \(last)\t\(record.recoveryCodeHashes.count) recovery codes"
                )
            }
            FileHandle.standardError.write(Data("\(operators.count) operator(s)\n".utf8))
        }
    }

    struct RemoveOperator: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove-operator", abstract: "Remove an operator and end their console sessions at once.")
        @OptionGroup var options: CommonOptions
        @Argument(help: "The operator's e-mail address.") var email: String

        func run() async throws {
            let configuration = try await options.configurationOrExit()
            let email = self.email
            let removed = try await AdminCommand.withStore(configuration) { store in
                try await ConsoleCommand.operators(configuration, store: store).remove(email: email, actorID: ConsoleCommand.actorID)
            }
            guard removed else {
                FileHandle.standardError.write(Data("hearth: there is no operator \(email)\n".utf8))
                throw ExitCode(1)
            }
            print("removed operator \(EmailAddress.normalize(email) ?? email)")
        }
    }
}

/// Password hashing for the command: the server's hasher, on this thread (one hash, then the command ends).
struct CommandLinePasswords: PasswordChecking {
    let hasher: PasswordHasher

    func hash(_ password: String) async throws -> String { try hasher.hash(password) }
    func verify(_ password: String, against hash: String) async throws -> Bool { hasher.verify(password, against: hash) }
    func verifyDecoy(_ password: String) async throws {}
    func needsRehash(_ hash: String) -> Bool { hasher.needsRehash(hash) }
}

/// Audit events straight into the store.
struct StoreAudit: AuditRecording {
    let store: SQLStore

    func record(_ event: AuditEvent) async {
        try? await store.insertAuditEvent(event)
    }
}
