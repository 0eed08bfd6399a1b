import Foundation

/// Where CPU-bound hashing runs: a pool of threads, never the caller's executor (the server passes NIO's
/// blocking pool).
public protocol HashingThreads: Sendable {
    func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T
}

/// Every password hash and check of a server, in two lanes so that imported hashes cannot stall it.
///
/// Checks against the server's own hash (``PasswordHasher``'s scrypt at its cost), new hashes and the decoy
/// check run in the **native** lane: straight to the hashing threads. Checks against any other hash (imported
/// ones, and own hashes of an older cost) run in the **imported** lane: at most ``importedConcurrency`` at a
/// time (by default half the cores, at least one), the rest wait their turn, so however many wrong passwords
/// an attacker sends for imported accounts, they never occupy every hashing thread and a native check never
/// queues behind them. Before an imported check runs, its estimated cost is held against the ``budget``: a hash
/// beyond it never matches, without being computed.
///
/// The first successful sign-in replaces an imported hash with a native one (``PasswordHasher/needsRehash(_:)``),
/// so the imported lane empties as users come back. ``counts(_:)`` tells how many checks wait and run in each
/// lane (the server's `hearth_password_checks_waiting` and `hearth_password_checks_running`).
public final class PasswordHashing: Sendable {
    public enum Lane: String, Sendable, CaseIterable {
        case native, imported
    }

    /// Checks of one lane: waiting for their turn or a thread, and running on one.
    public struct LaneCounts: Sendable, Equatable {
        public var waiting = 0
        public var running = 0

        public init(waiting: Int = 0, running: Int = 0) {
            self.waiting = waiting
            self.running = running
        }
    }

    public let hasher: PasswordHasher
    public let budget: PasswordHashBudget
    /// How many imported checks run at a time.
    public let importedConcurrency: Int
    private let threads: any HashingThreads
    private let importedLimit: ConcurrencyLimit
    private let state = LockedBox((lanes: [Lane: LaneCounts](), overBudget: 0))

    /// Half the cores, at least one: the imported lane's default size.
    public static var defaultImportedConcurrency: Int { max(1, ProcessInfo.processInfo.activeProcessorCount / 2) }

    public init(
        hasher: PasswordHasher, budget: PasswordHashBudget, importedConcurrency: Int = PasswordHashing.defaultImportedConcurrency,
        threads: any HashingThreads
    ) {
        self.hasher = hasher
        self.budget = budget
        self.importedConcurrency = max(1, importedConcurrency)
        self.threads = threads
        self.importedLimit = ConcurrencyLimit(capacity: max(1, importedConcurrency))
    }

    /// Measures this machine's rates (once per process and hasher cost; see ``PasswordHashCost/measure(_:runs:)``)
    /// on `threads`, and makes the lanes with a budget of `importedCostLimit` own checks.
    public static func measured(
        hasher: PasswordHasher, importedCostLimit: Double = PasswordHashBudget.defaultMultiple,
        importedConcurrency: Int = PasswordHashing.defaultImportedConcurrency, threads: any HashingThreads
    ) async throws -> PasswordHashing {
        let key = [hasher.logN, hasher.blockSize, hasher.parallelism]
        let cost: PasswordHashCost
        if let known = measuredCosts.withLock({ $0[key] }) {
            cost = known
        } else {
            cost = try await threads.run { PasswordHashCost.measure(hasher) }
            measuredCosts.withLock { $0[key] = $0[key] ?? cost }
        }
        return PasswordHashing(
            hasher: hasher, budget: PasswordHashBudget(cost: cost, hasher: hasher, multiple: importedCostLimit),
            importedConcurrency: importedConcurrency, threads: threads)
    }

    private static let measuredCosts = LockedBox<[[Int]: PasswordHashCost]>([:])

    /// A new hash of `password` in the server's own format (native lane).
    public func hash(_ password: String) async throws -> String {
        let hasher = self.hasher
        return try await run(.native) { try hasher.hash(password) }
    }

    /// Whether `password` matches `encoded`, in the lane of `encoded` (see ``lane(of:)``). An imported hash beyond
    /// the budget never matches; unknown and malformed hashes never do either.
    public func verify(_ password: String, against encoded: String) async throws -> Bool {
        let hasher = self.hasher
        let lane = lane(of: encoded)
        guard lane == .native || budget.admits(encoded) else {
            state.withLock { $0.overBudget += 1 }
            return false
        }
        return try await run(lane) { hasher.verify(password, against: encoded) }
    }

    /// The lane a check against `encoded` runs in: native for the hasher's own scrypt at its cost.
    public func lane(of encoded: String) -> Lane {
        hasher.needsRehash(encoded) ? .imported : .native
    }

    /// How many checks wait and run in `lane` now.
    public func counts(_ lane: Lane) -> LaneCounts {
        state.withLock { $0.lanes[lane] ?? LaneCounts() }
    }

    /// How many checks were refused, not computed, because their hash was beyond the budget.
    public var overBudget: Int { state.withLock { $0.overBudget } }

    /// Runs `work` on the hashing threads in `lane`, counting it as waiting until a thread takes it, then as
    /// running until it ends.
    private func run<T: Sendable>(_ lane: Lane, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        state.withLock { $0.lanes[lane, default: LaneCounts()].waiting += 1 }
        let started = LockedBox(false)
        defer {
            // Work that never reached a thread (cancelled while waiting its turn) stops waiting here.
            if !started.withLock({ $0 }) { state.withLock { $0.lanes[lane, default: LaneCounts()].waiting -= 1 } }
        }
        let onThread: @Sendable () throws -> T = { [state] in
            started.withLock { $0 = true }
            state.withLock { state in
                state.lanes[lane, default: LaneCounts()].waiting -= 1
                state.lanes[lane, default: LaneCounts()].running += 1
            }
            defer { state.withLock { $0.lanes[lane, default: LaneCounts()].running -= 1 } }
            return try work()
        }
        switch lane {
        case .native: return try await threads.run(onThread)
        case .imported: return try await importedLimit.run { try await threads.run(onThread) }
        }
    }
}
