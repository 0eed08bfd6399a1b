import Foundation
import HearthCore
import SQLKit

// MARK: - AuditStore

extension SQLStore {
    /// Inserts `event` in the store's tenant. Events inserted at the same time share one multi-row `INSERT` (see
    /// ``auditInserts``): under load a request pays for a part of one statement instead of a statement of its own (on
    /// SQLite a savepoint and its release besides; on PostgreSQL a round trip and a commit). It returns once its
    /// event is stored, so the event is readable when the request that caused it is answered. A failure fails every
    /// event of the statement, which callers log.
    public func insertAuditEvent(_ event: AuditEvent) async throws {
        let row = AuditRow(tenantID: tenantID, event: event, details: try Self.detailsText(event.details))
        try await auditInserts.submit(row) { rows in
            try await self.work.writeSingleStatement { database in
                try await Self.exec(
                    database,
                    """
                    INSERT INTO audit_events (tenant_id, id, occurred_at, kind, uid, actor, actor_id, method, client_address, details)
                    VALUES \(SQLList(rows.map(\.values)))
                    """)
            }
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
                // `occurred_at <=` bounds the index's range on both backends, so that a page deep in the trail seeks to
                // its cursor; the rest is checked on the few rows of the cursor's millisecond.
                conditions.append(
                    """
                    occurred_at <= \(bind: cursor.milliseconds) \
                    AND (occurred_at < \(bind: cursor.milliseconds) OR (occurred_at = \(bind: cursor.milliseconds) AND id < \(bind: cursor.id)))
                    """)
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
            // Whole milliseconds divided by whole milliseconds: integer division on both backends, the day since 1970.
            try await Self.rows(
                database,
                """
                SELECT occurred_at / \(unsafeRaw: String(AuditDayCount.millisecondsPerDay)) AS day, kind, method, COUNT(*) AS events
                FROM audit_events
                WHERE tenant_id = \(bind: self.tenantID) AND kind IN (\(Self.kindList(kinds)))
                    AND occurred_at >= \(bind: StoredTime.milliseconds(from)) AND occurred_at < \(bind: StoredTime.milliseconds(to))
                GROUP BY occurred_at / \(unsafeRaw: String(AuditDayCount.millisecondsPerDay)), kind, method
                ORDER BY day, kind, method
                """
            ).map(Self.dayCount)
        }
    }

    public func keptAuditDayCounts(kinds: [AuditEvent.Kind], days: ClosedRange<Int>) async throws -> KeptAuditDayCounts {
        guard !kinds.isEmpty else { return KeptAuditDayCounts(counted: [:], counts: []) }
        return try await work.read { database in
            let range: SQLQueryString = """
                tenant_id = \(bind: self.tenantID) AND day >= \(bind: Int64(days.lowerBound)) AND day <= \(bind: Int64(days.upperBound)) \
                AND kind IN (\(Self.kindList(kinds)))
                """
            var counted: [Int: Set<AuditEvent.Kind>] = [:]
            for row in try await Self.rows(database, "SELECT day, kind FROM audit_counted_days WHERE \(range)") {
                counted[Int(try row.int64("day")), default: []].insert(AuditEvent.Kind(rawValue: try row.text("kind")))
            }
            // Only the counts of the days and kinds read above: a replica may have kept more between the two statements.
            let counts = try await Self.rows(database, "SELECT day, kind, method, events FROM audit_day_counts WHERE \(range)")
                .map(Self.dayCount).filter { counted[$0.day]?.contains($0.kind) ?? false }
            return KeptAuditDayCounts(counted: counted, counts: counts)
        }
    }

    public func keepAuditDayCounts(_ counts: [AuditDayCount], days: [Int], kinds: [AuditEvent.Kind]) async throws {
        // In one order whatever the caller's, so that replicas keeping overlapping days take their rows' locks alike.
        let pairs = Set(days).sorted().flatMap { day in Set(kinds.map(\.rawValue)).sorted().map { (day: Int64(day), kind: $0) } }
        guard !pairs.isEmpty else { return }
        try await work.write { database in
            // The days and kinds this call keeps: those no one kept before it (the primary key decides, so that replicas
            // counting the same day at once keep one count of it).
            var kept: Set<String> = []
            for chunk in Self.chunks(pairs) {
                let values = Self.commaList(chunk.map { "(\(bind: self.tenantID), \(bind: $0.day), \(bind: $0.kind))" })
                let inserted = try await Self.rows(
                    database, "INSERT INTO audit_counted_days (tenant_id, day, kind) VALUES \(values) ON CONFLICT DO NOTHING RETURNING day, kind")
                for row in inserted { kept.insert("\(try row.int64("day")) \(try row.text("kind"))") }
            }
            for chunk in Self.chunks(counts.filter { kept.contains("\($0.day) \($0.kind.rawValue)") }) {
                let values = Self.commaList(
                    chunk.map {
                        "(\(bind: self.tenantID), \(bind: Int64($0.day)), \(bind: $0.kind.rawValue), \(bind: $0.method), \(bind: Int64($0.count)))"
                    })
                try await Self.exec(database, "INSERT INTO audit_day_counts (tenant_id, day, kind, method, events) VALUES \(values)")
            }
        }
    }

    /// `items` in runs of 1,000, one `INSERT` each: at most five binds a row, well under either backend's limit.
    private static func chunks<Item>(_ items: [Item]) -> [ArraySlice<Item>] {
        stride(from: 0, to: items.count, by: 1_000).map { items[$0..<min($0 + 1_000, items.count)] }
    }

    /// `a, b, …` of `items` (at least one).
    private static func commaList(_ items: [SQLQueryString]) -> SQLQueryString {
        var list: SQLQueryString = ""
        for (index, item) in items.enumerated() { list = index == 0 ? item : "\(list), \(item)" }
        return list
    }

    /// The kinds' names, each bound, for `kind IN (…)`.
    private static func kindList(_ kinds: [AuditEvent.Kind]) -> SQLQueryString {
        commaList(kinds.map { "\(bind: $0.rawValue)" })
    }

    private static func dayCount(_ row: any SQLRow) throws -> AuditDayCount {
        AuditDayCount(
            day: Int(try row.int64("day")), kind: AuditEvent.Kind(rawValue: try row.text("kind")), method: try row.optionalText("method"),
            count: Int(try row.int64("events")))
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
        // The kept counts of every day that loses events go with them: the days before `before`'s, and that day itself
        // (counted again, without its deleted events, when a chart next shows it).
        let day = Int64(AuditDayCount.day(of: before))
        return try await work.write { database in
            let deleted = try await Self.rows(
                database, "DELETE FROM audit_events WHERE occurred_at < \(bind: StoredTime.milliseconds(before)) RETURNING id"
            ).count
            try await Self.exec(database, "DELETE FROM audit_day_counts WHERE day <= \(bind: day)")
            try await Self.exec(database, "DELETE FROM audit_counted_days WHERE day <= \(bind: day)")
            return deleted
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

/// An audit event as one row of `audit_events`, waiting in ``SQLStore/auditInserts`` for its statement.
struct AuditRow: Sendable {
    let tenantID: String
    let event: AuditEvent
    let details: String?

    /// The row's parenthesized values, in the order of the `INSERT`'s columns.
    var values: any SQLExpression {
        let values: [any Encodable & Sendable] = [
            tenantID, event.id, StoredTime.milliseconds(event.time), event.kind.rawValue, event.uid, event.actor.rawValue,
            event.actorID, event.method, event.clientAddress, details,
        ]
        let row: SQLQueryString = "(\(binds: values))"
        return row
    }
}
