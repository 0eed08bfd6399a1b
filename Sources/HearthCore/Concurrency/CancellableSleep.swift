import Dispatch
import Synchronization

/// A sleep whose timer goes the moment the sleeping task is cancelled.
///
/// `Task.sleep` on Linux does not take its timer back on cancellation: the sleep returns at once, but its timer and a
/// task of its own stay until the deadline. A timer that races work and is cancelled almost always (PostgreSQL's wait
/// for a connection, a provider's or a gateway's answer, a delivery queue's poll) so left one behind per race for the
/// whole of its limit: on PostgreSQL, 7.4 MB of 75,381 sleeps at the peak of one benchmark run (heaptrack;
/// BENCHMARKS.md, issue 30). This one is a dispatch timer that is cancelled with the task.
public enum CancellableSleep {
    private enum State {
        case starting
        case armed(Timer)
        case cancelled
    }

    /// A dispatch timer, which may be cancelled from any thread.
    private struct Timer: @unchecked Sendable {
        let source: any DispatchSourceTimer
    }

    /// Returns after `duration`; throws `CancellationError` as soon as the task is cancelled (at once if it already is).
    public static func sleep(for duration: Duration) async throws {
        try await sleep(until: ContinuousClock.now.advanced(by: duration))
    }

    /// Returns at `deadline`; throws `CancellationError` as soon as the task is cancelled (at once if it already is).
    public static func sleep(until deadline: ContinuousClock.Instant) async throws {
        let state = Mutex(State.starting)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let waiter = Mutex<CheckedContinuation<Void, any Error>?>(continuation)
                let resume = { @Sendable (result: Result<Void, any Error>) in
                    waiter.withLock { waiting in
                        defer { waiting = nil }
                        return waiting
                    }?.resume(with: result)
                }
                let timer = DispatchSource.makeTimerSource(queue: .global())
                timer.setEventHandler {
                    resume(.success(()))
                    timer.cancel()
                }
                timer.setCancelHandler { resume(.failure(CancellationError())) }
                timer.schedule(deadline: .now() + .nanoseconds(nanoseconds(ContinuousClock.now.duration(to: deadline))))
                let cancelledFirst = state.withLock { state in
                    if case .cancelled = state { return true }
                    state = .armed(Timer(source: timer))
                    return false
                }
                // Cancelled before it was armed: its cancel handler answers. (An inactive source must not be released.)
                if cancelledFirst { timer.cancel() }
                timer.activate()
            }
        } onCancel: {
            let timer = state.withLock { state -> Timer? in
                defer { state = .cancelled }
                if case .armed(let timer) = state { return timer }
                return nil
            }
            timer?.source.cancel()
        }
    }

    /// `duration` in whole nanoseconds: 0 for a deadline already past, at most a year.
    private static func nanoseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        let year: Int64 = 365 * 86_400
        guard seconds < year else { return Int(year) * 1_000_000_000 }
        return Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
    }
}
