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
}
