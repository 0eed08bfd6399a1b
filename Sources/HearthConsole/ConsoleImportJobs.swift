import Foundation
import HearthCore

/// The console's imports, each running in the background in batches of ``AccountImport/maxBatch`` while its page shows
/// how far it got. The jobs are kept in the database (``ConsoleImportJobStore``): any replica shows a job's page, one
/// import runs at a time across them, and a job whose server stopped shows as stopped once its heartbeat is older than
/// ``ConsoleImportJob/heartbeatBound`` (the users imported stay imported). The replica that took the upload runs it,
/// writing its progress after every batch.
actor ConsoleImportJobs {
    typealias Skipped = ConsoleImportJob.Skipped
    typealias Job = ConsoleImportJob

    /// What an import is given: the file's users, in order, the hash options every batch shares, and where they go (the
    /// tenant switcher's scope: its store, its password hashing, its audit trail).
    struct Work: Sendable {
        var entries: [AccountImport.Entry]
        var tenantID: String?
        var scope: ConsoleSignInSettings.Scope
        var options: AccountImport.Batch
        var fileName: String
        var format: String
    }

    private let services: ConsoleServices
    /// How old a running job's heartbeat may be before its server counts as stopped.
    private let heartbeatBound: TimeInterval

    init(services: ConsoleServices, heartbeatBound: TimeInterval = ConsoleImportJob.heartbeatBound) {
        self.services = services
        self.heartbeatBound = heartbeatBound
    }

    private var store: any ConsoleImportJobStore { services.store }

    /// The job `id` as it stands now, if `identity` may see it: the operator who started it, or an owner.
    func job(_ id: String, for identity: ConsoleIdentity) async throws -> Job? {
        guard ConsoleImportJob.isJobID(id), let job = try await store.consoleImportJob(id: id) else { return nil }
        guard job.actorID == identity.actorID || identity.role.permits(.owner) else { return nil }
        return job.seen(at: services.clock.now, bound: heartbeatBound)
    }

    /// Checks the hash options against the file's first batch, then starts the import in the background and returns
    /// its id. Throws ``Refusal`` when another import is running or the options are refused.
    func start(_ work: Work, origin: AuditOrigin) async throws -> String {
        if work.options.hashAlgorithm == nil, work.entries.contains(where: { $0.passwordHash != nil }) {
            throw Refusal("The file holds password hashes: choose the hash algorithm they were made with, and its parameters.")
        }
        var first = work.options
        first.entries = Array(Self.unique(work.entries).kept.prefix(AccountImport.maxBatch).map(\.entry))
        if !first.entries.isEmpty {
            do {
                _ = try AccountImport(first, now: services.clock.now, budget: services.hashing.budget)
            } catch let error as HearthError {
                throw Refusal("The hash options were refused: \(Self.message(error))")
            } catch {
                throw Refusal("The hash options were refused.")
            }
        }
        let now = services.clock.now
        let job = Job(
            id: String(ConsoleSignIn.makeToken().prefix(32)), tenantID: work.tenantID, actorID: origin.actorID ?? "", fileName: work.fileName,
            format: work.format, startedAt: now, total: work.entries.count)
        guard try await store.startConsoleImportJob(job, staleBefore: now.addingTimeInterval(-heartbeatBound)) else {
            throw Refusal("Another import is running; wait for it to finish, then try again.")
        }
        Task { await run(job, work, origin: origin) }
        return job.id
    }

    struct Refusal: Error, Sendable {
        var message: String
        init(_ message: String) { self.message = message }
    }

    // MARK: Running

    private func run(_ started: Job, _ work: Work, origin: AuditOrigin) async {
        var job = started
        let (kept, repeated) = Self.unique(work.entries)
        job.skip(repeated)
        var listed = 0
        var claimed = true
        for start in stride(from: 0, to: kept.count, by: AccountImport.maxBatch) {
            let chunk = Array(kept[start..<min(start + AccountImport.maxBatch, kept.count)])
            var batch = work.options
            batch.entries = chunk.map(\.entry)
            do {
                let failures: [AccountImport.Failure]
                do {
                    let importer = try AccountImport(batch, now: services.clock.now, budget: services.hashing.budget)
                    failures = try await importer.run(into: work.scope.store, passwords: work.scope.accounts.passwords)
                } catch let error as HearthError {
                    // The whole batch refused (its checks are the first batch's, so this is rare): each of its users skipped.
                    failures = chunk.indices.map { AccountImport.Failure(index: $0, message: Self.message(error)) }
                }
                job.skip(failures.map { Skipped(position: chunk[$0.index].position, uid: chunk[$0.index].entry.uid, reason: $0.message) })
                job.processed += chunk.count - failures.count
                job.imported += chunk.count - failures.count
            } catch {
                job.stopped = "The import stopped after \(job.processed) of \(job.total) users: the store failed (\(error))."
                break
            }
            claimed = await record(&job, listed: &listed)
            guard claimed else { break }
        }
        if claimed {
            job.processed = job.stopped == nil ? job.total : job.processed
            job.finishedAt = services.clock.now
            _ = await record(&job, listed: &listed)
        }
        var details = [
            "imported": String(job.imported), "failed": String(job.skippedCount), "source": "console", "format": work.format,
        ]
        if job.stopped != nil || !claimed { details["stopped"] = "true" }
        await work.scope.accounts.audit.record(
            AuditEvent(
                time: services.clock.now, kind: .adminUsersImported, uid: nil, actor: .administrator, actorID: origin.actorID,
                clientAddress: origin.address, details: details))
    }

    /// Writes `job`'s progress with a new heartbeat (its skipped users when more than the `listed` written before);
    /// `false` when the job is no longer this server's to run (another replica found it stopped), or the store failed.
    private func record(_ job: inout Job, listed: inout Int) async -> Bool {
        job.heartbeatAt = services.clock.now
        let changed = job.skipped.count != listed
        listed = job.skipped.count
        do {
            return try await store.recordConsoleImportProgress(job, skippedChanged: changed)
        } catch {
            return false
        }
    }

    /// The entries with their 1-based positions, a uid's first appearance kept and its later ones skipped (one import's
    /// batches must not hold a uid twice, and a later copy would only fail against the first).
    static func unique(_ entries: [AccountImport.Entry]) -> (kept: [(position: Int, entry: AccountImport.Entry)], repeated: [Skipped]) {
        var first: [String: Int] = [:]
        var kept: [(position: Int, entry: AccountImport.Entry)] = []
        var repeated: [Skipped] = []
        for (offset, entry) in entries.enumerated() {
            let position = offset + 1
            if !entry.uid.isEmpty, let earlier = first[entry.uid] {
                repeated.append(Skipped(position: position, uid: entry.uid, reason: "the uid is given earlier in the file (user \(earlier))"))
                continue
            }
            if !entry.uid.isEmpty { first[entry.uid] = position }
            kept.append((position, entry))
        }
        return (kept, repeated)
    }

    /// A whole batch's refusal in words: the message after the error's name (`INVALID_HASH_KEY : A non-empty …`).
    static func message(_ error: HearthError) -> String {
        guard let detail = error.detail else { return error.code.rawValue }
        guard let colon = detail.range(of: " : ") else { return detail }
        return String(detail[colon.upperBound...])
    }
}
