import HearthCore
import Synchronization

/// Counts units of work in flight so ``PostgresTransactor/close()`` can let them finish, and refuses
/// new ones once closing has begun.
final class WorkTracker: Sendable {
    private struct State {
        var active = 0
        var isClosed = false
    }

    private let state = Mutex(State())

    /// Units of work running now.
    var active: Int { state.withLock { $0.active } }

    /// Runs `body` as one unit of work; throws `HearthError(.storageUnavailable)` once closed.
    func run<T>(_ body: () async throws -> T) async throws -> T {
        let admitted = state.withLock { state in
            guard !state.isClosed else { return false }
            state.active += 1
            return true
        }
        guard admitted else {
            throw HearthError(.storageUnavailable, reason: "the PostgreSQL store is closed")
        }
        defer { state.withLock { $0.active -= 1 } }
        return try await body()
    }

    /// Refuses new work from now on. Returns `false` when it was already closed.
    func close() -> Bool {
        state.withLock { state in
            defer { state.isClosed = true }
            return !state.isClosed
        }
    }
}
