import Foundation
import HearthCore
import Testing

/// The hashing threads of these tests: a thread of its own for each work (the server passes NIO's blocking
/// pool). Not Dispatch's global queue: on Linux it runs as many works at a time as there are cores, so tests
/// running side by side would queue behind each other's hashes.
struct OwnThreads: HashingThreads {
    func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
        }
    }
}

/// Waits until `condition` holds, for at most 60 seconds; whether it does.
func eventually(_ condition: () -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + .seconds(60)
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        try await Task.sleep(for: .milliseconds(2))
    }
    return true
}

@Suite("Password hashing: the budget of imported hashes and the two lanes")
struct PasswordHashingTests {
    /// Rates of the order a release build measures on one core: a native check (N = 2^14, r = 8) 40 ms,
    /// bcrypt cost 10 60 ms, 1,000 PBKDF2 iterations 1 ms.
    static let cost = PasswordHashCost(
        scryptSecondsPerUnit: 0.040 / Double(1 << 17), bcryptSecondsPerRound: 0.060 / 1024, pbkdf2SecondsPerIteration: 1e-6)
    static let budget = PasswordHashBudget(cost: cost, hasher: .fastForTesting)

    @Test("the budget is measured against the server's own check at N = 2^14 at least, 8 of them by default")
    func budgetSeconds() {
        #expect(abs(Self.budget.nativeSeconds - 0.040) < 1e-9)
        #expect(abs(Self.budget.seconds - 0.320) < 1e-9)
        #expect(PasswordHashBudget(cost: Self.cost, hasher: PasswordHasher(logN: 16)).nativeSeconds > 0.159)
    }

    @Test("bcrypt: cost 12 fits the default budget, 14 and 16 do not")
    func bcryptCosts() throws {
        for (cost, fits) in [(4, true), (10, true), (12, true), (14, false), (16, false)] {
            let hash = "$2b$\(cost < 10 ? "0" : "")\(cost)$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"
            #expect(Self.budget.admits(hash) == fits, "cost \(cost)")
        }
        #expect(Self.budget.relativeCost("$2b$10$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW").map { abs($0 - 1.5) < 1e-9 } == true)
        #expect(!Self.budget.admits("not a hash"))
    }

    @Test("an import over the budget is refused with Firebase's errors: per batch for the scrypts and PBKDF2, per user for bcrypt")
    func importRefusals() throws {
        // STANDARD_SCRYPT N = 2^20, r = 8, p = 2: 1 GiB and 128 native checks.
        let huge = PasswordHashImport(algorithm: .standardScrypt, cpuMemCost: 1 << 20, parallelization: 2, blockSize: 8, dkLen: 64)
        try huge.validate()  // within the format's own limits
        let error = try #require(throws: HearthError.self) { try huge.validate(within: Self.budget) }
        #expect(error.code == .invalidHashParameter)
        #expect(error.detail == "INVALID_HASH_MEMORY_COST : A valid \"hash.memoryCost\" number must be provided for hash algorithm STANDARD_SCRYPT.")
        // N = 2^15, r = 8, p = 1 is two native checks.
        try PasswordHashImport(algorithm: .standardScrypt, cpuMemCost: 1 << 15, parallelization: 1, blockSize: 8, dkLen: 64).validate(
            within: Self.budget)

        let pbkdf2 = PasswordHashImport(algorithm: .pbkdf2SHA256, rounds: 120_000)
        try pbkdf2.validate(within: Self.budget)
        let strict = PasswordHashBudget(cost: Self.cost, hasher: .fastForTesting, multiple: 1)
        let rounds = try #require(throws: HearthError.self) { try pbkdf2.validate(within: strict) }
        #expect(
            rounds.detail
                == "INVALID_HASH_ROUNDS : A valid \"hash.rounds\" number between 0 and 120000 must be provided for hash algorithm PBKDF2_SHA256.")

