import Foundation
import HearthCore
import HearthWire
import HearthWireMapping
import Hummingbird

/// `/console/users/import`: an editor uploads a Firebase CLI `auth:export` file (JSON or CSV) with the hash options its
/// password hashes were made with (the CLI's `--hash-algo`, `--hash-key`, …); the import runs in the background
/// (``ConsoleImportJobs``, kept in the database) and `/console/users/import/{job}`, on any replica, shows its progress,
/// refreshing itself without script, then what was imported and which users were skipped and why. The tenant switcher's `tenant` (the query, then the form's
/// hidden field) imports into that tenant's users, through its own store, as `…/tenants/{t}/accounts:batchCreate` does.
struct ConsoleImportPage<Context: RequestContext & RemoteAddressRequestContext>: Sendable {
    let console: ConsoleRoutes<Context>
    let jobs: ConsoleImportJobs
    var services: ConsoleServices { console.services }

    /// The largest file (with the form around it) an upload may carry.
    static var maximumUploadBytes: Int { 64 * 1024 * 1024 }

    /// The form's fields besides the file, in order: name, label, hint.
    static var hashFields: [(name: String, label: String, hint: String)] {
        [
            ("hashKey", "Key", "base64: --hash-key (signer key of SCRYPT, the HMAC key)"),
            ("saltSeparator", "Salt separator", "base64: --salt-separator"),
            ("rounds", "Rounds", "--rounds"),
            ("memoryCost", "Memory cost", "--mem-cost (N itself for STANDARD_SCRYPT)"),
            ("blockSize", "Block size", "--block-size"),
            ("parallelization", "Parallelization", "--parallelization"),
            ("dkLen", "Key length", "--dk-len"),
        ]
    }

    // MARK: The form

    @Sendable func form(_ request: Request, context: Context, identity: ConsoleIdentity) async throws -> Response {
        try await console.inSettingsScope(request.uri.queryParameters.get("tenant"), identity) { scope in
            ConsoleLayout.response(formPage(scope, identity: identity, fields: [:], notice: nil))
        }
    }

    func formPage(_ scope: ConsoleSettingsScope, identity: ConsoleIdentity, fields: [String: String], notice: ConsoleLayout.Notice?) -> String {
        func select(_ name: String, _ options: [(String, String)]) -> String {
            options.map { value, label in
                "<option value=\"\(value)\"\(fields[name] == value ? " selected" : "")>\(label)</option>"
            }.joined()
        }
        let algorithms = [("", "none: the file has no password hashes")] + PasswordHashImport.Algorithm.allCases.map { ($0.rawValue, $0.rawValue) }
        let parameters = Self.hashFields.map { name, label, hint in
            """
            <div class="field"><label for="\(name)">\(label) <span class="hint">\(hint)</span></label>
            <input type="\(name == "hashKey" || name == "saltSeparator" ? "text" : "number")" id="\(name)" name="\(name)" \
            value="\(ConsoleHTML.escape(fields[name] ?? ""))"\(name == "hashKey" || name == "saltSeparator" ? " autocomplete=\"off\"" : " min=\"0\"")></div>
            """
        }.joined(separator: "\n")
        return ConsoleLayout.page(
            title: "Import users", projectID: services.projectID, identity: identity, current: "/console/users", notice: notice,
            body: """
                <h1>Import users\(scope.tenantID == nil ? "" : " into " + ConsoleHTML.value(scope.name))</h1>
                <p>A file of the Firebase CLI's <code>auth:export</code> (JSON or CSV), or of <code>hearth users export</code> and this \
                console's export. At most \(Self.maximumUploadBytes / 1024 / 1024) MiB. Users whose uid exists already are skipped, \
                as are those the import refuses; the summary lists them with the reason.</p>
                <form class="stack panel" method="post" action="/console/users/import" enctype="multipart/form-data">\(ConsoleLayout.csrfField(identity))\(scope.field)
                <div class="field"><label for="file">File</label>
                <input type="file" id="file" name="file" accept=".json,.csv,application/json,text/csv" required></div>
                <div class="field"><label for="format">Format <span class="hint">by default from the file's name</span></label>
                <select id="format" name="format">\(select("format", [("", "from the name"), ("json", "JSON"), ("csv", "CSV")]))</select></div>
                <fieldset><legend>Password hashes</legend>
                <p class="hint">The options the hashes were made with, as <code>firebase auth:import</code> takes them: for a Firebase \
                project, its console's Authentication › Users › “Password hash parameters”; for a Hearth export, the options its \
                export page shows.</p>
                <div class="field"><label for="hashAlgorithm">Algorithm <span class="hint">--hash-algo</span></label>
                <select id="hashAlgorithm" name="hashAlgorithm">\(select("hashAlgorithm", algorithms))</select></div>
                <div class="pair">
                \(parameters)
                </div>
                <div class="field"><label for="hashInputOrder">Input order <span class="hint">--hash-input-order</span></label>
                <select id="hashInputOrder" name="hashInputOrder">\(select("hashInputOrder", [("", "the algorithm's default"), ("SALT_FIRST", "salt first"), ("PASSWORD_FIRST", "password first")]))</select></div>
                </fieldset>
                <button type="submit">Import</button>
                </form>
                """)
    }

