import Foundation
import HearthCore
import Logging
import ServiceLifecycle

/// The loop the server's periodic chores share (clean-up, pruning): every `interval` seconds one pass, on one
/// replica at a time (the others skip that round under the leader lock `lockName`); a failed pass is logged by
/// error type and the loop goes on; graceful shutdown ends it (a pass it stops fails in its own ways, not logged).
struct PeriodicChore: Sendable {
    /// The leader lock's name, e.g. `anonymous-cleanup`.
    let lockName: String
    /// What the chore is, in the log line of a failed pass: "anonymous clean-up".
    let title: String
    let interval: TimeInterval
    let store: any HearthStore
    let logger: Logger

    func run(_ pass: @escaping @Sendable () async throws -> Void) async {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    _ = try await store.withLeaderLock(lockName) { try await pass() }
                } catch {
                    guard !endedByCancellation(error) else { return }
                    logger.error("\(title) failed", metadata: ["error": "\(String(describing: type(of: error)))"])
                }
                try await Task.sleep(for: .seconds(interval))
            }
        }
    }
}
