import Foundation
import HearthCore
import SQLKit

// MARK: - AuthSessionStore

extension SQLStore {
    public func insertAuthSession(_ record: AuthSessionRecord) async throws {
        let data = try Self.encodeValues(record.values)
        let tenant = tenantID
        try await work.write { database in
            try await Self.exec(
                database, "DELETE FROM auth_sessions WHERE expires_at < \(bind: StoredTime.milliseconds(record.createdAt))")
            try await Self.exec(
                database,
                """
                INSERT INTO auth_sessions (tenant_id, id, kind, session_id, provider_id, continue_uri, created_at, expires_at, data)
                VALUES (\(bind: tenant), \(bind: record.id), \(bind: record.kind.rawValue), \(bind: record.sessionID), \(bind: record.providerID),
                        \(bind: record.continueURI), \(bind: StoredTime.milliseconds(record.createdAt)),
                        \(bind: StoredTime.milliseconds(record.expiresAt)), \(bind: data))
                """)
        }
    }

    /// One `DELETE … RETURNING` statement: the row is read and removed atomically, so a state or result
    /// code is used at most once even when two replicas receive it at the same moment.
    public func consumeAuthSession(id: String, kind: AuthSessionRecord.Kind) async throws -> AuthSessionRecord? {
        let tenant = tenantID
        let rows = try await work.writeSingleStatement { database in
            try await Self.rows(
                database,
                """
                DELETE FROM auth_sessions WHERE tenant_id = \(bind: tenant) AND id = \(bind: id) AND kind = \(bind: kind.rawValue)
                RETURNING id, kind, session_id, provider_id, continue_uri, created_at, expires_at, data
                """)
        }
        guard let row = rows.first else { return nil }
        return AuthSessionRecord(
            id: try row.text("id"), kind: AuthSessionRecord.Kind(rawValue: try row.text("kind")) ?? kind,
            sessionID: try row.text("session_id"), providerID: try row.text("provider_id"),
            continueURI: try row.text("continue_uri"), createdAt: try row.date("created_at"),
            expiresAt: try row.date("expires_at"), values: try Self.decodeValues(try row.text("data")))
    }

    public func deleteAuthSessions(expiredBefore date: Date) async throws -> Int {
        try await work.writeSingleStatement { database in
            try await Self.rows(
                database, "DELETE FROM auth_sessions WHERE expires_at < \(bind: StoredTime.milliseconds(date)) RETURNING id"
            ).count
        }
    }

    private static func encodeValues(_ values: [String: String]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(values), as: UTF8.self)
    }

    private static func decodeValues(_ text: String) throws -> [String: String] {
        try JSONDecoder().decode([String: String].self, from: Data(text.utf8))
    }
}
