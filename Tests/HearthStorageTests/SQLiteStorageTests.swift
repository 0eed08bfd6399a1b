import Foundation
import HearthCore
import HearthStoragePostgres
import HearthTesting
import Logging
import SQLKit
import Testing

@testable import HearthStorage
@testable import HearthStorageSQLite

@Suite("SQLite storage")
struct SQLiteStorageTests {
    @Test("an in-memory store works on its single connection")
    func inMemory() async throws {
        let store = try await SQLiteStorage.openInMemory(logger: Logger(label: "hearth.tests.store"))
        do {
            #expect(try await store.pendingMigrations() == [])
            try await store.createUser(makeUser("u1", email: "ada@example.com"), session: makeSession("s1", uid: "u1"))
            #expect(try await store.user(email: "ada@example.com")?.uid == "u1")
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<20 {
                    group.addTask { try await store.createUser(makeUser("m\(index)"), session: nil) }
                    group.addTask { _ = try await store.countUsers() }
                }
                try await group.waitForAll()
            }
            #expect(try await store.countUsers() == 21)
        } catch {
            try? await store.close()
            throw error
        }
        try await store.close()
        await #expect(throws: HearthError(.storageUnavailable)) { try await store.countUsers() }
    }

    // MARK: Group commit

    /// Runs `writes` while the writer is held, so that they all queue, then lets them go: they run
    /// in one transaction. Returns each write's outcome, in the order of `writes`.
    private func queuedTogether(
        _ transactor: SQLiteTransactor, _ writes: [@Sendable (any SQLDatabase) async throws -> String]
    ) async throws -> [Result<String, any Error>] {
        try await transactor.writerMutex.enter()
        let tasks = writes.map { write in
            Task { () -> Result<String, any Error> in
                do { return .success(try await transactor.write(write)) } catch { return .failure(error) }
            }
        }
        for _ in 0..<5_000 where transactor.queuedWriteCount != writes.count {
            try await Task.sleep(for: .milliseconds(1))
        }
        transactor.writerMutex.leave()
        try #require(transactor.queuedWriteCount <= writes.count)
        var outcomes: [Result<String, any Error>] = []
        for task in tasks { outcomes.append(await task.value) }
        return outcomes
    }

    private static func insertUser(_ uid: String) -> @Sendable (any SQLDatabase) async throws -> String {
        { database in
            let ms = StoredTime.milliseconds(epoch)
            try await SQLStore.exec(
                database, "INSERT INTO users (uid, created_at, valid_since) VALUES (\(bind: uid), \(bind: ms), \(bind: ms))")
            return uid
        }
    }

    @Test("queued writes commit together, and a write that throws is undone alone")
    func groupCommit() async throws {
        try await withStore(.sqlite) { store, _ in
            let transactor = try #require(store.transactor as? SQLiteTransactor)
            let commitsBefore = transactor.commitCount
            let outcomes = try await queuedTogether(
                transactor,
                [
                    Self.insertUser("a"),
                    Self.insertUser("b"),
                    { database in
                        // Its own insert must vanish with it; the others' must not.
                        _ = try await Self.insertUser("c")(database)
                        throw MutationRefused(marker: "c")
                    },
                    Self.insertUser("a"),  // the uid "a" got earlier in the same transaction
                    { database in
                        // Sees the earlier writes of its transaction, as if run after them.
                        let row = try await database.raw("SELECT COUNT(*) AS n FROM users").first()
                        let seen = try row?.decode(column: "n", as: Int64.self) ?? -1
                        _ = try await Self.insertUser("e")(database)
                        return "e saw \(seen)"
                    },
                ])
            #expect(try outcomes[0].get() == "a")
            #expect(try outcomes[1].get() == "b")
            #expect(throws: MutationRefused(marker: "c")) { try outcomes[2].get() }
            #expect(throws: (any Error).self) { try outcomes[3].get() }
            #expect(try outcomes[4].get() == "e saw 2")
            #expect(transactor.commitCount == commitsBefore + 1)
            #expect(try await store.countUsers() == 3)
            #expect(try await store.user(uid: "c") == nil)
            #expect(try await store.user(uid: "e") != nil)
        }
    }

    @Test("when the shared COMMIT fails, every write of the transaction fails and nothing is written")
    func groupCommitFailure() async throws {
        try await withStore(.sqlite) { store, _ in
            let transactor = try #require(store.transactor as? SQLiteTransactor)
            let outcomes = try await queuedTogether(
                transactor,
                [
                    Self.insertUser("a"),
                    { database in
                        // A deferred foreign-key violation is only noticed by COMMIT.
                        try await database.raw("PRAGMA defer_foreign_keys = ON").run()
                        try await SQLStore.insertSessionRow(makeSession("orphan", uid: "nobody"), tenant: "", on: database)
                        return "orphan"
                    },
                    Self.insertUser("c"),
                ])
            for outcome in outcomes {
                #expect(throws: (any Error).self) { try outcome.get() }
            }
            #expect(try await store.countUsers() == 0)
            #expect(try await count("refresh_sessions", in: store) == 0)
            // The writer is usable again afterwards.
            try await store.createUser(makeUser("after"), session: nil)
            #expect(try await store.countUsers() == 1)
        }
    }

    @Test("when the shared transaction is lost midway, the writes before fail and the writes after run again")
    func groupCommitLostTransaction() async throws {
        try await withStore(.sqlite) { store, _ in
            let transactor = try #require(store.transactor as? SQLiteTransactor)
            let outcomes = try await queuedTogether(
                transactor,
                [
                    Self.insertUser("a"),
                    { database in
                        // Ends the shared transaction under everyone's feet, then fails.
                        try await database.raw("ROLLBACK").run()
                        throw MutationRefused(marker: "b")
                    },
                    Self.insertUser("c"),
                ])
            #expect(throws: HearthError(.storageUnavailable)) { try outcomes[0].get() }
            #expect(throws: MutationRefused(marker: "b")) { try outcomes[1].get() }
            #expect(try outcomes[2].get() == "c")
            #expect(try await store.user(uid: "a") == nil)
            #expect(try await store.user(uid: "c") != nil)
        }
    }

    @Test("a leader whose task is cancelled mid-batch (a chore at shutdown) does not fail the writes it runs for others")
    func groupCommitCancelledLeader() async throws {
        try await withStore(.sqlite) { store, _ in
            let transactor = try #require(store.transactor as? SQLiteTransactor)
            let (started, startedSignal) = AsyncStream<Void>.makeStream()
            let (gate, opening) = AsyncStream<Void>.makeStream()
            try await transactor.writerMutex.enter()
            let leader = Task { try await transactor.write(Self.insertUser("leader")) }
            for _ in 0..<5_000 where transactor.queuedWriteCount != 1 { try await Task.sleep(for: .milliseconds(1)) }
            let follower = Task {
                try await transactor.write { database in
                    startedSignal.yield()
                    // Waits for the test to cancel the leader (a cancelled task would stop waiting at once).
                    for await _ in gate { break }
                    return try await Self.insertUser("follower")(database)
                }
            }
            for _ in 0..<5_000 where transactor.queuedWriteCount != 2 { try await Task.sleep(for: .milliseconds(1)) }
            try #require(transactor.queuedWriteCount == 2)
            transactor.writerMutex.leave()
            for await _ in started { break }
            leader.cancel()
            opening.yield()
            #expect(try await leader.value == "leader")
            #expect(try await follower.value == "follower")
            #expect(try await store.user(uid: "leader") != nil)
            #expect(try await store.user(uid: "follower") != nil)
        }
    }

    @Test("under concurrent sign-ups that fight over e-mails, exactly one user per e-mail is created")
    func groupCommitUnderContention() async throws {
        try await withStore(.sqlite) { store, _ in
            let created = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<200 {
                    group.addTask {
                        let uid = "user-\(index)"
                        do {
                            try await store.createUser(
                                makeUser(uid, email: "e\(index % 50)@example.com"), session: makeSession("s-\(index)", uid: uid))
                            return true
                        } catch StoreConflict.email {
                            return false
                        }
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(created == 50)
            #expect(try await store.countUsers() == 50)
            #expect(try await count("refresh_sessions", in: store) == 50)
            for index in 0..<50 {
                #expect(try await store.user(email: "e\(index)@example.com") != nil)
            }
        }
    }

    @Test("closing while a checkpoint round waits for the writer ends the round quietly")
    func checkpointRoundEndsQuietlyAtClose() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-wal-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("hearth.sqlite").path
        let messages = LockedBox<[String]>([])
        var logger = Logger(label: "hearth.tests.store") { _ in CapturingLogHandler(messages: messages) }
        logger.logLevel = .warning
        // Rounds every millisecond while 4 tasks write, closed at once, 20 times: the closes land inside rounds.
        for _ in 0..<20 {
            let transactor = try await SQLiteTransactor.open(path: path, checkpointInterval: .milliseconds(1), logger: logger)
            try await transactor.write { try await SQLStore.exec($0, "CREATE TABLE IF NOT EXISTS filler (body BLOB NOT NULL)") }
            let writers = (0..<4).map { _ in
                Task {
                    for _ in 0..<50 {
                        try? await transactor.write { try await SQLStore.exec($0, "INSERT INTO filler (body) VALUES (randomblob(4096))") }
                    }
                }
            }
            try await Task.sleep(for: .milliseconds(5))
            try await transactor.close()
            for writer in writers { await writer.value }
        }
        #expect(messages.withLock { $0 }.isEmpty, "\(messages.withLock { $0 })")
    }

    @Test("under a steady stream of writes the WAL is checkpointed beside the writer and starts over: it stays small, and nothing is lost")
    func checkpointsBesideTheWriter() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-wal-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("hearth.sqlite").path
        let logger = Logger(label: "hearth.tests.store")
        let transactor = try await SQLiteTransactor.open(path: path, checkpointInterval: .milliseconds(20), logger: logger)
        // 48 MiB of rows that do not compress, written by 8 tasks: without checkpoints the WAL would hold all of it.
        let rows = 3_072
        let blob = Data((0..<16_384).map { _ in UInt8.random(in: 0...255) })
        do {
            try await transactor.write { try await SQLStore.exec($0, "CREATE TABLE filler (id INTEGER PRIMARY KEY, body BLOB NOT NULL)") }
            let largestWAL = try await withThrowingTaskGroup(of: Int.self) { group in
                for worker in 0..<8 {
                    group.addTask {
                        var largest = 0
                        for row in stride(from: worker, to: rows, by: 8) {
                            try await transactor.write { database in
                                try await SQLStore.exec(database, "INSERT INTO filler (id, body) VALUES (\(bind: row), \(bind: blob))")
                            }
                            let size = try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int
                            largest = max(largest, size ?? 0)
                        }
                        return largest
                    }
                }
                return try await group.reduce(0, max)
            }
            let rounds = try #require(transactor.checkpointRounds)
            #expect(rounds >= 2)
            let written = rows * blob.count
            #expect(largestWAL < written / 2, "the WAL grew to \(largestWAL) bytes of \(written)")
        } catch {
            try? await transactor.close()
            throw error
        }
        try await transactor.close()
        let reopened = try await SQLiteTransactor.open(path: path, logger: logger)
        let count = try await reopened.read { database in
            try await database.raw("SELECT count(*) AS n FROM filler").first()?.decode(column: "n", as: Int.self)
        }
        try await reopened.close()
        #expect(count == rows)
    }

    @Test("the database file uses WAL and enforces foreign keys")
    func pragmas() async throws {
        try await withStore(.sqlite) { store, _ in
            let (journal, foreignKeys) = try await store.transactor.write { database in
                let journal = try await database.raw("PRAGMA journal_mode").first()?.decode(column: "journal_mode", as: String.self)
                let foreignKeys = try await database.raw("PRAGMA foreign_keys").first()?.decode(column: "foreign_keys", as: Int64.self)
                return (journal, foreignKeys)
            }
            #expect(journal == "wal")
            #expect(foreignKeys == 1)
        }
    }
}
