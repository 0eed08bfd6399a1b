import ArgumentParser

/// `hearth keys …`: the token-signing keys, and the key that protects stored secrets.
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "List and rotate the token-signing keys; change the key-encryption key that seals secrets at rest.",
        subcommands: [KeysListCommand.self, KeysRotateCommand.self, KeysRewrapCommand.self])
}
