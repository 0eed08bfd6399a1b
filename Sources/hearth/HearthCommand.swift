import ArgumentParser
import Foundation
import HearthServer

@main
struct HearthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hearth",
        abstract: "A self-hosted sign-in service that speaks Firebase Authentication's REST API.",
        version: HearthVersion.current,
        subcommands: [
            ServeCommand.self, MigrateCommand.self, BackupCommand.self, MigrateDataCommand.self, KeysCommand.self, UsersCommand.self,
            AdminCommand.self, AuditCommand.self, TenantsCommand.self, ConsoleCommand.self,
        ],
        defaultSubcommand: ServeCommand.self
    )

    /// ArgumentParser's `main()`, except that an error a command does not handle itself is one line for a
    /// person (``StartupFailure``) and exit code 1, rather than `Error: ` and the error's type dump.
    static func main() async {
        var command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            exit(withError: error)
        }
        do {
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch let error where error is ExitCode || error is CleanExit || error is ValidationError {
            exit(withError: error)
        } catch let error where String(reflecting: type(of: error)).hasPrefix("ArgumentParser.") {
            // `--help` and `help COMMAND` end in ArgumentParser's own error from `run()`, for it to print.
            exit(withError: error)
        } catch {
            FileHandle.standardError.write(Data("hearth: \(StartupFailure.message(error))\n".utf8))
            exit(withError: ExitCode(1))
        }
    }
}
