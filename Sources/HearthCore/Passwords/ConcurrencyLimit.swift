/// At most `capacity` bodies at a time, for async code: the others suspend (no busy-waiting, no spawned tasks)
/// and are let in first come, first served.
///
/// A waiter whose task is cancelled before it is let in leaves the queue and throws `CancellationError`; once
/// a body runs, cancellation no longer affects the limit.
final class ConcurrencyLimit: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var available: Int
        var waiters: [Waiter] = []
        var nextWaiterID: UInt64 = 0
    }

    private enum Admission {
        case enter, cancelled, wait
    }

    let capacity: Int
    private let state: LockedBox<State>

    init(capacity: Int) {
        precondition(capacity > 0, "a limit lets at least one body in")
        self.capacity = capacity
        self.state = LockedBox(State(available: capacity))
    }

    /// Runs `body` once fewer than `capacity` others run.
    func run<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await enter()
        defer { leave() }
        return try await body()
    }

    private func enter() async throws {
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
            let waiter: Waiter? = state.withLock { state in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Hands the place to the first waiter, or frees it.
    private func leave() {
        let next: Waiter? = state.withLock { state in
            guard !state.waiters.isEmpty else {
                state.available += 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.continuation.resume()
    }
}
