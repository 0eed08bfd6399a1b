import Foundation
import HTTPTypes
import HearthCore
import HearthWire
import HearthWireMapping
import Hummingbird
import NIOCore

/// `/console/users/export`: every user as a Firebase CLI `auth:export` file (JSON or CSV), password hashes included as
/// `hearth users export` writes them, for owners only (the hashes are the most sensitive thing the server keeps). The
/// file is written as it is read, a page of users at a time, so that a million users never sit in memory at once. The
/// tenant switcher's `tenant` (the query, then the form's hidden field) exports that tenant's users, from its own store.
struct ConsoleExportPage<Context: RequestContext & RemoteAddressRequestContext>: Sendable {
    let console: ConsoleRoutes<Context>
    var services: ConsoleServices { console.services }

    /// Users read from the store at a time.
    static var pageSize: Int { 1_000 }

    /// The `firebase auth:import` / `hearth users import` options that read the hashes of an export.
    var hashOptions: String {
        let options = services.hashing.hasher.exportOptions
        return "--hash-algo \(options.algorithm.rawValue) --mem-cost \(options.cpuMemCost ?? 0) --block-size \(options.blockSize ?? 8) "
            + "--parallelization \(options.parallelization ?? 1) --dk-len \(options.dkLen ?? 32)"
    }

    @Sendable func page(_ request: Request, context: Context, identity: ConsoleIdentity) async throws -> Response {
        try await console.inSettingsScope(request.uri.queryParameters.get("tenant"), identity) { scope in
            page(scope, identity: identity)
        }
    }

    func page(_ scope: ConsoleSettingsScope, identity: ConsoleIdentity) -> Response {
        ConsoleLayout.response(
            ConsoleLayout.page(
                title: "Export users", projectID: services.projectID, identity: identity, current: "/console/users",
                body: """
                    <h1>Export users\(scope.tenantID == nil ? "" : " of " + ConsoleHTML.value(scope.name))</h1>
                    <p>Every user\(scope.tenantID == nil ? "" : " of this tenant"), as the Firebase CLI's <code>auth:export</code> writes them. The file holds password hashes: keep it \
                    as you keep the database. A hash made by this server's scrypt is exported with its salt; a hash imported from \
                    elsewhere and not yet redone at the user's sign-in is left out (that user needs a password reset elsewhere). \
                    CSV has columns for Google, Facebook, Twitter and GitHub only; JSON keeps every provider and phone second factors \
                    (TOTP factors never leave the server).</p>
                    <section class="panel"><h2>Importing the file elsewhere</h2>
                    <p>These options read the password hashes, with <code>firebase auth:import</code>, <code>hearth users import</code> \
                    or this console's import:</p>
                    <pre id="hash-options">\(ConsoleHTML.escape(hashOptions))</pre></section>
                    <form class="stack panel" method="post" action="/console/users/export">\(ConsoleLayout.csrfField(identity))\(scope.field)
                    <div class="field"><label for="format">Format</label>
                    <select id="format" name="format"><option value="json">JSON</option><option value="csv">CSV</option></select></div>
                    <div><input type="checkbox" id="withoutSecondFactors" name="withoutSecondFactors" value="true"> \
                    <label for="withoutSecondFactors">Leave phone second factors out <span class="hint">firebase auth:import refuses them</span></label></div>
                    <button type="submit">Download</button>
                    </form>
                    """))
    }

    @Sendable func download(_ request: Request, context: Context, identity: ConsoleIdentity, form: [String: String]) async throws -> Response {
        try await console.inSettingsScope(form["tenant"], identity) { scope in
            await download(request, context: context, identity: identity, form: form, scope: scope)
        }
    }

    func download(_ request: Request, context: Context, identity: ConsoleIdentity, form: [String: String], scope: ConsoleSettingsScope) async
        -> Response
    {
        guard let format = AuthExportFile.Format(rawValue: form["format"] ?? "") else {
            return ConsoleLayout.response(
                ConsoleLayout.page(
                    title: "Export users", projectID: services.projectID, identity: identity, current: "/console/users",
                    notice: .error("Choose JSON or CSV as the format."),
                    body: "<p><a href=\"/console/users/export\(scope.query)\">Export users</a></p>"),
                status: .badRequest)
        }
        let withoutSecondFactors = form["withoutSecondFactors"] == "true"
        let origin = console.origin(request, context, identity)
        // The hashes leave the server as soon as the answer starts: the event is recorded first.
        await scope.useCases.accounts.audit.record(
            AuditEvent(
                time: services.clock.now, kind: .adminUsersExported, uid: nil, actor: .administrator, actorID: origin.actorID,
                clientAddress: origin.address,
                details: ["format": format.rawValue, "secondFactors": withoutSecondFactors ? "left-out" : "included"]))
        let day = ConsoleHTML.time(services.clock.now).prefix(10).replacingOccurrences(of: "-", with: "")
        var headers = ConsoleLayout.headers
        headers[.contentType] = format == .json ? "application/json; charset=utf-8" : "text/csv; charset=utf-8"
        // A tenant's id is ASCII letters, digits and hyphens (TenantRecord.isValidID), so it stands in the name as it is.
        let name = "hearth-users-" + (scope.tenantID.map { $0 + "-" } ?? "") + day
        headers[.contentDisposition] = "attachment; filename=\"\(name).\(format.rawValue)\""
        let store = scope.useCases.store
        let hasher = services.hashing.hasher
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                var after: String?
                var first = true
                if format == .json { try await writer.write(ByteBuffer(string: "{\"users\":[")) }
                repeat {
                    let page = try await store.users(after: after, limit: Self.pageSize)
                    after = page.count == Self.pageSize ? page.last?.uid : nil
                    let users = page.map {
                        var user = ExportedUser(AdminInput.exported($0, hasher: hasher))
                        if withoutSecondFactors { user.mfaInfo = nil }
                        return user
                    }
                    var chunk = ""
                    switch format {
                    case .json:
                        for user in users {
                            chunk += (first ? "\n" : ",\n") + String(decoding: try encoder.encode(user), as: UTF8.self)
                            first = false
                        }
                    case .csv:
                        chunk = AuthExportFile(users: users).csv()
                    }
                    if !chunk.isEmpty { try await writer.write(ByteBuffer(string: chunk)) }
                } while after != nil
                if format == .json { try await writer.write(ByteBuffer(string: "\n]}\n")) }
                try await writer.finish(nil)
            })
    }
}
