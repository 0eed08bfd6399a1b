import Dispatch
import Synchronization

/// A sleep whose timer goes the moment the sleeping task is cancelled.
///
/// `Task.sleep` on Linux does not take its timer back on cancellation: the sleep returns at once, but its timer and a
/// task of its own stay until the deadline. A timer that races work and is cancelled almost always (PostgreSQL's wait
/// for a connection, a provider's or a gateway's answer, a delivery queue's poll) so left one behind per race for the
/// whole of its limit: on PostgreSQL, 7.4 MB of 75,381 sleeps at the peak of one benchmark run (heaptrack;
/// BENCHMARKS.md, issue 30). Here the timer is cancelled with the task. Where it runs is the caller's choice
/// (``SleepTimers``): a dispatch timer by default; PostgreSQL's lease timer, which races every query, uses an event
/// loop's, which costs less per sleep.
public enum CancellableSleep {
    private struct State {
        var continuation: CheckedContinuation<Void, any Error>?
        var timer: (any SleepTimer)?
        var cancelled = false
    }

    /// Returns after `duration`; throws `CancellationError` as soon as the task is cancelled (at once if it already is).
    public static func sleep(for duration: Duration, on timers: any SleepTimers = DispatchSleepTimers()) async throws {
        try await sleep(until: ContinuousClock.now.advanced(by: duration), on: timers)
    }

    /// Returns at `deadline`; throws `CancellationError` as soon as the task is cancelled (at once if it already is).
    public static func sleep(until deadline: ContinuousClock.Instant, on timers: any SleepTimers = DispatchSleepTimers()) async throws {
        let state = Mutex(State())
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let waiting = state.withLock { state in
                    guard !state.cancelled else { return false }
                    state.continuation = continuation
                    return true
                }
                guard waiting else { return continuation.resume(throwing: CancellationError()) }
                let timer = timers.schedule(after: max(.zero, ContinuousClock.now.duration(to: deadline))) {
                    state.withLock { state in
                        defer { state.continuation = nil }
                        return state.continuation
                    }?.resume()
                }
                let cancelledMeanwhile = state.withLock { state in
                    guard !state.cancelled else { return true }
                    state.timer = timer
                    return false
                }
                if cancelledMeanwhile { timer.cancel() }
            }
        } onCancel: {
            let (continuation, timer) = state.withLock { state in
                state.cancelled = true
                defer { (state.continuation, state.timer) = (nil, nil) }
                return (state.continuation, state.timer)
            }
            timer?.cancel()
            continuation?.resume(throwing: CancellationError())
        }
    }
}

/// Where ``CancellableSleep`` arms its timers.
public protocol SleepTimers: Sendable {
    /// Calls `fire` once after `delay` (at least zero), unless the timer returned is cancelled first.
    func schedule(after delay: Duration, _ fire: @escaping @Sendable () -> Void) -> any SleepTimer
}

/// A timer armed by ``SleepTimers``.
public protocol SleepTimer: Sendable {
    /// Disarms the timer, releasing it at once; nothing if it fired.
    func cancel()
}

/// Dispatch timers on the global queue.
public struct DispatchSleepTimers: SleepTimers {
    /// A dispatch timer, which may be cancelled from any thread.
    private struct Timer: SleepTimer, @unchecked Sendable {
        let source: any DispatchSourceTimer

        func cancel() { source.cancel() }
    }

    public init() {}

    public func schedule(after delay: Duration, _ fire: @escaping @Sendable () -> Void) -> any SleepTimer {
        let source = DispatchSource.makeTimerSource(queue: .global())
        source.setEventHandler {
            fire()
            source.cancel()  // releases the handler, which holds the source
        }
        source.schedule(deadline: .now() + .nanoseconds(Self.nanoseconds(delay)))
        source.activate()
        return Timer(source: source)
    }

    /// `duration` in whole nanoseconds, at most a year.
    private static func nanoseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        let year: Int64 = 365 * 86_400
        guard seconds < year else { return Int(year) * 1_000_000_000 }
        return Int(max(seconds, 0)) * 1_000_000_000 + Int(max(attoseconds, 0) / 1_000_000_000)
    }
}
