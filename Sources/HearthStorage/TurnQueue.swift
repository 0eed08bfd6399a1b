import NIOCore
import Synchronization

/// One caller's unit of work in a ``TurnQueue``, from the moment it is queued to the moment its caller hears how it
/// ended.
///
/// The job carries only whether it succeeded: a body that has a typed result leaves it where its caller can find it
/// (a ``ResultSlot``), since that is known only after the batch it ran in ended (for a write, after the `COMMIT`).
public final class QueuedJob<Work: Sendable>: Sendable {
    /// What a waiting caller is told: to run the next batch itself, or how its job ended.
    public enum Signal: Sendable {
        case lead
        case finished(Result<Void, any Error>)
    }

    private enum Phase {
        case pending
        case waiting(CheckedContinuation<Signal, Never>)
        case signalled(Signal)
    }

    public let work: Work
    private let phase = Mutex(Phase.pending)

    public init(_ work: Work) {
        self.work = work
    }

    /// Suspends until ``signal(_:)`` (returns at once when it came first). Called once per signal.
    public func wait() async -> Signal {
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
    public func signal(_ signal: Signal) {
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

/// Jobs waiting for one resource (the SQLite writer, a batched insert), and which of their callers runs them.
///
/// The caller that finds nobody running jobs becomes the *leader*. It takes every job queued so far (its own first,
/// up to ``maximumBatch``), runs them together, tells each caller the outcome, and hands the role to the first job
/// that arrived meanwhile, whose caller then does the same. Callers never run each other's jobs twice and never wait
/// for a leader that is not there: a queued job implies a leader. Under load, many callers' work is done for the
/// price of one (one transaction, one statement), and a lone caller runs its job at once.
public final class TurnQueue<Work: Sendable>: Sendable {
    public typealias Job = QueuedJob<Work>

    private struct State {
        var jobs = CircularBuffer<Job>()
        var isLeading = false
    }

    /// The most jobs one batch runs.
    public let maximumBatch: Int
    private let state = Mutex(State())

    public init(maximumBatch: Int) {
        precondition(maximumBatch >= 1)
        self.maximumBatch = maximumBatch
    }

    /// Queued jobs, those of a leader that has not taken its batch yet included (for tests and metrics).
    public var count: Int {
        state.withLock { $0.jobs.count }
    }

    /// Queues `job`; returns `true` when its caller must lead now (nobody else was).
    public func enqueue(_ job: Job) -> Bool {
        state.withLock { state in
            state.jobs.append(job)
            guard !state.isLeading else { return false }
            state.isLeading = true
            return true
        }
    }

    /// The leader's batch: the first queued jobs (the leader's own is the first), removed from the queue.
    public func takeBatch() -> [Job] {
        state.withLock { state in
            let count = min(maximumBatch, state.jobs.count)
            var batch: [Job] = []
            batch.reserveCapacity(count)
            for _ in 0..<count { batch.append(state.jobs.removeFirst()) }
            return batch
        }
    }

    /// Ends a leader's turn: puts `unrun` (jobs of its batch that never ran) back at the front and
    /// returns the job whose caller leads next, or `nil` when the queue is empty (nobody leads).
    public func endTurn(returning unrun: [Job] = []) -> Job? {
        state.withLock { state in
            for job in unrun.reversed() { state.jobs.prepend(job) }
            return Self.nextLeader(&state)
        }
    }

    /// Ends the turn of a leader that will not run its batch: takes its own `job` out of the queue
    /// and returns the job whose caller leads next (see ``endTurn(returning:)``).
    public func withdraw(_ job: Job) -> Job? {
        state.withLock { state in
            if let index = state.jobs.firstIndex(where: { $0 === job }) {
                state.jobs.remove(at: index)
            }
            return Self.nextLeader(&state)
        }
    }

    /// Queues `work` and returns once it ran, in a batch of the jobs queued with it: `run` is called by whichever
    /// caller leads, with the batch's work in the order it was queued, and its outcome is every job's. For a batch
    /// that succeeds or fails as one (a single statement); ``SQLiteTransactor`` drives the queue itself, since each
    /// of its writes can fail alone.
    ///
    /// `run` runs in a task of its own, so that the leader's cancellation (its client went away) does not fail the
    /// other callers' work.
    public func submit(_ work: Work, run: @escaping @Sendable ([Work]) async throws -> Void) async throws {
        let job = Job(work)
        if !enqueue(job) {
            switch await job.wait() {
            case .finished(let result): return try result.get()
            case .lead: break
            }
        }
        let batch = takeBatch()
        let works = batch.map(\.work)
        let result = await Task { () -> Result<Void, any Error> in
            do {
                try await run(works)
                return .success(())
            } catch {
                return .failure(error)
            }
        }.value
        endTurn()?.signal(.lead)
        for other in batch.dropFirst() { other.signal(.finished(result)) }
        try result.get()
    }

    /// The first queued job, whose caller leads next; with none, nobody leads any more.
    private static func nextLeader(_ state: inout State) -> Job? {
        guard let next = state.jobs.first else {
            state.isLeading = false
            return nil
        }
        return next
    }
}

/// Where a job's body leaves its typed result for its caller.
public final class ResultSlot<T: Sendable>: Sendable {
    private let value = Mutex<T?>(nil)

    public init() {}

    public func store(_ newValue: T) {
        value.withLock { $0 = newValue }
    }

    public func take() -> T? {
        value.withLock { $0.take() }
    }
}
