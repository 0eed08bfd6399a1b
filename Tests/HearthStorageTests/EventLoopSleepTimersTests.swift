import HearthCore
import Testing

@testable import HearthStoragePostgres

@Suite("EventLoopSleepTimers: the PostgreSQL lease timer's sleep on an event loop")
struct EventLoopSleepTimersTests {
    @Test("a sleep returns at its deadline; a cancelled one at once, also when cancelled before it starts")
    func sleeps() async throws {
        let start = ContinuousClock.now
        try await CancellableSleep.sleep(until: start.advanced(by: .milliseconds(50)), on: EventLoopSleepTimers())
        #expect(ContinuousClock.now >= start.advanced(by: .milliseconds(50)))
        try await CancellableSleep.sleep(until: start.advanced(by: .seconds(-5)), on: EventLoopSleepTimers())

        let sleeping = Task { try await CancellableSleep.sleep(for: .seconds(600), on: EventLoopSleepTimers()) }
        try await Task.sleep(for: .milliseconds(20))
        sleeping.cancel()
        await #expect(throws: CancellationError.self) { try await sleeping.value }
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await CancellableSleep.sleep(for: .seconds(600), on: EventLoopSleepTimers())
        }
        await #expect(throws: CancellationError.self) { try await early.value }
        #expect(ContinuousClock.now < start.advanced(by: .seconds(60)))
    }
}