        let bcrypt = PasswordHashImport(algorithm: .bcrypt)
        let cost16 = Array("$2b$16$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW".utf8)
        #expect(try bcrypt.storedHash(passwordHash: cost16, salt: []).hasPrefix("$2b$16$"))  // no budget: the format's limit only
        let perUser = try #require(throws: HearthError.self) { try bcrypt.storedHash(passwordHash: cost16, salt: [], within: Self.budget) }
        #expect(perUser.detail == "INVALID_PASSWORD_HASH : Invalid password hash for hash algorithm BCRYPT.")
        let cost10 = Array("$2b$10$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW".utf8)
        #expect(try bcrypt.storedHash(passwordHash: cost10, salt: [], within: Self.budget).hasPrefix("$2b$10$"))
    }

    @Test("the rates measured on this machine put bcrypt 16 and scrypt at 1 GiB far beyond the default budget, bcrypt 10 within it")
    func measuredRates() async throws {
        let hashing = try await PasswordHashing.measured(hasher: .fastForTesting, threads: OwnThreads())
        let budget = hashing.budget
        #expect(budget.nativeSeconds > 0 && budget.nativeSeconds.isFinite)
        #expect(!budget.admits("$2b$16$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"))
        #expect(budget.admits("$2b$10$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"))
        #expect(!budget.admits("$scrypt$ln=20,r=8,p=2$AAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="))
        #expect(budget.admits("$scrypt$ln=14,r=8,p=1$AAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="))
    }

    @Test("a stored hash beyond the budget never matches and is never computed")
    func overBudgetAtVerify() async throws {
        let strict = PasswordHashBudget(cost: Self.cost, hasher: .fastForTesting, multiple: 1)
        let hashing = PasswordHashing(hasher: .fastForTesting, budget: strict, threads: OwnThreads())
        let cheap = try Bcrypt.hash("right", cost: 4)
        #expect(try await hashing.verify("right", against: cheap))
        let dear = try Bcrypt.hash("right", cost: 11)  // 3 native checks at these rates
        #expect(hashing.lane(of: dear) == .imported)
        #expect(try await !hashing.verify("right", against: dear))
        #expect(hashing.overBudget == 1)
        let native = try await hashing.hash("right")
        #expect(hashing.lane(of: native) == .native)
        #expect(try await hashing.verify("right", against: native))
        #expect(hashing.overBudget == 1)
    }

    /// A budget that admits anything, a bcrypt string at cost 14 that keeps a hashing thread busy for seconds
    /// (the check the others queue behind, for as long as the test needs to look, whatever the load) and a
    /// quick one (the openwall vector of "U*U").
    static let generous = PasswordHashBudget(cost: cost, hasher: .fastForTesting, multiple: 10_000)
    static let slow = "$2b$14$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"
    static let quick = "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"

    @Test("imported checks run one at a time and the rest wait; a native check meanwhile is not queued behind them")
    func lanes() async throws {
        let hashing = PasswordHashing(
            hasher: .fastForTesting, budget: Self.generous, importedConcurrency: 1, threads: OwnThreads())
        let (slow, quick) = (Self.slow, Self.quick)
        let native = try PasswordHasher.fastForTesting.hash("right")
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask { try await hashing.verify("wrong", against: slow) }
            #expect(try await eventually { hashing.counts(.imported).running == 1 })
            for _ in 0..<3 { group.addTask { try await hashing.verify("wrong", against: quick) } }
            // The attack is under way: one imported check running, three waiting their turn.
            #expect(try await eventually { hashing.counts(.imported) == PasswordHashing.LaneCounts(waiting: 3, running: 1) })
            #expect(try await hashing.verify("right", against: native))
            // The native check is done while the imported ones still wait: it did not queue behind them.
            #expect(hashing.counts(.imported).waiting >= 1)
            for try await matched in group { #expect(!matched) }
        }
        #expect(hashing.counts(.imported) == PasswordHashing.LaneCounts())
        #expect(hashing.counts(.native) == PasswordHashing.LaneCounts())
    }

    @Test("a check cancelled while waiting for its turn leaves the queue and the counts")
    func cancelledWhileWaiting() async throws {
        let hashing = PasswordHashing(
            hasher: .fastForTesting, budget: Self.generous, importedConcurrency: 1, threads: OwnThreads())
        let (slow, quick) = (Self.slow, Self.quick)
        let first = Task { try await hashing.verify("wrong", against: slow) }
        #expect(try await eventually { hashing.counts(.imported).running == 1 })
        let second = Task { try await hashing.verify("U*U", against: quick) }
        #expect(try await eventually { hashing.counts(.imported).waiting == 1 })
        second.cancel()
        await #expect(throws: CancellationError.self) { try await second.value }
        #expect(hashing.counts(.imported).waiting == 0)
        #expect(try await !first.value)
        #expect(hashing.counts(.imported) == PasswordHashing.LaneCounts())
        // The place the cancelled check left is free again.
        #expect(try await hashing.verify("U*U", against: quick))
    }
}
