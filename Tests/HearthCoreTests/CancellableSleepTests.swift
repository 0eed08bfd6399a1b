import HearthCore
import Testing

@Suite("CancellableSleep: a timer that goes with its task")
struct CancellableSleepTests {
    @Test("a sleep returns at its deadline, not before; one whose deadline is past returns at once")
    func returnsAtDeadline() async throws {
        let start = ContinuousClock.now
        try await CancellableSleep.sleep(until: start.advanced(by: .milliseconds(50)))
        #expect(ContinuousClock.now >= start.advanced(by: .milliseconds(50)))
        try await CancellableSleep.sleep(for: .milliseconds(20))
        #expect(ContinuousClock.now >= start.advanced(by: .milliseconds(70)))
        try await CancellableSleep.sleep(until: ContinuousClock.now.advanced(by: .seconds(-5)))
        // A deadline beyond the timer's reach is capped, not a trap.
        let far = Task { try await CancellableSleep.sleep(for: .seconds(Int64.max / 2)) }
        try await Task.sleep(for: .milliseconds(20))
        far.cancel()
        await #expect(throws: CancellationError.self) { try await far.value }
    }

    @Test("a cancelled sleep throws CancellationError at once, long before its deadline; one cancelled before it starts too")
    func cancelled() async throws {
        let start = ContinuousClock.now
        let sleeping = Task { try await CancellableSleep.sleep(until: start.advanced(by: .seconds(600))) }
        try await Task.sleep(for: .milliseconds(20))
        sleeping.cancel()
        await #expect(throws: CancellationError.self) { try await sleeping.value }

        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await CancellableSleep.sleep(for: .seconds(600))
        }
        await #expect(throws: CancellationError.self) { try await early.value }

        // Thousands raced and cancelled, as PostgreSQL's lease timer is: every one answers.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<2_000 {
                group.addTask {
                    let sleeper = Task { try await CancellableSleep.sleep(for: .seconds(600)) }
                    sleeper.cancel()
                    _ = try? await sleeper.value
                }
            }
            try await group.waitForAll()
        }
        #expect(ContinuousClock.now < start.advanced(by: .seconds(60)))
    }
}
