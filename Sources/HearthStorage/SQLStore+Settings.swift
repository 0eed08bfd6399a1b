import HearthCore
import SQLKit

// MARK: - SettingStore

extension SQLStore {
    /// The value stored under `name`; one named by ``SecretSealer/sealedSettingPrefixes`` is opened.
    public func setting(_ name: String) async throws -> String? {
        let stored = try await work.readSingleStatement { database in
            try await Self.rows(database, "SELECT value FROM settings WHERE tenant_id = \(bind: self.tenantID) AND name = \(bind: name)")
                .first?.text("value")
        }
        return try stored.map { try openedSetting(name, $0) }
    }

    /// Stores `value` under `name`, replacing any previous value; `nil` removes the setting. A setting
    /// named by ``SecretSealer/sealedSettingPrefixes`` is sealed.
    public func setSetting(_ name: String, to value: String?) async throws {
        let value = try value.map { try sealedSetting(name, $0) }
        try await work.writeSingleStatement { database in
            if let value {
                try await Self.exec(
                    database,
                    """
                    INSERT INTO settings (tenant_id, name, value) VALUES (\(bind: self.tenantID), \(bind: name), \(bind: value))
                    ON CONFLICT (tenant_id, name) DO UPDATE SET value = excluded.value
                    """)
            } else {
                try await Self.exec(database, "DELETE FROM settings WHERE tenant_id = \(bind: self.tenantID) AND name = \(bind: name)")
            }
        }
    }

    public func insertSetting(_ name: String, value: String) async throws -> Bool {
        let value = try sealedSetting(name, value)
        return try await work.writeSingleStatement { database in
            let inserted = try await Self.rows(
                database,
                """
                INSERT INTO settings (tenant_id, name, value) VALUES (\(bind: self.tenantID), \(bind: name), \(bind: value))
                ON CONFLICT (tenant_id, name) DO NOTHING RETURNING name
                """)
            return !inserted.isEmpty
        }
    }

    public func settings(withPrefix prefix: String) async throws -> [String: String] {
        try await work.readSingleStatement { database in
            let rows = try await Self.rows(
                database,
                // CAST: PostgreSQL has substr(text, integer, integer) only, and the length binds as bigint.
                """
                SELECT name, value FROM settings
                WHERE tenant_id = \(bind: self.tenantID) AND substr(name, 1, CAST(\(bind: prefix.count) AS INTEGER)) = \(bind: prefix)
                """)
            var result: [String: String] = [:]
            for row in rows {
                let name = try row.text("name")
                result[name] = try self.openedSetting(name, try row.text("value"))
            }
            return result
        }
    }

    /// `value` as the row for `name` keeps it: sealed when the name says so and there is a ``sealer``.
    func sealedSetting(_ name: String, _ value: String) throws -> String {
        guard SecretSealer.isSealedSetting(name) else { return value }
        return try sealer.seal(value, context: Self.settingContext(name, tenant: tenantID))
    }

    /// The value of the row for `name`, opened when sealed.
    func openedSetting(_ name: String, _ stored: String) throws -> String {
        guard SecretSealer.isSealedSetting(name) else { return stored }
        return try sealer.open(stored, context: Self.settingContext(name, tenant: tenantID))
    }

    /// What a sealed setting is bound to: its name, and its tenant's for a tenant's (so that a sealed value copied into
    /// another tenant's row does not open there).
    static func settingContext(_ name: String, tenant: String) -> String {
        SecretSealer.settingContext(name: tenant.isEmpty ? name : "tenants/\(tenant)/\(name)")
    }
}
