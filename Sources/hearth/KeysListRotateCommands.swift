import ArgumentParser
import Foundation
import HearthComposition
import HearthCore
import HearthServer
import HearthTokens
import Logging

/// `hearth keys list`: the token-signing keys in the database, with what each does now.
struct KeysListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the token-signing keys: when each was made, signs, retires and stops being published.",
        discussion: "Works on the database directly: on SQLite, stop the server first.")

    @OptionGroup var options: CommonOptions

    func run() async throws {
        let configuration = try await options.configurationOrExit()
        let services = try await StartupFailure.opening(configuration) {
            try await HearthServices.open(configuration: configuration, httpClient: Composition.httpClient, logger: Logger(label: "hearth.keys"))
        }
        defer { Task { try? await services.store.close() } }
        let now = Date()
        let keys = try await services.store.signingKeys().sorted { $0.activatesAt < $1.activatesAt }
        print("kid                                       state      activates             retires               published until")
        for key in keys {
            let state =
                key.activatesAt > now ? "next" : key.retiresAt > now ? "signing" : key.expiresAt > now ? "retired" : "expired"
            print(
                [
                    key.kid.padding(toLength: 41, withPad: " ", startingAt: 0), state.padding(toLength: 10, withPad: " ", startingAt: 0),
                    Self.text(key.activatesAt), Self.text(key.retiresAt), Self.text(key.expiresAt),
                ].joined(separator: " "))
        }
        try await services.store.close()
    }

    static func text(_ date: Date) -> String {
        date.timeIntervalSince1970 >= 32_503_680_000 ? "-                    " : ISO8601DateFormatter().string(from: date) + " "
    }
}

/// `hearth keys rotate`: a new signing key now, rather than when the rotation period ends.
struct KeysRotateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotate", abstract: "Make a new token-signing key now (published at once, signing an hour later).",
        discussion: """
            The new key is published at once and signs after the publish lead (an hour), so verifiers that cache the \
            key set learn it first; the current key stops signing then and stays published until the tokens and \
            session cookies it signed have expired. Works on the database directly: on SQLite, stop the server \
            first; on PostgreSQL every replica picks the key up at its next check.
            """)

    @OptionGroup var options: CommonOptions

    func run() async throws {
        let configuration = try await options.configurationOrExit()
        let services = try await StartupFailure.opening(configuration) {
            try await HearthServices.open(configuration: configuration, httpClient: Composition.httpClient, logger: Logger(label: "hearth.keys"))
        }
        do {
            if let kid = try await services.keyRing.rotateNow() {
                let key = try await services.store.signingKeys().first { $0.kid == kid }
                print("made key \(kid); it signs from \(key.map { KeysListCommand.text($0.activatesAt) } ?? "after the publish lead")")
            } else {
                print("a new key is already waiting for its turn; nothing made (see hearth keys list)")
            }
            try await services.store.close()
        } catch {
            try? await services.store.close()
            FileHandle.standardError.write(Data("hearth: \(StartupFailure.message(error, configuration: configuration))\n".utf8))
            throw ExitCode(1)
        }
    }
}
