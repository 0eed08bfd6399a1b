import Foundation
import HearthCore
import Hummingbird

/// Which tenant a settings page shows (the `tenant` query parameter or form field; none: the project), with the
/// tenants the switcher lists.
struct ConsoleSettingsScope: Sendable {
    /// The tenant's id, `nil` for the project.
    var tenantID: String?
    var tenant: TenantRecord?
    var tenants: [TenantRecord]
    var useCases: ConsoleSignInSettings.Scope

    /// At most this many tenants are listed in the switcher; a later one is reached by its `tenant=` link.
    static let listed = 200

    /// The scope `tenantID` names (empty or `nil`: the project's): `INVALID_TENANT_ID`, `TENANT_NOT_FOUND`.
    static func named(_ tenantID: String?, in settings: ConsoleSignInSettings) async throws -> ConsoleSettingsScope {
        let tenantID = tenantID.flatMap { $0.isEmpty ? nil : $0 }
        let tenant = try await tenantID.asyncMap { try await settings.tenants.tenant($0) }
        let tenants = try await settings.tenants.store.tenants(after: nil, limit: listed)
        return ConsoleSettingsScope(tenantID: tenantID, tenant: tenant, tenants: tenants, useCases: try await settings.scope(tenantID))
    }

    /// What the pages' titles call the scope.
    var name: String { tenant.map { "tenant \($0.displayName)" } ?? "the project" }

    /// `?tenant=…` for links and redirects, empty for the project.
    var query: String { tenantID.map { "?tenant=\(ConsoleHTML.queryValue($0))" } ?? "" }

    /// `&tenant=…` to follow a query, empty for the project.
    var andQuery: String { tenantID.map { "&tenant=\(ConsoleHTML.queryValue($0))" } ?? "" }

    /// The hidden field that carries the scope in a form.
    var field: String {
        tenantID.map { "<input type=\"hidden\" name=\"tenant\" value=\"\(ConsoleHTML.escape($0))\">" } ?? ""
    }

    /// The tenant switcher: a form that reloads `path` with the chosen tenant (no script: the button submits it).
    func switcher(path: String) -> String {
        var options = "<option value=\"\"\(tenantID == nil ? " selected" : "")>Project (default)</option>"
        var listed = tenants
        if let tenant, !listed.contains(where: { $0.id == tenant.id }) { listed.append(tenant) }
        for record in listed {
            options += """
                <option value="\(ConsoleHTML.escape(record.id))"\(record.id == tenantID ? " selected" : "")>\
                \(ConsoleHTML.escape(record.displayName)) (\(ConsoleHTML.escape(record.id)))</option>
                """
        }
        return """
            <form class="tenant-switcher" method="get" action="\(path)" id="tenant-switcher">\
            <label for="tenant">Tenant</label><select id="tenant" name="tenant">\(options)</select>\
            <button type="submit" class="secondary">Show</button></form>
            """
    }
}

extension ConsoleRoutes {
    /// Answers with `body` in the scope `tenantID` names; a tenant id that names none gets the not-found page.
    func inSettingsScope(_ tenantID: String?, _ identity: ConsoleIdentity, _ body: (ConsoleSettingsScope) async throws -> Response)
        async throws -> Response
    {
        let scope: ConsoleSettingsScope
        do {
            scope = try await .named(tenantID, in: services.signInSettings)
        } catch let error as HearthError {
            return notFound(identity, ConsoleMessages.settingsText(error))
        }
        return try await body(scope)
    }
}

/// A value an operator typed that the console refuses before any rule of the settings sees it.
struct ConsoleInputError: Error {
    let message: String
}

/// The form fields of the settings pages, read with the limits every field has: a length, and no control characters
/// (line breaks only where a field has lines).
enum ConsoleFormInput {
    /// A one-line field's text, trimmed; `nil` when empty.
    static func line(_ form: [String: String], _ name: String, label: String, limit: Int = 2_048) throws -> String? {
        let text = (form[name] ?? "").trimmingCharacters(in: .whitespaces)
        try check(text, label: label, limit: limit, lines: false)
        return text.isEmpty ? nil : text
    }

    /// A multi-line field's text (certificates, lists), trimmed; `nil` when empty.
    static func lines(_ form: [String: String], _ name: String, label: String, limit: Int = 16_384) throws -> String? {
        let text = (form[name] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        try check(text, label: label, limit: limit, lines: true)
        return text.isEmpty ? nil : text
    }

    /// A list field's entries (one a line, or separated by commas), trimmed; `nil` when there are none.
    static func list(_ form: [String: String], _ name: String, label: String, limit: Int = 16_384) throws -> [String]? {
        let entries = (try lines(form, name, label: label, limit: limit) ?? "").split(whereSeparator: { $0.isNewline || $0 == "," })
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return entries.isEmpty ? nil : entries
    }

    /// Whether a checkbox was ticked.
    static func flag(_ form: [String: String], _ name: String) -> Bool { form[name] == "on" }

    static func check(_ text: String, label: String, limit: Int, lines: Bool) throws {
        guard text.count <= limit else { throw ConsoleInputError(message: "\(label) is too long: at most \(limit) characters.") }
        let allowed: Set<Unicode.Scalar> = lines ? ["\n", "\r", "\t"] : []
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && !allowed.contains($0) }) else {
            throw ConsoleInputError(message: "\(label) may not hold control characters.")
        }
    }
}
