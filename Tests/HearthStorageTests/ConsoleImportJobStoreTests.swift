import Foundation
import HearthCore
import HearthStorage
import Testing

/// The console's import jobs on every backend: one runs at a time across replicas, decided by the database; a job
/// whose server stopped (its heartbeat too old) shows as stopped and no longer blocks; the newest 20 are kept.
@Suite("Store conformance: console import jobs")
struct ConsoleImportJobStoreTests {
    static func job(_ number: Int, at time: Date = epoch, tenantID: String? = nil) -> ConsoleImportJob {
        ConsoleImportJob(
            id: String(format: "%032x", number), tenantID: tenantID, actorID: "operator:ed@example.com", fileName: "users-\(number).json",
            format: "json", startedAt: time, total: 2_500)
    }

    static var bound: TimeInterval { ConsoleImportJob.heartbeatBound }

    @Test("a job round-trips, its progress is written while it runs, and a finished one takes no more writes", arguments: StoreBackend.all)
    func progress(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ async throws in
            var job = Self.job(1, tenantID: "acme-x1y2z")
            #expect(try await store.startConsoleImportJob(job, staleBefore: epoch.addingTimeInterval(-Self.bound)))
            #expect(try await store.consoleImportJob(id: job.id) == job)
            #expect(try await store.consoleImportJob(id: "f" + job.id.dropFirst()) == nil)

            // The list as it grows, hostile text included: a NUL and a long uid are kept (the uid cut), and read back.
            job.skip([
                .init(position: 3, uid: "j3", reason: "email is invalid"),
                .init(position: 9, uid: "nul\u{0}uid", reason: "uid is \u{0} invalid"),
                .init(position: 11, uid: String(repeating: "u", count: 10_000), reason: "uid is too long"),
            ])
            job.processed += 997
            job.imported = 997
            job.heartbeatAt = epoch.addingTimeInterval(5)
            #expect(try await store.recordConsoleImportProgress(job, skippedChanged: true))
            let read = try #require(try await store.consoleImportJob(id: job.id))
            #expect(read == job && read.processed == 1_000 && read.skippedCount == 3 && read.tenantID == "acme-x1y2z")
            #expect(read.skipped[1].uid == "nul\u{0}uid" && read.skipped[2].uid.count == ConsoleImportJob.Skipped.maximumText)

            // Without `skippedChanged` the list is left as it is.
            var later = job
            later.skipped = []
            later.processed = 2_000
            #expect(try await store.recordConsoleImportProgress(later, skippedChanged: false))
            #expect(try await store.consoleImportJob(id: job.id)?.skipped == job.skipped)
            #expect(try await store.consoleImportJob(id: job.id)?.processed == 2_000)

            job.processed = 2_500
            job.finishedAt = epoch.addingTimeInterval(9)
            #expect(try await store.recordConsoleImportProgress(job, skippedChanged: false))
            #expect(try await store.consoleImportJob(id: job.id)?.isRunning == false)
            // Finished: no further write lands.
            job.imported = 1
            #expect(try await !store.recordConsoleImportProgress(job, skippedChanged: false))
            #expect(try await store.consoleImportJob(id: job.id)?.imported == 997)
            #expect(try await !store.recordConsoleImportProgress(Self.job(99), skippedChanged: false))

            // Hostile ids read as no job, never an error. A tenant's view of the store sees the server's jobs.
            for id in ["", "with\u{0}nul", String(repeating: "a", count: 100_000), "' OR 1=1 --"] {
                #expect(try await store.consoleImportJob(id: id) == nil)
            }
            #expect(try await store.scoped(toTenant: "other-tenant").consoleImportJob(id: job.id)?.fileName == "users-1.json")
        }
    }

    @Test("one at a time: a running job refuses the next; a finished one does not", arguments: StoreBackend.all)
    func oneAtATime(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ async throws in
            var first = Self.job(1)
            let staleBefore = epoch.addingTimeInterval(-Self.bound)
            #expect(try await store.startConsoleImportJob(first, staleBefore: staleBefore))
            // Another tenant's import waits too: one import at a time for the whole server.
            #expect(
                try await !store.scoped(toTenant: "acme-x1y2z").startConsoleImportJob(Self.job(2, tenantID: "acme-x1y2z"), staleBefore: staleBefore))
            #expect(try await store.consoleImportJob(id: Self.job(2).id) == nil)
            first.finishedAt = epoch.addingTimeInterval(1)
            #expect(try await store.recordConsoleImportProgress(first, skippedChanged: false))
            #expect(try await store.startConsoleImportJob(Self.job(3), staleBefore: staleBefore))
        }
    }

    @Test(
        "a job whose server stopped: stopped after the bound (as read, and as stored by the next start), no longer blocking",
        arguments: StoreBackend.all)
    func abandoned(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store, fixture in
            // The server that ran it wrote its progress at +30 s, then stopped (a restart: a new store on the same database).
            var job = Self.job(1)
            #expect(try await store.startConsoleImportJob(job, staleBefore: epoch.addingTimeInterval(-Self.bound)))
            job.processed = 1_000
            job.imported = 990
            job.heartbeatAt = epoch.addingTimeInterval(30)
            #expect(try await store.recordConsoleImportProgress(job, skippedChanged: false))
            let restarted = try await fixture.open()

            // Within the bound it still runs, and still blocks.
            let within = epoch.addingTimeInterval(30 + Self.bound)
            #expect(try await restarted.consoleImportJob(id: job.id)?.seen(at: within).isRunning == true)
            #expect(try await !restarted.startConsoleImportJob(Self.job(2, at: within), staleBefore: within.addingTimeInterval(-Self.bound)))

            // After it, it reads as stopped at its last heartbeat, with what it did.
            let after = within.addingTimeInterval(1)
            let seen = try #require(try await restarted.consoleImportJob(id: job.id)?.seen(at: after))
            #expect(!seen.isRunning && seen.finishedAt == epoch.addingTimeInterval(30))
            #expect(seen.stopped == "The server running this import stopped after 1000 of 2500 users; the users imported stay imported.")

            // And a new import starts, marking it stopped for good; its old server, back, writes no more.
            #expect(try await restarted.startConsoleImportJob(Self.job(3, at: after), staleBefore: after.addingTimeInterval(-Self.bound)))
            let stored = try #require(try await restarted.consoleImportJob(id: job.id))
            #expect(
                stored.stopped == seen.stopped && stored.finishedAt == seen.finishedAt && stored.seen(at: after.addingTimeInterval(3_600)) == stored)
            job.processed = 2_000
            job.heartbeatAt = after
            #expect(try await !store.recordConsoleImportProgress(job, skippedChanged: false))
            #expect(try await restarted.consoleImportJob(id: job.id)?.processed == 1_000)
            try await restarted.close()
        }
    }

    @Test("parallel starts on three replicas: exactly one wins", arguments: StoreBackend.all)
    func parallelStarts(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store, fixture in
            let replicas = [store, try await fixture.open(), try await fixture.open()]
            var won: [String] = []
            // Twice: on an empty table, then over a job whose server stopped (each start marks it stopped, one adds).
            for round in 0..<2 {
                let now = epoch.addingTimeInterval(Double(round) * 3_600)
                let winners = try await withThrowingTaskGroup(of: String?.self) { group in
                    for index in 0..<12 {
                        let job = Self.job(round * 100 + index, at: now)
                        group.addTask {
                            try await replicas[index % 3].startConsoleImportJob(job, staleBefore: now.addingTimeInterval(-Self.bound)) ? job.id : nil
                        }
                    }
                    return try await group.reduce(into: [String]()) { if let id = $1 { $0.append(id) } }
                }
                #expect(winners.count == 1, "round \(round): \(winners)")
                #expect(try await count("console_import_jobs", in: store) == round + 1)
                won += winners
            }
            // The first round's winner, left running, was marked stopped by the second round.
            #expect(try await store.consoleImportJob(id: won[0])?.stopped?.hasPrefix("The server running this import stopped") == true)
            #expect(try await store.consoleImportJob(id: won[1])?.isRunning == true)
            for replica in replicas.dropFirst() { try await replica.close() }
        }
    }

    @Test("the newest 20 are kept: older finished ones are deleted when one starts; a running one never", arguments: StoreBackend.all)
    func pruning(_ backend: StoreBackend) async throws {
        try await withStore(backend) { store, _ async throws in
            for number in 1...25 {
                var job = Self.job(number, at: epoch.addingTimeInterval(Double(number)))
                #expect(try await store.startConsoleImportJob(job, staleBefore: job.startedAt.addingTimeInterval(-Self.bound)))
                if number < 25 {
                    job.finishedAt = job.startedAt
                    #expect(try await store.recordConsoleImportProgress(job, skippedChanged: false))
                }
            }
            #expect(try await count("console_import_jobs", in: store) == 20)
            #expect(try await store.consoleImportJob(id: Self.job(5).id) == nil)
            #expect(try await store.consoleImportJob(id: Self.job(6).id) != nil)
            #expect(try await store.consoleImportJob(id: Self.job(25).id)?.isRunning == true)
        }
    }
}
