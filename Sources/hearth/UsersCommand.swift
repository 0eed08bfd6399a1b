import ArgumentParser
import Foundation
import HearthComposition
import HearthCore
import HearthServer
import HearthStorage
import Logging

/// `hearth users …`: account administration from the command line, through the admin API of a running server
/// (`--server URL` with `--credentials FILE` or `--admin-token`) or of the database directly (see
/// ``AdminConnectionOptions``); `unlock` works on the database.
struct UsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "Administer accounts.",
        discussion: """
            Without --server the commands open the configured database (as `hearth serve` would; on SQLite stop the server             first). With --server URL they call that server's admin API with --credentials FILE (a service-account file             from `hearth admin create-key`), --admin-token TOKEN (one of admin.tokens), or, for a development-mode server,             nothing (Bearer owner). With --tenant ID they work on the users of that tenant (`hearth tenants list`).
            """,
        subcommands: [
            List.self, Get.self, Create.self, Update.self, Disable.self, Enable.self, Delete.self, Revoke.self, SetClaims.self,
            SecondFactors.self, Import.self, Export.self, UnlockCommand.self,
        ])

    /// `hearth users unlock --email … [--ip …]`: ends the password lockout's waits at once.
    struct UnlockCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unlock",
            abstract: "End the password lockout of an account (and of client addresses), clearing its failures.",
            discussion: """
                On SQLite, stop the server first: a running server holds the file exclusively. On PostgreSQL the \
                unlock takes effect on every replica at once.
                """)

        @OptionGroup var options: CommonOptions
        @Option(name: .long, help: "The account's e-mail address.") var email: String?
        @Option(name: .long, help: "A client address whose failures to clear (repeatable).") var ip: [String] = []

        func validate() throws {
            guard email != nil || !ip.isEmpty else { throw ValidationError("give --email, --ip or both") }
        }

        func run() async throws {
            let configuration = try await options.configurationOrExit()
            var subjects: [String] = []
            if let email {
                guard let subject = LockoutSubjects.account(email: email) else {
                    FileHandle.standardError.write(Data("hearth: --email: not an e-mail address\n".utf8))
                    throw ExitCode(2)
                }
                subjects.append(subject)
            }
            for address in ip {
                guard let subject = LockoutSubjects.address(address) else {
                    FileHandle.standardError.write(Data("hearth: --ip: \(address) is not an IP address\n".utf8))
                    throw ExitCode(2)
                }
                subjects.append(subject)
            }
            let store = try await StartupFailure.opening(configuration) {
                try await HearthServices.openStore(configuration: configuration, logger: Logger(label: "hearth.users"))
            }
            do {
                let cleared = try await store.deleteLoginFailures(subjects)
                try await store.close()
                print(cleared == 0 ? "nothing to unlock" : "unlocked (\(cleared) record(s) cleared)")
            } catch {
                try? await store.close()
                FileHandle.standardError.write(Data("hearth: \(StartupFailure.message(error, configuration: configuration))\n".utf8))
                throw ExitCode(1)
            }
        }

    }
}
