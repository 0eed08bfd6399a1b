import Foundation
import HearthCore
import HearthWire
import HearthWireMapping

/// The console's imports, each running in the background in batches of ``AccountImport/maxBatch`` while its page shows
/// how far it got. The jobs are kept in the database (``ConsoleImportJobStore``): any replica shows a job's page, one
/// import runs at a time across them, and a job whose server stopped shows as stopped once its heartbeat is older than
/// ``ConsoleImportJob/heartbeatBound`` (the users imported stay imported). The replica that took the upload runs it,
/// writing its progress after every batch.
actor ConsoleImportJobs {
    typealias Skipped = ConsoleImportJob.Skipped
    typealias Job = ConsoleImportJob

    /// What an import is given: the file, what ``survey(_:format:)`` found in it, the hash options every batch shares,
    /// and where the users go (the tenant switcher's scope: its store, its password hashing, its audit trail).
    struct Work: Sendable {
        /// The upload's bytes: a slice of its mapped file, readable while this holds it (after the file is removed too).
        /// The users are read from it a batch at a time, never all at once.
        var file: Data
        var format: AuthExportFile.Format
        var survey: Survey
        var tenantID: String?
        var scope: ConsoleSignInSettings.Scope
        var options: AccountImport.Batch
        var fileName: String
    }

    /// What a whole first reading of a file finds: how many users it holds, and whether any has a password hash.
    struct Survey: Sendable {
        var total = 0
        var hasPasswordHashes = false
    }

    /// Reads the whole file once, one user at a time, so that a file that cannot be read is refused before anything is
    /// imported; the error's description is the sentence to show.
    static func survey(_ file: Data, format: AuthExportFile.Format) throws(AuthExportFile.ReadError) -> Survey {
        var reader = try AuthExportFile.UserReader(file, format: format)
        var survey = Survey()
        while let user = try reader.next() {
            survey.total += 1
            survey.hasPasswordHashes = survey.hasPasswordHashes || user.passwordHash != nil
        }
        return survey
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
        if work.options.hashAlgorithm == nil, work.survey.hasPasswordHashes {
            throw Refusal("The file holds password hashes: choose the hash algorithm they were made with, and its parameters.")
        }
        var first = work.options
        do {
            var batches = try Batches(work)
            first.entries = try batches.next()?.kept.map(\.entry) ?? []
        } catch {
            throw Refusal(error.description)
        }
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
            format: work.format.rawValue, startedAt: now, total: work.survey.total)
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
        var listed = 0
        var claimed = true
        do {
            var batches = try Batches(work)
            while let (chunk, repeated) = try batches.next() {
                job.skip(repeated)
                if !chunk.isEmpty { try await importBatch(chunk, work, into: &job) }
                claimed = await record(&job, listed: &listed)
                guard claimed else { break }
            }
        } catch let error as AuthExportFile.ReadError {
            // The file was read through before the import started: its bytes changed since.
            job.stopped = "The import stopped after \(job.processed) of \(job.total) users: the file could not be read again (\(error))."
        } catch {
            job.stopped = "The import stopped after \(job.processed) of \(job.total) users: the store failed (\(error))."
        }
        if claimed {
            job.processed = job.stopped == nil ? job.total : job.processed
            job.finishedAt = services.clock.now
            _ = await record(&job, listed: &listed)
        }
        var details = [
            "imported": String(job.imported), "failed": String(job.skippedCount), "source": "console", "format": work.format.rawValue,
        ]
        if job.stopped != nil || !claimed { details["stopped"] = "true" }
        await work.scope.accounts.audit.record(
            AuditEvent(
                time: services.clock.now, kind: .adminUsersImported, uid: nil, actor: .administrator, actorID: origin.actorID,
                clientAddress: origin.address, details: details))
    }

    /// Imports one batch, counting its users in `job` (those the import refuses as skipped, with the reason); throws
    /// only when the store fails.
    private func importBatch(_ chunk: [(position: Int, entry: AccountImport.Entry)], _ work: Work, into job: inout Job) async throws {
        var batch = work.options
        batch.entries = chunk.map(\.entry)
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

    /// A file's users in batches of at most ``AccountImport/maxBatch`` kept ones, each with its 1-based position in the
    /// file: a uid's first appearance is kept and its later ones skipped (one import's batches must not hold a uid twice,
    /// and a later copy would only fail against the first). Only the uids seen are remembered across batches.
    struct Batches: Sendable {
        private var reader: AuthExportFile.UserReader
        private var first: [String: Int] = [:]

        init(_ work: Work) throws(AuthExportFile.ReadError) {
            reader = try AuthExportFile.UserReader(work.file, format: work.format)
        }

        /// The next batch (its kept users, and the repeated ones skipped while gathering it); `nil` at the end.
        mutating func next() throws(AuthExportFile.ReadError) -> (kept: [(position: Int, entry: AccountImport.Entry)], repeated: [Skipped])? {
            var kept: [(position: Int, entry: AccountImport.Entry)] = []
            var repeated: [Skipped] = []
            while kept.count < AccountImport.maxBatch, let user = try reader.next() {
                let position = reader.count
                let entry = AccountImport.Entry(user.userInfo)
                if !entry.uid.isEmpty, let earlier = first[entry.uid] {
                    repeated.append(Skipped(position: position, uid: entry.uid, reason: "the uid is given earlier in the file (user \(earlier))"))
                    continue
                }
                if !entry.uid.isEmpty { first[entry.uid] = position }
                kept.append((position, entry))
            }
            return kept.isEmpty && repeated.isEmpty ? nil : (kept, repeated)
        }
    }

    /// A whole batch's refusal in words: the message after the error's name (`INVALID_HASH_KEY : A non-empty …`).
    static func message(_ error: HearthError) -> String {
        guard let detail = error.detail else { return error.code.rawValue }
        guard let colon = detail.range(of: " : ") else { return detail }
        return String(detail[colon.upperBound...])
    }
}
