import Testing

@testable import HearthStoragePostgres

@Suite("LoopTimer: the PostgreSQL lease timer's sleep")
struct LoopTimerTests {
    @Test("a sleep returns at its deadline, not before")
    func returnsAtDeadline() async throws {
        let start = ContinuousClock.now
        try await LoopTimer.sleep(until: start.advanced(by: .milliseconds(50)))
        #expect(ContinuousClock.now >= start.advanced(by: .milliseconds(50)))
    }

    @Test("a cancelled sleep throws CancellationError at once, long before its deadline; one cancelled before it starts too")
    func cancelled() async throws {
        let start = ContinuousClock.now
        let sleeping = Task { try await LoopTimer.sleep(until: start.advanced(by: .seconds(600))) }
        try await Task.sleep(for: .milliseconds(20))
        sleeping.cancel()
        await #expect(throws: CancellationError.self) { try await sleeping.value }
        #expect(ContinuousClock.now < start.advanced(by: .seconds(60)))

        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await LoopTimer.sleep(until: ContinuousClock.now.advanced(by: .seconds(600)))
        }
        await #expect(throws: CancellationError.self) { try await early.value }
        #expect(ContinuousClock.now < start.advanced(by: .seconds(60)))
    }

    @Test("a deadline already past returns at once")
    func pastDeadline() async throws {
        try await LoopTimer.sleep(until: ContinuousClock.now.advanced(by: .seconds(-5)))
    }
}
