import HearthCore
import Testing

/// The async limit under the SQLite store's connection locks (capacity 1) and the imported-hash lane (capacity n).
@Suite struct ConcurrencyLimitTests {
    private func waitUntil(_ limit: ConcurrencyLimit, waiting count: Int) async throws {
        for _ in 0..<2_000 where limit.waitingCount != count {
            try await Task.sleep(for: .milliseconds(1))
        }
        try #require(limit.waitingCount == count)
    }

    @Test("a capacity of one admits waiters first come, first served, and drops cancelled ones")
    func lockOrder() async throws {
        let mutex = ConcurrencyLimit(capacity: 1)
        let order = LockedBox<[String]>([])
        try await mutex.enter()
        #expect(!mutex.tryEnter())
        let first = Task { try await mutex.run { order.withLock { $0.append("first") } } }
        try await waitUntil(mutex, waiting: 1)
        let cancelled = Task { try await mutex.run { order.withLock { $0.append("cancelled") } } }
        try await waitUntil(mutex, waiting: 2)
        let second = Task { try await mutex.run { order.withLock { $0.append("second") } } }
        try await waitUntil(mutex, waiting: 3)
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(mutex.waitingCount == 2)
        mutex.leave()
        try await first.value
        try await second.value
        #expect(order.withLock { $0 } == ["first", "second"])
        #expect(mutex.waitingCount == 0)
        #expect(mutex.tryEnter())
        mutex.leave()
    }

    @Test("a capacity of three never runs a fourth body, and lets a hundred waiters through in order")
    func budget() async throws {
        let limit = ConcurrencyLimit(capacity: 3)
        let running = LockedBox((now: 0, most: 0))
        let order = LockedBox<[Int]>([])
        for _ in 0..<3 { try await limit.enter() }
        var tasks: [Task<Void, any Error>] = []
        for index in 0..<100 {
            tasks.append(
                Task {
                    try await limit.run {
                        running.withLock {
                            $0.now += 1
                            $0.most = max($0.most, $0.now)
                        }
                        order.withLock { $0.append(index) }
                        await Task.yield()
                        running.withLock { $0.now -= 1 }
                    }
                })
            try await waitUntil(limit, waiting: index + 1)
        }
        for _ in 0..<3 { limit.leave() }
        for task in tasks { try await task.value }
        // Admitted in order: when a body appends, every earlier one has appended or is one of the two others running, so
        // none appends more than two places early. (It may append any number of places late: a body the scheduler keeps
        // waiting holds its slot while the other two slots serve later ones, which a loaded machine does.)
        let appended = order.withLock { $0 }
        #expect(appended.sorted() == Array(0..<100))
        #expect(appended.enumerated().allSatisfy { $0.offset >= $0.element - 2 }, "\(appended)")
        #expect(running.withLock { $0.most } <= 3)
        #expect(limit.waitingCount == 0)
    }
}
