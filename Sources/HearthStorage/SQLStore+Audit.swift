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
        try await auditEvents(matching: AuditFilter(uid: uid, kind: kind), after: cursor, limit: limit)
    }

    public func auditEvents(matching filter: AuditFilter, after cursor: AuditCursor?, limit: Int) async throws -> [AuditEvent] {
        guard limit > 0 else { return [] }
        return try await work.readSingleStatement { database in
            var conditions: [SQLQueryString] = ["tenant_id = \(bind: self.tenantID)"]
            if let uid = filter.uid { conditions.append("uid = \(bind: uid)") }
            if let kind = filter.kind { conditions.append("kind = \(bind: kind.rawValue)") }
            if let actorID = filter.actorID { conditions.append("actor_id = \(bind: actorID)") }
            if let from = filter.from { conditions.append("occurred_at >= \(bind: StoredTime.milliseconds(from))") }
            if let to = filter.to { conditions.append("occurred_at < \(bind: StoredTime.milliseconds(to))") }
            if let cursor {
                conditions.append(
                    "(occurred_at < \(bind: cursor.milliseconds) OR (occurred_at = \(bind: cursor.milliseconds) AND id < \(bind: cursor.id)))")
            }
            return try await Self.rows(
                database,
                """
                SELECT id, occurred_at, kind, uid, actor, actor_id, method, client_address, details FROM audit_events
                WHERE \(Self.conjunction(conditions)) ORDER BY occurred_at DESC, id DESC LIMIT \(bind: limit)
                """
            ).map(Self.auditEvent)
        }
    }

    public func auditDayCounts(kinds: [AuditEvent.Kind], from: Date, to: Date) async throws -> [AuditDayCount] {
        guard !kinds.isEmpty, from < to else { return [] }
        return try await work.readSingleStatement { database in
            var names: SQLQueryString = ""
            for (index, kind) in kinds.enumerated() { names = index == 0 ? "\(bind: kind.rawValue)" : "\(names), \(bind: kind.rawValue)" }
            // Whole milliseconds divided by whole milliseconds: integer division on both backends, the day since 1970.
            return try await Self.rows(
                database,
                """
                SELECT occurred_at / \(unsafeRaw: String(AuditDayCount.millisecondsPerDay)) AS day, kind, method, COUNT(*) AS events
                FROM audit_events
                WHERE tenant_id = \(bind: self.tenantID) AND kind IN (\(names))
                    AND occurred_at >= \(bind: StoredTime.milliseconds(from)) AND occurred_at < \(bind: StoredTime.milliseconds(to))
                GROUP BY occurred_at / \(unsafeRaw: String(AuditDayCount.millisecondsPerDay)), kind, method
                ORDER BY day, kind, method
                """
            ).map { row in
                AuditDayCount(
                    day: Int(try row.int64("day")), kind: AuditEvent.Kind(rawValue: try row.text("kind")), method: try row.optionalText("method"),
                    count: Int(try row.int64("events")))
            }
        }
    }

    /// `a AND b AND …` of `conditions` (at least one).
    private static func conjunction(_ conditions: [SQLQueryString]) -> SQLQueryString {
        var predicate: SQLQueryString = ""
        for (index, condition) in conditions.enumerated() {
            predicate = index == 0 ? condition : "\(predicate) AND \(condition)"
        }
        return predicate
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
