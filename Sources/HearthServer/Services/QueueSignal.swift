import Logging
import ServiceLifecycle
import Synchronization

/// Wakes a queue's delivery service when a message is queued on this replica (others find it on their next poll).
final class QueueSignal: Sendable {
    private let state = Mutex<(pending: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    init() {}

    func wake() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.pending = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Returns when woken (or woken before this call) or after `timeout`, whichever is first. One waiter at a time.
    func wait(timeout: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.woken() }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
        }
    }

    private func woken() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state -> Bool in
                    if state.pending || Task.isCancelled {
                        state.pending = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }

    /// A delivery service's loop until graceful shutdown: `drainOnce` (which claims and tries what is due, returning
    /// how many) until nothing is due, then a wait for a wake-up or the next poll. A failing queue is logged, by
    /// `queue`'s name, and tried again at the next poll.
    func serve(pollInterval: Duration, logger: Logger, queue: String, drainOnce: @escaping @Sendable () async throws -> Int) async {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    while try await drainOnce() > 0 {}
                } catch is CancellationError {
                    return
                } catch {
                    logger.error("\(queue) unavailable", metadata: ["error": "\(String(describing: type(of: error)))"])
                }
                await self.wait(timeout: pollInterval)
            }
        }
    }
}
