import Foundation

/// One of the console's imports of users (`/console/users/import`), kept in the database so that every replica shows
/// its page and one import runs at a time across them. The replica that took the upload runs it and writes its progress
/// after every batch (``heartbeatAt`` with it); a job whose heartbeat is older than ``heartbeatBound`` lost its server
/// and counts as stopped (``seen(at:bound:)``).
public struct ConsoleImportJob: Sendable, Equatable {
    /// A user the import left out, and why.
    public struct Skipped: Sendable, Equatable, Codable {
        /// 1-based, in the file's order.
        public var position: Int
        public var uid: String
        public var reason: String

        /// `uid` and `reason` cut to ``maximumText`` characters: what the page shows of them, and no more is kept.
        public init(position: Int, uid: String, reason: String) {
            self.position = position
            self.uid = String(uid.prefix(Self.maximumText))
            self.reason = String(reason.prefix(Self.maximumText))
        }

        public static var maximumText: Int { 300 }
    }

    /// 32 lower-case hex digits (``isJobID(_:)``).
    public var id: String
    /// The tenant imported into, `nil` for the project.
    public var tenantID: String?
    /// The operator who started it (``OperatorRecord/actorID``): only they and owners see it.
    public var actorID: String
    public var fileName: String
    /// `json` or `csv`.
    public var format: String
    public var startedAt: Date
    public var total: Int
    public var processed = 0
    public var imported = 0
    public var skippedCount = 0
    /// The first ``listed`` of the skipped users.
    public var skipped: [Skipped] = []
    public var finishedAt: Date?
    /// Why it stopped before the end; `nil` when it ran through (or runs).
    public var stopped: String?
    /// When its server last wrote its progress.
    public var heartbeatAt: Date

    /// The newest jobs kept; older finished ones are deleted when a new one starts.
    public static var kept: Int { 20 }
    /// How many skipped users a job lists.
    public static var listed: Int { 1_000 }
    /// How old a running job's heartbeat may be before its server counts as stopped.
    public static var heartbeatBound: TimeInterval { 60 }

    public init(
        id: String, tenantID: String?, actorID: String, fileName: String, format: String, startedAt: Date, total: Int, heartbeatAt: Date? = nil
    ) {
        self.id = id
        self.tenantID = tenantID
        self.actorID = actorID
        self.fileName = Self.storable(fileName)
        self.format = format
        self.startedAt = startedAt
        self.total = total
        self.heartbeatAt = heartbeatAt ?? startedAt
    }

    public var isRunning: Bool { finishedAt == nil }

    /// The job as it stands at `now`: a running one whose heartbeat is older than `bound` is stopped, at its last
    /// heartbeat.
    public func seen(at now: Date, bound: TimeInterval = heartbeatBound) -> ConsoleImportJob {
        guard isRunning, heartbeatAt < now.addingTimeInterval(-bound) else { return self }
        var stopped = self
        stopped.finishedAt = heartbeatAt
        stopped.stopped = Self.abandoned(processed: processed, total: total)
        return stopped
    }

    /// Adds `more` to the skipped users (counted, listed up to ``listed``); each is processed too.
    public mutating func skip(_ more: [Skipped]) {
        skippedCount += more.count
        processed += more.count
        skipped += more.prefix(max(0, Self.listed - skipped.count))
    }

    /// What a job whose server stopped says.
    public static func abandoned(processed: Int, total: Int) -> String {
        "The server running this import stopped after \(processed) of \(total) users; the users imported stay imported."
    }

    /// Whether `text` has the form of a job's id: 32 lower-case hex digits.
    public static func isJobID(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// A file's name as kept: no control characters (NUL included), at most 255 characters.
    static func storable(_ name: String) -> String {
        String(String.UnicodeScalarView(name.unicodeScalars.filter { $0.properties.generalCategory != .control }).prefix(255))
    }
}

/// Where the console's import jobs are kept: the server's, not a tenant's (a job names its tenant), shared by every
/// replica on the database.
public protocol ConsoleImportJobStore: Sendable {
    /// Adds `job` unless another job runs: one whose heartbeat is at or after `staleBefore`; a running one whose heartbeat
    /// is older is marked stopped (``ConsoleImportJob/abandoned(processed:total:)``) first. Decided in one transaction,
    /// so of parallel starts on any replicas exactly one wins. Keeps the newest ``ConsoleImportJob/kept`` jobs (older
    /// finished ones are deleted). Returns whether `job` was added.
    func startConsoleImportJob(_ job: ConsoleImportJob, staleBefore: Date) async throws -> Bool
    /// The job `id`; `nil` when there is none.
    func consoleImportJob(id: String) async throws -> ConsoleImportJob?
    /// Writes `job`'s progress (counts, finish, heartbeat; the skipped users when `skippedChanged`) while it is still
    /// running in the store.
    /// Returns `false`, writing nothing, when the job is gone or no longer running (another replica found its
    /// heartbeat too old and marked it stopped): its runner should stop.
    func recordConsoleImportProgress(_ job: ConsoleImportJob, skippedChanged: Bool) async throws -> Bool
}
