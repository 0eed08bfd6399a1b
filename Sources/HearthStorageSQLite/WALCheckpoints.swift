import Glibc
import HearthCore
import Logging
import SQLKit
import SQLiteNIO
import Synchronization

/// Copies the write-ahead log's pages into the database file on a connection of its own, so that the single
/// writer does not.
///
/// With SQLite's automatic checkpoint, the commit that crosses the threshold copies every page of the WAL into
/// the database file and syncs both, holding the writer all the while (tens of milliseconds for 8,000 pages), and
/// every write queued behind it waits: that was the p99 of sign-ups. Here the writer never checkpoints
/// (`wal_autocheckpoint = 0`). Each round, when the writer committed since the last one:
/// 1. this connection runs `PASSIVE` checkpoints beside the writer, which copy the pages committed so far while
///    further commits go on, and syncs the database file;
/// 2. then, holding the writer's lock, the writer's connection runs one more `PASSIVE` checkpoint, which copies
///    only what was committed during the last pass and syncs the file (see ``round(writer:)``). Nothing is
///    committed meanwhile, so it can finish, and the next write starts the WAL over from its beginning: the file
///    does not grow under a steady load (a `PASSIVE` checkpoint that always has commits running beside it never
///    catches up).
///
/// A reader still reading an older snapshot holds back the pages after it; the next round copies them. Failures
/// are logged and the next round tries again: the WAL keeps the data safe until a checkpoint succeeds.
final class WALCheckpoints: Sendable {
    private let lane: SQLiteTransactor.Lane
    /// The database file, open read-only to sync it (`-1` when it could not be opened). Closed only after every
    /// connection (see ``closeFile()``): closing a descriptor of the file drops the process's POSIX locks on it,
    /// SQLite's included.
    private let file: Int32
    private let task = Mutex<Task<Void, Never>?>(nil)
    /// Rounds that ran (for tests).
    private let roundsRun = Atomic<Int>(0)

    init(lane: SQLiteTransactor.Lane, databasePath: String) {
        self.lane = lane
        self.file = open(databasePath, O_RDONLY | O_CLOEXEC)
    }

    /// Starts the rounds: one every `interval` in which `commits()` moved; they end when it says `nil` (the
    /// transactor is gone without ``stop()``).
    func start(
        every interval: Duration, writer: SQLiteTransactor.Lane, commits: @escaping @Sendable () -> Int?, logger: Logger
    ) {
        let task = Task {
            var seen = commits()
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let now = commits() else { return }
                guard now != seen, !Task.isCancelled else { continue }
                seen = now
                do {
                    try await self.round(writer: writer)
                } catch is CancellationError {
                    return  // stop() while a round waited for the writer: closing, not a failure
                } catch {
                    logger.warning(
                        "SQLite checkpoint failed; the next round tries again",
                        metadata: ["error": "\(String(describing: type(of: error)))"])
                }
            }
        }
        self.task.withLock { $0 = task }
    }

    /// Closes the database file's descriptor; call it after every connection to the file is closed.
    func closeFile() {
        if file >= 0 { close(file) }
    }

    /// Ends the rounds (waiting for one in progress) and closes the connection.
    func stop() async throws {
        let task = self.task.withLock { $0.take() }
        task?.cancel()
        await task?.value
        try await lane.close()
    }

    /// Rounds that ran (for tests).
    var rounds: Int {
        roundsRun.load(ordering: .relaxed)
    }

    /// One round: beside the writer until a pass finds few new pages, then holding it.
    ///
    /// Each pass beside the writer copies what was committed during the one before, about a tenth of it on this
    /// machine under a full load of sign-ups (a pass copies pages about ten times as fast as the writer writes
    /// them). So the pass holding the writer copies only a few hundred pages, where a single pass before it would
    /// leave it a tenth of a second's pages: 20–40 ms with every write waiting.
    func round(writer: SQLiteTransactor.Lane) async throws {
        var log = try await Self.checkpoint(on: lane)
        for _ in 0..<Self.passesBeside {
            let next = try await Self.checkpoint(on: lane)
            // Negative when the WAL started over (a previous round finished, and a write came since).
            let newPages = next - log
            log = next
            if newPages < Self.fewPages { break }
        }
        // The passes beside the writer did not reach the WAL's end, so SQLite did not sync the pages they wrote; the
        // pass holding the writer would, and the writer would wait for all of them to reach the disk.
        if file >= 0 { _ = await Self.sync(file, on: lane) }
        _ = try await Self.checkpoint(on: writer)
        roundsRun.add(1, ordering: .relaxed)
    }

    /// At most this many passes beside the writer after the first, in a round.
    static let passesBeside = 4
    /// New pages that are few enough to copy holding the writer.
    static let fewPages = 256

    /// `fdatasync` on `lane`'s thread, off the concurrency threads.
    private static func sync(_ file: Int32, on lane: SQLiteTransactor.Lane) async -> Int32 {
        await withTaskExecutorPreference(lane.thread) { fdatasync(file) }
    }

    /// A `PASSIVE` checkpoint on `lane`, on its thread and holding its lock; returns the WAL's length in pages.
    private static func checkpoint(on lane: SQLiteTransactor.Lane) async throws -> Int {
        try await withTaskExecutorPreference(lane.thread) {
            try await lane.mutex.run {
                let row = try await lane.database.raw("PRAGMA wal_checkpoint(PASSIVE)").first()
                return try row?.decode(column: "log", as: Int.self) ?? 0
            }
        }
    }
}
