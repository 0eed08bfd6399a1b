import HearthCore
import SQLKit

// MARK: - SettingStore

extension SQLStore {
    public func setting(_ name: String) async throws -> String? {
        try await transactor.readSingleStatement { database in
            try await Self.rows(database, "SELECT value FROM settings WHERE name = \(bind: name)")
                .first?.text("value")
        }
    }

    /// Stores `value` under `name`, replacing any previous value; `nil` removes the setting.
    public func setSetting(_ name: String, to value: String?) async throws {
        try await transactor.writeSingleStatement { database in
            if let value {
                try await Self.exec(
                    database,
                    """
                    INSERT INTO settings (name, value) VALUES (\(bind: name), \(bind: value))
                    ON CONFLICT (name) DO UPDATE SET value = excluded.value
                    """)
            } else {
                try await Self.exec(database, "DELETE FROM settings WHERE name = \(bind: name)")
            }
        }
    }

    public func insertSetting(_ name: String, value: String) async throws -> Bool {
        try await transactor.writeSingleStatement { database in
            let inserted = try await Self.rows(
                database,
                """
                INSERT INTO settings (name, value) VALUES (\(bind: name), \(bind: value))
                ON CONFLICT (name) DO NOTHING RETURNING name
                """)
            return !inserted.isEmpty
        }
    }

    public func settings(withPrefix prefix: String) async throws -> [String: String] {
        try await transactor.readSingleStatement { database in
            let rows = try await Self.rows(
                database,
                // CAST: PostgreSQL has substr(text, integer, integer) only, and the length binds as bigint.
                "SELECT name, value FROM settings WHERE substr(name, 1, CAST(\(bind: prefix.count) AS INTEGER)) = \(bind: prefix)")
            var result: [String: String] = [:]
            for row in rows {
                result[try row.text("name")] = try row.text("value")
            }
            return result
        }
    }
}
