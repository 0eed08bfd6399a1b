import Foundation
import HearthCore
import SQLKit

// MARK: - AuditStore

extension SQLStore {
    public func insertAuditEvent(_ event: AuditEvent) async throws {
        let details = try Self.detailsText(event.details)
        try await work.writeSingleStatement { database in
            try await Self.exec(
                database,
                """
                INSERT INTO audit_events (tenant_id, id, occurred_at, kind, uid, actor, actor_id, method, client_address, details)
                VALUES (\(bind: self.tenantID), \(bind: event.id), \(bind: StoredTime.milliseconds(event.time)), \(bind: event.kind.rawValue), \(bind: event.uid),
                    \(bind: event.actor.rawValue), \(bind: event.actorID), \(bind: event.method), \(bind: event.clientAddress), \(bind: details))
                """)
        }
    }

    public func auditEvents(uid: String?, kind: AuditEvent.Kind?, after cursor: AuditCursor?, limit: Int) async throws -> [AuditEvent] {
        guard limit > 0 else { return [] }
        return try await work.readSingleStatement { database in
            var conditions: [SQLQueryString] = ["tenant_id = \(bind: self.tenantID)"]
            if let uid { conditions.append("uid = \(bind: uid)") }
            if let kind { conditions.append("kind = \(bind: kind.rawValue)") }
            if let cursor {
                conditions.append(
                    "(occurred_at < \(bind: cursor.milliseconds) OR (occurred_at = \(bind: cursor.milliseconds) AND id < \(bind: cursor.id)))")
            }
            var predicate: SQLQueryString = ""
            for (index, condition) in conditions.enumerated() {
                predicate = index == 0 ? "WHERE \(condition)" : "\(predicate) AND \(condition)"
            }
            return try await Self.rows(
                database,
                """
                SELECT id, occurred_at, kind, uid, actor, actor_id, method, client_address, details FROM audit_events \(predicate)
                ORDER BY occurred_at DESC, id DESC LIMIT \(bind: limit)
                """
            ).map(Self.auditEvent)
        }
    }

    private static func auditEvent(_ row: any SQLRow) throws -> AuditEvent {
        AuditEvent(
            id: try row.text("id"), time: try row.date("occurred_at"), kind: AuditEvent.Kind(rawValue: try row.text("kind")),
            uid: try row.optionalText("uid"), actor: AuditEvent.Actor(rawValue: try row.text("actor")) ?? .system,
            actorID: try row.optionalText("actor_id"),
            method: try row.optionalText("method"), clientAddress: try row.optionalText("client_address"),
            details: try details(try row.optionalText("details")))
    }

    @discardableResult
    public func deleteAuditEvents(before: Date) async throws -> Int {
        try await work.writeSingleStatement { database in
            try await Self.rows(
                database, "DELETE FROM audit_events WHERE occurred_at < \(bind: StoredTime.milliseconds(before)) RETURNING id"
            ).count
        }
    }

    /// The details as a JSON object with sorted keys; `nil` (stored as NULL) when there are none.
    private static func detailsText(_ details: [String: String]) throws -> String? {
        guard !details.isEmpty else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(details), as: UTF8.self)
    }

    private static func details(_ text: String?) throws -> [String: String] {
        guard let text else { return [:] }
        do {
            return try JSONDecoder().decode([String: String].self, from: Data(text.utf8))
        } catch {
            throw SQLStoreError.undecodableColumn("details")
        }
    }
}