    // MARK: The upload

    @Sendable func upload(_ request: Request, context: Context, identity: ConsoleIdentity, upload: ConsoleMultipart) async throws -> Response {
        try await console.inSettingsScope(upload.field("tenant"), identity) { scope in
            try await start(request, context: context, identity: identity, upload: upload, scope: scope)
        }
    }

    /// Checks the upload and its options, then starts its import into `scope`.
    func start(_ request: Request, context: Context, identity: ConsoleIdentity, upload: ConsoleMultipart, scope: ConsoleSettingsScope) async throws
        -> Response
    {
        var fields: [String: String] = [:]
        for name in ["format", "hashAlgorithm", "hashInputOrder"] + Self.hashFields.map(\.name) {
            fields[name] = upload.field(name)?.trimmingCharacters(in: .whitespaces)
        }
        func refuse(_ message: String) -> Response {
            ConsoleLayout.response(formPage(scope, identity: identity, fields: fields, notice: .error(message)), status: .badRequest)
        }
        guard let file = upload.part("file"), let fileName = file.fileName, !file.data.isEmpty else { return refuse("Choose a file to import.") }
        let format: AuthExportFile.Format
        switch fields["format"] ?? "" {
        case "":
            guard let named = AuthExportFile.Format(fileName: fileName) else {
                return refuse("The file's name ends in neither .json nor .csv: choose its format.")
            }
            format = named
        case let chosen:
            guard let known = AuthExportFile.Format(rawValue: chosen) else { return refuse("Choose JSON or CSV as the format.") }
            format = known
        }
        // Read through once, a user at a time, to refuse a file that cannot be read before anything is imported; the job
        // reads it again in batches.
        let survey: ConsoleImportJobs.Survey
        do {
            survey = try ConsoleImportJobs.survey(file.data, format: format)
        } catch {
            return refuse(error.description)
        }
        guard survey.total > 0 else { return refuse("The file holds no users.") }
        let options: AccountImport.Batch
        do {
            options = try Self.options(fields)
        } catch {
            return refuse(error.message)
        }
        let work = ConsoleImportJobs.Work(
            file: file.data, format: format, survey: survey, tenantID: scope.tenantID, scope: scope.useCases, options: options, fileName: fileName)
        do {
            let id = try await jobs.start(work, origin: console.origin(request, context, identity))
            return ConsoleLayout.redirect("/console/users/import/\(id)")
        } catch let error as ConsoleImportJobs.Refusal {
            return ConsoleLayout.response(
                formPage(scope, identity: identity, fields: fields, notice: .error(error.message)),
                status: error.message.hasPrefix("Another import") ? .conflict : .badRequest)
        }
    }

