import ArgumentParser

/// `hearth keys …`: the keys that protect stored secrets.
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Manage the key-encryption key that seals signing keys and provider secrets at rest.",
        subcommands: [KeysRewrapCommand.self])
}
