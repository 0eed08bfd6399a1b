import NIOCore
import NIOPosix
import Synchronization

/// A sleep on an event loop's timer, which goes the moment the sleeping task is cancelled.
///
/// `Task.sleep` does not take its timer back on cancellation: the sleep returns at once, but its timer and a task of
/// its own stay until the deadline. The lease timer of ``PostgresTransactor`` races every query's wait for a
/// connection and is cancelled almost always, so it left 5 s of them at the queries' rate: 7.4 MB of 75,381 sleeps
/// in one benchmark run's peak (heaptrack; BENCHMARKS.md, issue 30). A cancelled `LoopTimer` sleep is gone from its
/// loop at once.
enum LoopTimer {
    private enum State {
        case starting
        case scheduled(Scheduled<Void>)
        case cancelled
    }

    /// Returns at `deadline`; throws `CancellationError` as soon as the task is cancelled (at once if it already is).
    static func sleep(
        until deadline: ContinuousClock.Instant, on eventLoop: any EventLoop = MultiThreadedEventLoopGroup.singleton.any()
    ) async throws {
        let state = Mutex(State.starting)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let remaining = ContinuousClock.now.duration(to: deadline)
                let timer = eventLoop.scheduleTask(in: .nanoseconds(max(0, Self.nanoseconds(remaining)))) {}
                timer.futureResult.whenComplete { result in
                    continuation.resume(with: result.mapError { _ in CancellationError() })
                }
                let cancelledFirst = state.withLock { state in
                    if case .cancelled = state { return true }
                    state = .scheduled(timer)
                    return false
                }
                if cancelledFirst { timer.cancel() }
            }
        } onCancel: {
            let timer = state.withLock { state -> Scheduled<Void>? in
                defer { state = .cancelled }
                if case .scheduled(let timer) = state { return timer }
                return nil
            }
            timer?.cancel()
        }
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        guard seconds < Int64.max / 1_000_000_000 else { return .max }
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