    /// The batch options the form's hash fields give (the CLI's flags, as `hearth users import` sends them).
    static func options(_ fields: [String: String]) throws(ConsoleImportJobs.Refusal) -> AccountImport.Batch {
        func text(_ name: String) -> String? { fields[name].flatMap { $0.isEmpty ? nil : $0 } }
        func number(_ name: String) throws(ConsoleImportJobs.Refusal) -> Int? {
            guard let text = text(name) else { return nil }
            guard let value = Int32(text), value >= 0 else {
                let label = hashFields.first { $0.name == name }?.label ?? name
                throw ConsoleImportJobs.Refusal("“\(label)” must be a whole number from 0 to 2147483647.")
            }
            return Int(value)
        }
        var batch = AccountImport.Batch(entries: [])
        guard let algorithm = text("hashAlgorithm") else { return batch }
        guard PasswordHashImport.Algorithm(rawValue: algorithm) != nil else {
            throw ConsoleImportJobs.Refusal("Choose a hash algorithm from the list.")
        }
        batch.hashAlgorithm = algorithm
        batch.signerKey = text("hashKey")
        batch.saltSeparator = text("saltSeparator")
        batch.rounds = try number("rounds")
        if algorithm == PasswordHashImport.Algorithm.standardScrypt.rawValue {
            batch.cpuMemCost = try number("memoryCost")
        } else {
            batch.memoryCost = try number("memoryCost")
        }
        batch.blockSize = try number("blockSize")
        batch.parallelization = try number("parallelization")
        batch.dkLen = try number("dkLen")
        switch text("hashInputOrder") {
        case nil: break
        case "SALT_FIRST": batch.passwordHashOrder = .saltAndPassword
        case "PASSWORD_FIRST": batch.passwordHashOrder = .passwordAndSalt
        default: throw ConsoleImportJobs.Refusal("Choose the input order from the list.")
        }
        return batch
    }

    // MARK: The job

    @Sendable func job(_ request: Request, context: Context, identity: ConsoleIdentity) async throws -> Response {
        let id = context.parameters.get("job") ?? ""
        // An unknown id, a malformed one and someone else's job get the same page.
        guard let job = try await jobs.job(id, for: identity) else {
            return ConsoleLayout.response(
                ConsoleLayout.page(
                    title: "No such import", projectID: services.projectID, identity: identity, current: "/console/users",
                    notice: .error("There is no such import of yours. The newest \(ConsoleImportJob.kept) imports are kept."),
                    body: "<h1>No such import</h1><p><a href=\"/console/users/import\">Import users</a></p>"),
                status: .notFound)
        }
        let tenantQuery = job.tenantID.map { "?tenant=\(ConsoleHTML.queryValue($0))" } ?? ""
        let into = job.tenantID.map { "Into tenant <code>\(ConsoleHTML.value($0))</code>. " } ?? ""
        var body = """
            <h1>Import of <bdi>\(ConsoleHTML.escape(job.fileName))</bdi></h1>
            <p class="muted" id="import-scope">\(into)Started \(ConsoleHTML.time(job.startedAt))\(job.finishedAt.map { ", finished \(ConsoleHTML.time($0))" } ?? "").</p>
            <div class="field"><label for="progress">Progress</label>
            <progress id="progress" max="\(job.total)" value="\(job.processed)">\(job.processed) of \(job.total)</progress></div>
            <p id="counts">\(job.processed) of \(job.total) user\(job.total == 1 ? "" : "s") read: \(job.imported) imported, \(job.skippedCount) skipped.</p>

            """
        var notice: ConsoleLayout.Notice?
        if job.isRunning {
            body += "<p class=\"muted\" role=\"status\">Running; this page reloads itself every second.</p>\n"
        } else {
            let summary = "Imported \(job.imported) of \(job.total) user\(job.total == 1 ? "" : "s"); \(job.skippedCount) skipped."
            notice = job.stopped.map { .error($0) } ?? .done(summary)
            body += "<p id=\"summary\">\(summary)</p>\n"
        }
        if !job.skipped.isEmpty {
            body += """
                <h2>Skipped</h2>
                \(job.skippedCount > job.skipped.count ? "<p class=\"muted\">The first \(job.skipped.count) of \(job.skippedCount).</p>" : "")
                <div class="scroll"><table id="skipped">
                <thead><tr><th scope="col">#</th><th scope="col">Uid</th><th scope="col">Reason</th></tr></thead>
                <tbody>

                """
            for skipped in job.skipped {
                body += """
                    <tr><td>\(skipped.position)</td><td><code>\(skipped.uid.isEmpty ? "<span class=\"muted\">none</span>" : ConsoleHTML.value(skipped.uid, limit: 128))</code></td>\
                    <td>\(ConsoleHTML.value(skipped.reason, limit: 300))</td></tr>

                    """
            }
            body += "</tbody></table></div>\n"
        }
        if !job.isRunning {
            body += """
                <p><a href="/console/users\(tenantQuery)">Back to the users</a> · <a href="/console/users/import\(tenantQuery)">Import another file</a></p>
                """
        }
        return ConsoleLayout.response(
            ConsoleLayout.page(
                title: job.isRunning ? "Importing" : "Import finished", projectID: services.projectID, identity: identity,
                current: "/console/users", notice: notice, refresh: job.isRunning ? 1 : nil, body: body))
    }
}
