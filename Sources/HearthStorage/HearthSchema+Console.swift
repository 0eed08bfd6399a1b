import SQLKit

extension HearthSchema {
    /// The console's operators and their sessions: the server's, not a tenant's, and apart from the project's users.
    static let addConsoleOperators = SchemaMigration(
        "2026-12-02-add-console-operators",
        [
            // console_operators: who signs in to /console (`hearth console add-operator`). `email` lower-cased;
            // `password_hash` in the server's own format; `totp_secret` the authenticator's secret, sealed with the
            // key-encryption key when the server has one; `recovery_codes` a JSON array of the unused codes' SHA-256
            // hashes; `last_code_step` the TOTP period of the last code taken (a code is taken once). Times: ms since 1970.
            """
            CREATE TABLE console_operators (
                operator_id TEXT NOT NULL,
                email TEXT NOT NULL,
                role TEXT NOT NULL,
                password_hash TEXT NOT NULL,
                totp_secret TEXT NOT NULL,
                recovery_codes TEXT NOT NULL,
                last_code_step BIGINT,
                created_at BIGINT NOT NULL,
                last_sign_in_at BIGINT,
                CONSTRAINT console_operators_pkey PRIMARY KEY (operator_id),
                CONSTRAINT console_operators_email_unique UNIQUE (email)
            )
            """,
            // console_sessions: a browser signed in to the console, or half-way (`stage` 'awaiting-code'), keyed by the
            // SHA-256 of the cookie's token (the token itself is never stored).
            """
            CREATE TABLE console_sessions (
                token_hash TEXT NOT NULL,
                operator_id TEXT NOT NULL,
                stage TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                last_seen_at BIGINT NOT NULL,
                CONSTRAINT console_sessions_pkey PRIMARY KEY (token_hash),
                CONSTRAINT console_sessions_operator_fkey FOREIGN KEY (operator_id) REFERENCES console_operators (operator_id)
                    ON DELETE CASCADE
            )
            """,
            "CREATE INDEX console_sessions_operator ON console_sessions (operator_id)",
            "CREATE INDEX console_sessions_last_seen_at ON console_sessions (last_seen_at)",
        ])
}

extension HearthSchema {
    /// The console's imports of users, shared by every replica: one runs at a time, its runner writes its progress after
    /// every batch, any replica shows its page.
    static let addConsoleImportJobs = SchemaMigration(
        "2026-12-06-add-console-import-jobs",
        [
            // console_import_jobs: `tenant_id` the tenant imported into ('' for the project); `actor_id` the operator's
            // (`operator:<e-mail>`); `skipped` a JSON array of the first 1,000 users left out ({position, uid, reason});
            // `finished_at` NULL while it runs, `stopped` why it ended early; `heartbeat_at` refreshed by the runner after
            // every batch (a running job with an old one lost its server). Times: ms since 1970.
            """
            CREATE TABLE console_import_jobs (
                job_id TEXT NOT NULL,
                tenant_id TEXT NOT NULL,
                actor_id TEXT NOT NULL,
                file_name TEXT NOT NULL,
                format TEXT NOT NULL,
                started_at BIGINT NOT NULL,
                total BIGINT NOT NULL,
                processed BIGINT NOT NULL,
                imported BIGINT NOT NULL,
                skipped_count BIGINT NOT NULL,
                skipped TEXT NOT NULL,
                finished_at BIGINT,
                stopped TEXT,
                heartbeat_at BIGINT NOT NULL,
                CONSTRAINT console_import_jobs_pkey PRIMARY KEY (job_id)
            )
            """,
            "CREATE INDEX console_import_jobs_started_at ON console_import_jobs (started_at, job_id)",
        ])
}
