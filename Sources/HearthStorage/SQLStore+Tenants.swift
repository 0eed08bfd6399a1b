import Foundation
import HearthCore
import SQLKit

// MARK: - TenantStore

extension SQLStore {
    /// The tables whose rows belong to one tenant, children before parents: ``deleteTenant(id:)`` empties them of
    /// the tenant's rows (`audit_events` is left out: the operator's record outlives the tenant).
    static let tenantOwnedTables = [
        "provider_links", "refresh_sessions", "action_codes", "users", "mfa_sessions", "phone_verifications", "auth_sessions",
        "settings",
    ]

    public func createTenant(_ tenant: TenantRecord) async throws {
        let values: [any Encodable & Sendable] = try Self.tenantValues(tenant)
        let inserted = try await work.writeSingleStatement { database in
            try await Self.exists(
                database,
                "INSERT INTO tenants (\(Self.tenantColumns)) VALUES (\(binds: values)) ON CONFLICT DO NOTHING RETURNING tenant_id")
        }
        if !inserted { throw StoreConflict.uid }
    }

    public func tenant(id: String) async throws -> TenantRecord? {
        guard UserText.isStorable(id) else { return nil }
        return try await work.readSingleStatement { database in
            try await Self.rows(database, "SELECT \(Self.tenantColumns) FROM tenants WHERE tenant_id = \(bind: id)")
                .first.map(Self.tenant(from:))
        }
    }

    public func tenants(after id: String?, limit: Int) async throws -> [TenantRecord] {
        guard limit > 0 else { return [] }
        return try await work.readSingleStatement { database in
            let bytes = SQLDialectQuirks.byteCollation(on: database)
            let after: SQLQueryString = id.map { "WHERE tenant_id \(bytes) > \(bind: $0)" } ?? ""
            return try await Self.rows(
                database,
                "SELECT \(Self.tenantColumns) FROM tenants \(after) ORDER BY tenant_id \(bytes) LIMIT \(bind: Int64(limit))"
            ).map(Self.tenant(from:))
        }
    }

    @discardableResult
    public func updateTenant(id: String, _ mutate: @escaping @Sendable (inout TenantRecord) throws -> Void) async throws -> TenantRecord {
        guard UserText.isStorable(id) else { throw HearthError(.tenantNotFound) }
        return try await work.write { database in
            let locking = SQLDialectQuirks.lockForUpdate(on: database)
            guard
                let current = try await Self.rows(
                    database, "SELECT \(Self.tenantColumns) FROM tenants WHERE tenant_id = \(bind: id) \(locking)"
                ).first.map(Self.tenant(from:))
            else { throw HearthError(.tenantNotFound, reason: "updateTenant: no such tenant") }
            var updated = current
            try mutate(&updated)
            guard updated.id == current.id else { throw HearthError(.internalError, reason: "updateTenant: mutate must not change the id") }
            try await Self.exec(
                database,
                """
                UPDATE tenants SET display_name = \(bind: updated.displayName), disabled = \(bind: updated.disabled),
                    config = \(bind: try Self.configText(updated.settings))
                WHERE tenant_id = \(bind: id)
                """)
            return updated
        }
    }

    @discardableResult
    public func deleteTenant(id: String) async throws -> Bool {
        guard UserText.isStorable(id), !id.isEmpty else { return false }
        defer { accountCache?.forgetAll() }
        return try await work.write { database in
            guard try await Self.exists(database, "DELETE FROM tenants WHERE tenant_id = \(bind: id) RETURNING tenant_id") else {
                return false
            }
            for table in Self.tenantOwnedTables {
                try await Self.exec(database, "DELETE FROM \(ident: table) WHERE tenant_id = \(bind: id)")
            }
            return true
        }
    }
}

// MARK: - Rows

extension SQLStore {
    static let tenantColumns: SQLQueryString = "tenant_id, display_name, disabled, config, created_at"

    static func tenantValues(_ tenant: TenantRecord) throws -> [any Encodable & Sendable] {
        for text in [tenant.id, tenant.displayName] where !UserText.isStorable(text) {
            throw HearthError(.invalidArgument, detail: "Text values must not contain NUL characters.", reason: "NUL in a tenant")
        }
        return [tenant.id, tenant.displayName, tenant.disabled, try configText(tenant.settings), StoredTime.milliseconds(tenant.createdAt)]
    }

    static func configText(_ settings: ProjectSettings.Overrides) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(settings), as: UTF8.self)
    }

    static func tenant(from row: any SQLRow) throws -> TenantRecord {
        guard let settings = try? JSONDecoder().decode(ProjectSettings.Overrides.self, from: Data(try row.text("config").utf8)) else {
            throw SQLStoreError.undecodableColumn("config")
        }
        return TenantRecord(
            id: try row.text("tenant_id"), displayName: try row.text("display_name"), disabled: try row.bool("disabled"),
            settings: settings, createdAt: try row.date("created_at"))
    }
}
