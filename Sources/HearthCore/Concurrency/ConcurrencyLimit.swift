import Synchronization

/// At most `capacity` bodies at a time, for async code: the others suspend (no busy-waiting, no spawned tasks)
/// and are let in strictly first come, first served. With a capacity of 1 it is a mutual-exclusion lock (the
/// SQLite store's connection locks); with more, a budget (the password hashing of imported hashes).
///
/// A waiter whose task is cancelled before it is let in leaves the queue and throws `CancellationError`; once
/// a body runs, cancellation no longer affects the limit.
public final class ConcurrencyLimit: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var available: Int
        /// The queue: `waiters[head...]`, compacted once the taken part outgrows the rest.
        var waiters: [Waiter] = []
        var head = 0
        var nextWaiterID: UInt64 = 0

        var waitingCount: Int { waiters.count - head }

        mutating func takeFirst() -> Waiter? {
            guard head < waiters.count else { return nil }
            let first = waiters[head]
            head += 1
            if head >= 32, head * 2 >= waiters.count {
                waiters.removeFirst(head)
                head = 0
            }
            return first
        }

        mutating func remove(id: UInt64) -> Waiter? {
            guard let index = waiters[head...].firstIndex(where: { $0.id == id }) else { return nil }
            return waiters.remove(at: index)
        }
    }

    private enum Admission {
        case enter, cancelled, wait
    }

    public let capacity: Int
    private let state: Mutex<State>

    public init(capacity: Int) {
        precondition(capacity > 0, "a limit lets at least one body in")
        self.capacity = capacity
        self.state = Mutex(State(available: capacity))
    }

    /// How many tasks are waiting to enter (for metrics and tests).
    public var waitingCount: Int {
        state.withLock { $0.waitingCount }
    }

    /// Runs `body` once fewer than `capacity` others run.
    public func run<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await enter()
        defer { leave() }
        return try await body()
    }

    /// Enters at once if there is room (then nobody waits); returns whether it did. A successful call must be
    /// paired with ``leave()``.
    public func tryEnter() -> Bool {
        state.withLock { state in
            guard state.available > 0 else { return false }
            state.available -= 1
            return true
        }
    }

    /// Waits for room and enters. Every successful call must be paired with ``leave()``.
    public func enter() async throws {
        let id = state.withLock { state in
            state.nextWaiterID &+= 1
            return state.nextWaiterID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let admission: Admission = state.withLock { state in
                    if state.available > 0 {
                        state.available -= 1
                        return .enter
                    }
                    // Checked under the lock the cancellation handler also takes, so a cancellation is seen
                    // either here or by the handler, never missed.
                    if Task.isCancelled { return .cancelled }
                    state.waiters.append(Waiter(id: id, continuation: continuation))
                    return .wait
                }
                switch admission {
                case .enter: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .wait: break
                }
            }
        } onCancel: {
            state.withLock { $0.remove(id: id) }?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Hands the place to the first waiter, or frees it.
    public func leave() {
        let next: Waiter? = state.withLock { state in
            if let first = state.takeFirst() { return first }
            precondition(state.available < capacity, "ConcurrencyLimit.leave() without enter()")
            state.available += 1
            return nil
        }
        next?.continuation.resume()
    }
}
