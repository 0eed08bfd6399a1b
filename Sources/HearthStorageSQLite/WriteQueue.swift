import NIOCore
import SQLKit
import Synchronization

/// One unit of work for the writer connection, from the moment its caller submits it to the moment
/// the caller hears how it ended.
///
/// The body stores its own typed result where its caller can find it (see
/// ``SQLiteTransactor/write(_:)``); the job carries only whether it succeeded, which is known only
/// after the `COMMIT` of the transaction it ran in.
final class WriteJob: Sendable {
    /// What a waiting caller is told: to run the next batch itself, or how its job ended.
    enum Signal: Sendable {
        case lead
        case finished(Result<Void, any Error>)
    }

    private enum Phase {
        case pending
        case waiting(CheckedContinuation<Signal, Never>)
        case signalled(Signal)
    }

    /// `true` for a body of exactly one statement, which may run in autocommit mode when it is
    /// alone in its batch.
    let isSingleStatement: Bool
    let body: @Sendable (any SQLDatabase) async throws -> Void
    private let phase = Mutex(Phase.pending)

    init(isSingleStatement: Bool, body: @escaping @Sendable (any SQLDatabase) async throws -> Void) {
        self.isSingleStatement = isSingleStatement
        self.body = body
    }

    /// Suspends until ``signal(_:)`` (returns at once when it came first). Called once per signal.
    func wait() async -> Signal {
        await withCheckedContinuation { continuation in
            let early: Signal? = phase.withLock { phase in
                if case .signalled(let signal) = phase {
                    phase = .pending
                    return signal
                }
                phase = .waiting(continuation)
                return nil
            }
            if let early { continuation.resume(returning: early) }
        }
    }

    /// Wakes the caller waiting in ``wait()``, or leaves the signal for its next call.
    func signal(_ signal: Signal) {
        let waiting: CheckedContinuation<Signal, Never>? = phase.withLock { phase in
            if case .waiting(let continuation) = phase {
                phase = .pending
                return continuation
            }
            phase = .signalled(signal)
            return nil
        }
        waiting?.resume(returning: signal)
    }
}

/// The writes waiting for the writer connection, and which of their callers runs them.
///
/// Group commit: the caller that finds nobody running writes becomes the *leader*. It takes every
/// job queued so far (its own first, up to ``maximumBatch``), runs them in ONE transaction, tells
/// each caller the outcome after the `COMMIT`, and hands the role to the first job that arrived
/// meanwhile, whose caller then does the same. Callers never run each other's jobs twice and never
/// wait for a leader that is not there: a queued job implies a leader.
///
/// One transaction for many jobs writes each touched page to the WAL once instead of once per job,
/// so under load the writer spends far less time in `pwrite`, checkpoints and `fsync`.
final class WriteQueue: Sendable {
    private struct State {
        var jobs = CircularBuffer<WriteJob>()
        var isLeading = false
    }

    /// The most jobs one transaction runs.
    let maximumBatch: Int
    private let state = Mutex(State())

    init(maximumBatch: Int) {
        precondition(maximumBatch >= 1)
        self.maximumBatch = maximumBatch
    }

    /// Queued jobs, those of a leader that has not taken its batch yet included (for tests).
    var count: Int {
        state.withLock { $0.jobs.count }
    }

    /// Queues `job`; returns `true` when its caller must lead now (nobody else was).
    func enqueue(_ job: WriteJob) -> Bool {
        state.withLock { state in
            state.jobs.append(job)
            guard !state.isLeading else { return false }
            state.isLeading = true
            return true
        }
    }

    /// The leader's batch: the first queued jobs (the leader's own is the first), removed from the queue.
    func takeBatch() -> [WriteJob] {
        state.withLock { state in
            let count = min(maximumBatch, state.jobs.count)
            var batch: [WriteJob] = []
            batch.reserveCapacity(count)
            for _ in 0..<count { batch.append(state.jobs.removeFirst()) }
            return batch
        }
    }

    /// Ends a leader's turn: puts `unrun` (jobs of its batch that never ran) back at the front and
    /// returns the job whose caller leads next, or `nil` when the queue is empty (nobody leads).
    func endTurn(returning unrun: [WriteJob] = []) -> WriteJob? {
        state.withLock { state in
            for job in unrun.reversed() { state.jobs.prepend(job) }
            return Self.nextLeader(&state)
        }
    }

    /// Ends the turn of a leader that will not run its batch: takes its own `job` out of the queue
    /// and returns the job whose caller leads next (see ``endTurn(returning:)``).
    func withdraw(_ job: WriteJob) -> WriteJob? {
        state.withLock { state in
            if let index = state.jobs.firstIndex(where: { $0 === job }) {
                state.jobs.remove(at: index)
            }
            return Self.nextLeader(&state)
        }
    }

    /// The first queued job, whose caller leads next; with none, nobody leads any more.
    private static func nextLeader(_ state: inout State) -> WriteJob? {
        guard let next = state.jobs.first else {
            state.isLeading = false
            return nil
        }
        return next
    }
}

/// Where a write's body leaves its typed result for its caller.
final class ResultSlot<T: Sendable>: Sendable {
    private let value = Mutex<T?>(nil)

    func store(_ newValue: T) {
        value.withLock { $0 = newValue }
    }

    func take() -> T? {
        value.withLock { $0.take() }
    }
}
