import Foundation
import HearthCore
import HearthStorage
import Testing

private let t0 = Date(timeIntervalSince1970: 1_800_000_000)

/// The store half of the password lockout, on every backend.
@Suite("Store conformance: login failures")
struct LoginFailureStoreTests {
    @Test("records are written, read, deleted, unlocked and pruned", arguments: StoreBackend.all)
    func roundTrip(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            let record = LoginFailureRecord(failures: 3, lastFailureAt: t0, lockedUntil: t0.addingTimeInterval(60))
            let stale = LoginFailureRecord(failures: 1, lastFailureAt: t0.addingTimeInterval(-90_000))
            let written = try await store.updateLoginFailures(["account:a@example.com", "address:192.0.2.1"]) { current in
                #expect(current.isEmpty)
                return (["account:a@example.com": record, "address:192.0.2.1": stale], "done")
            }
            #expect(written == "done")
            #expect(try await store.loginFailures(["account:a@example.com", "account:nobody@example.com"]) == ["account:a@example.com": record])

            // A subject left out of the answer is left alone; nil deletes.
            try await store.updateLoginFailures(["account:a@example.com", "address:192.0.2.1"]) { current in
                #expect(current["account:a@example.com"] == record)
                return (["address:192.0.2.1": nil], ())
            }
            #expect(try await store.loginFailures(["account:a@example.com", "address:192.0.2.1"]).keys.sorted() == ["account:a@example.com"])

            // An error thrown by the change writes nothing.
            struct Refused: Error {}
            await #expect(throws: Refused.self) {
                try await store.updateLoginFailures(["account:a@example.com"]) { _ -> (records: [String: LoginFailureRecord?], result: Void) in
                    throw Refused()
                }
            }

            // Pruning keeps records that still wait or failed recently.
            try await store.updateLoginFailures(["address:192.0.2.1"]) { _ in (["address:192.0.2.1": stale], ()) }
            #expect(try await store.pruneLoginFailures(lastFailureBefore: t0.addingTimeInterval(-43_200), now: t0) == 1)
            #expect(try await store.pruneLoginFailures(lastFailureBefore: t0.addingTimeInterval(1), now: t0) == 0)  // still waits
            #expect(try await store.pruneLoginFailures(lastFailureBefore: t0.addingTimeInterval(1), now: t0.addingTimeInterval(60)) == 1)

            try await store.updateLoginFailures(["account:a@example.com"]) { _ in (["account:a@example.com": record], ()) }
            #expect(try await store.deleteLoginFailures(["account:a@example.com", "account:b@example.com"]) == 1)
            #expect(try await store.deleteLoginFailures(["account:a@example.com"]) == 0)
        }
    }

    @Test("parallel updates of one subject never lose a count (read-decide-write is exclusive)", arguments: StoreBackend.all)
    func parallelUpdates(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ in
            let subjects = ["account:race@example.com", "address:192.0.2.9"]
            let tickets = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<60 {
                    // Half of them name the subjects the other way round: no deadlock either way.
                    let order = index.isMultiple(of: 2) ? subjects : subjects.reversed()
                    group.addTask {
                        try await store.updateLoginFailures(order) { current in
                            let failures = (current["account:race@example.com"]?.failures ?? 0) + 1
                            let record = LoginFailureRecord(failures: failures, lastFailureAt: t0)
                            return ([subjects[0]: record, subjects[1]: record], failures)
                        }
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(tickets.sorted() == Array(1...60))
            #expect(try await store.loginFailures(subjects).mapValues(\.failures) == [subjects[0]: 60, subjects[1]: 60])
        }
    }
}
