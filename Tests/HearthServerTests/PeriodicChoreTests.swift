import Foundation
import HearthCore
import HearthStorageSQLite
import Logging
import Testing

@testable import HearthServer

/// The loop of the server's chores: a pass that fails is logged and the loop goes on; a pass that shutdown stops is
/// not a failure (a `hearth serve` whose port is taken used to log "abuse record pruning failed" on its way out).
@Suite("Periodic chores")
struct PeriodicChoreTests {
    @Test("a pass that fails is logged by its error's type; a pass cut short by shutdown ends the loop without a line")
    func failureAndShutdown() async throws {
        let store = try await SQLiteStorage.openInMemory(logger: Logger(label: "hearth.tests.store"))
        let logs = CapturedLogs()
        let chore = PeriodicChore(lockName: "test-chore", title: "test chore", interval: 0.01, store: store, logger: logs.logger())
        let (passes, passed) = AsyncStream<Int>.makeStream()
        let count = LockedBox(0)
        let loop = Task {
            await chore.run {
                let number = count.withLock { value in
                    value += 1
                    return value
                }
                passed.yield(number)
                // The first pass fails on its own; the second waits for shutdown, then fails as a cut-off statement does.
                if number == 1 { throw HearthError(.storageUnavailable, reason: "the first pass fails") }
                try? await Task.sleep(for: .seconds(60))
                throw HearthError(.storageUnavailable, reason: "the shared write transaction was rolled back")
            }
        }
        for await number in passes where number == 2 { break }
        loop.cancel()
        await loop.value
        try await store.close()
        #expect(logs.text.components(separatedBy: "test chore failed").count == 2, "\(logs.text)")
        #expect(logs.text.contains("HearthError"))
        #expect(count.withLock { $0 } == 2)
    }
}
