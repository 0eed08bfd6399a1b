import HearthCore
import Logging
import ServiceLifecycle

extension QueueSignal {
    /// A delivery service's loop until graceful shutdown: `drainOnce` (which claims and tries what is due, returning
    /// how many) until nothing is due, then a wait for a wake-up or the next poll. A failing queue is logged, by
    /// `queue`'s name, and tried again at the next poll; a drain that shutdown stops is not a failure.
    func serve(pollInterval: Duration, logger: Logger, queue: String, drainOnce: @escaping @Sendable () async throws -> Int) async {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    while try await drainOnce() > 0 {}
                } catch {
                    guard !endedByCancellation(error) else { return }
                    logger.error("\(queue) unavailable", metadata: ["error": "\(String(describing: type(of: error)))"])
                }
                await self.wait(timeout: pollInterval)
            }
        }
    }
}
