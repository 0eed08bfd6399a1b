import Foundation
import HearthCore

/// The console's imports, each running in the background in batches of ``AccountImport/maxBatch`` while its page shows
/// how far it got. Kept in this server's memory only: a restart forgets them (the users imported stay imported), and
/// another replica does not know them. The newest ``kept`` are kept; one runs at a time.
actor ConsoleImportJobs {
    /// A user the import left out, and why (``AccountImport``'s message, or the console's for a uid given twice).
    struct Skipped: Sendable, Equatable {
        /// 1-based, in the file's order.
        var position: Int
        var uid: String
        var reason: String
    }

    /// One import as its page shows it.
    struct Job: Sendable {
        let id: String
        /// The operator who started it: only they (and owners) see it.
        let actorID: String
        /// The tenant imported into, `nil` for the project.
        let tenantID: String?
        let fileName: String
        let startedAt: Date
        let total: Int
        var processed = 0
        var imported = 0
        var skippedCount = 0
        /// The first ``ConsoleImportJobs/listed`` of the skipped users.
        var skipped: [Skipped] = []
        var finishedAt: Date?
        /// Why it stopped before the end (the store failed); `nil` when it ran through.
        var stopped: String?

        var isRunning: Bool { finishedAt == nil }
    }

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

    static let kept = 20
    static let listed = 1_000

    private var jobs: [Job] = []
    private let services: ConsoleServices

    init(services: ConsoleServices) { self.services = services }

    /// The job `id` if `identity` may see it: the operator who started it, or an owner.
    func job(_ id: String, for identity: ConsoleIdentity) -> Job? {
        jobs.first { $0.id == id && ($0.actorID == identity.actorID || identity.role.permits(.owner)) }
    }

    /// Checks the hash options against the file's first batch, then starts the import in the background and returns
    /// its id. Throws ``Refusal`` when another import is running or the options are refused.
    func start(_ work: Work, origin: AuditOrigin) throws(Refusal) -> String {
        guard !jobs.contains(where: \.isRunning) else {
            throw Refusal("Another import is running on this server; wait for it to finish, then try again.")
        }
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
        let job = Job(
            id: String(ConsoleSignIn.makeToken().prefix(32)), actorID: origin.actorID ?? "", tenantID: work.tenantID, fileName: work.fileName,
            startedAt: services.clock.now, total: work.entries.count)
        jobs.append(job)
        if jobs.count > Self.kept, let oldest = jobs.firstIndex(where: { !$0.isRunning }) { jobs.remove(at: oldest) }
        Task { await run(job.id, work, origin: origin) }
        return job.id
    }

    struct Refusal: Error, Sendable {
        var message: String
        init(_ message: String) { self.message = message }
    }

    // MARK: Running

    private func run(_ id: String, _ work: Work, origin: AuditOrigin) async {
        let (kept, repeated) = Self.unique(work.entries)
        skip(id, repeated)
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
                skip(id, failures.map { Skipped(position: chunk[$0.index].position, uid: chunk[$0.index].entry.uid, reason: $0.message) })
                update(id) {
                    $0.processed += chunk.count
                    $0.imported += chunk.count - failures.count
                }
            } catch {
                update(id) { $0.stopped = "The import stopped after \($0.processed) of \($0.total) users: the store failed (\(error))." }
                break
            }
        }
        update(id) {
            $0.processed = $0.stopped == nil ? $0.total : $0.processed
            $0.finishedAt = services.clock.now
        }
        guard let job = jobs.first(where: { $0.id == id }) else { return }
        var details = [
            "imported": String(job.imported), "failed": String(job.skippedCount), "source": "console", "format": work.format,
        ]
        if job.stopped != nil { details["stopped"] = "true" }
        await work.scope.accounts.audit.record(
            AuditEvent(
                time: services.clock.now, kind: .adminUsersImported, uid: nil, actor: .administrator, actorID: origin.actorID,
                clientAddress: origin.address, details: details))
    }

    private func update(_ id: String, _ change: (inout Job) -> Void) {
        guard let index = jobs.firstIndex(where: { $0.id == id }) else { return }
        change(&jobs[index])
    }

    private func skip(_ id: String, _ skipped: [Skipped]) {
        update(id) {
            $0.skippedCount += skipped.count
            $0.processed += skipped.count
            $0.skipped += skipped.prefix(max(0, Self.listed - $0.skipped.count))
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
