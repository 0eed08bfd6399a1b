import ArgumentParser
import HearthServer

@main
struct HearthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hearth",
        abstract: "A self-hosted sign-in service that speaks Firebase Authentication's REST API.",
        version: HearthVersion.current,
        subcommands: [ServeCommand.self, MigrateCommand.self, MigrateDataCommand.self, KeysCommand.self, UsersCommand.self],
        defaultSubcommand: ServeCommand.self
    )
}
