import NIOCore
import Synchronization

/// A mutual-exclusion lock for async code: waiters suspend (no busy-waiting, no spawned tasks) and
/// are let in strictly first come, first served.
///
/// A waiter whose task is cancelled before it gets the lock leaves the queue and throws
/// `CancellationError`; once a task holds the lock, cancellation no longer affects it.
final class AsyncMutex: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var isLocked = false
        var waiters = CircularBuffer<Waiter>()
        var nextWaiterID: UInt64 = 0
    }

    private enum Admission {
        case enter, cancelled, wait
    }

    private let state = Mutex(State())

    init() {}

    /// How many tasks are waiting for the lock (for diagnostics and tests).
    var waitingCount: Int {
        state.withLock { $0.waiters.count }
    }

    /// Runs `body` while holding the lock.
    func withLock<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await lock()
        defer { unlock() }
        return try await body()
    }

    /// Takes the lock if it is free (then nobody waits for it); returns whether it did. A successful
    /// call must be paired with ``unlock()``.
    func tryLock() -> Bool {
        state.withLock { state in
            guard !state.isLocked else { return false }
            state.isLocked = true
            return true
        }
    }

    /// Waits until the lock is free and takes it. Every successful call must be paired with ``unlock()``.
    func lock() async throws {
        let id = state.withLock { state in
            state.nextWaiterID &+= 1
            return state.nextWaiterID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let admission: Admission = state.withLock { state in
                    if !state.isLocked {
                        state.isLocked = true
                        return .enter
                    }
                    // Checked under the lock the cancellation handler also takes, so a cancellation
                    // is seen either here or by the handler, never missed.
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
            let waiter: Waiter? = state.withLock { state in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Releases the lock, handing it directly to the longest waiter if there is one.
    func unlock() {
        let next: Waiter? = state.withLock { state in
            precondition(state.isLocked, "AsyncMutex.unlock() without lock()")
            if state.waiters.isEmpty {
                state.isLocked = false
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.continuation.resume()
    }
}
