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

extension HearthSchema {
    /// The activity charts' completed days, counted once and kept: `audit_counted_days` says which days (since 1970,
    /// UTC) were counted for which kinds (a day without events too), `audit_day_counts` what was counted, per method
    /// (NULL: none). Both per tenant; pruning the events deletes their days' rows.
    static let addAuditDayCounts = SchemaMigration(
        "2026-12-05-add-audit-day-counts",
        [
            """
            CREATE TABLE audit_counted_days (
                tenant_id TEXT NOT NULL,
                day BIGINT NOT NULL,
                kind TEXT NOT NULL,
                CONSTRAINT audit_counted_days_pkey PRIMARY KEY (tenant_id, day, kind)
            )
            """,
            """
            CREATE TABLE audit_day_counts (
                tenant_id TEXT NOT NULL,
                day BIGINT NOT NULL,
                kind TEXT NOT NULL,
                method TEXT,
                events BIGINT NOT NULL
            )
            """,
            "CREATE INDEX audit_day_counts_day ON audit_day_counts (tenant_id, day, kind)",
        ])
}
