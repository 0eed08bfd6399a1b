import HearthCore
import NIOCore
import NIOPosix

/// ``CancellableSleep``'s timers on an event loop: the lease timer races every query, and a loop's scheduled task
/// costs less to arm and cancel than a dispatch timer (PostgreSQL sign-ups, BENCHMARKS.md, issue 30).
struct EventLoopSleepTimers: SleepTimers {
    private struct Timer: SleepTimer {
        let scheduled: Scheduled<Void>

        func cancel() { scheduled.cancel() }
    }

    let eventLoop: any EventLoop

    init(eventLoop: any EventLoop = MultiThreadedEventLoopGroup.singleton.any()) {
        self.eventLoop = eventLoop
    }

    func schedule(after delay: Duration, _ fire: @escaping @Sendable () -> Void) -> any SleepTimer {
        let (seconds, attoseconds) = delay.components
        let nanoseconds = seconds >= Int64.max / 1_000_000_000 ? Int64.max : seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        return Timer(scheduled: eventLoop.scheduleTask(in: .nanoseconds(max(0, nanoseconds)), fire))
    }
}
