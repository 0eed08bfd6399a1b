import SQLKit

extension HearthSchema {
    /// The console's activity page: the audit trail by kind and by operator, each paged newest first from an index, and
    /// its charts counted per day from the kind's index alone (`method` in it, so the rows are never read).
    static let addAuditFilterIndexes = SchemaMigration(
        "2026-12-04-add-audit-filter-indexes",
        [
            "CREATE INDEX audit_events_kind ON audit_events (tenant_id, kind, occurred_at, id, method)",
            "CREATE INDEX audit_events_actor ON audit_events (tenant_id, actor_id, occurred_at, id)",
        ])
}
