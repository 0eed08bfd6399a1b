import Foundation
import HearthConsole
import HearthCore
import ServiceLifecycle

/// Deletes the console's sessions past their idle or absolute time-out once an hour (``ConsoleSignIn/pruneSessions()``),
/// so that the table keeps only live ones however many operators never sign out.
struct ConsoleSessionPruningService: Service {
    let services: HearthServices
    var interval: TimeInterval = 3_600

    func run() async throws {
        let chore = PeriodicChore(
            lockName: "console-session-pruning", title: "console session pruning", interval: interval, store: services.store, logger: services.logger)
        await chore.run { _ = try await runOnce() }
    }

    /// One pass. Returns how many sessions it deleted.
    @discardableResult
    func runOnce() async throws -> Int { try await services.console.signIn.pruneSessions() }
}
