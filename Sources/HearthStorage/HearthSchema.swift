import SQLKit

/// The schema of a Hearth database: an ordered, append-only list of migrations.
///
/// Column types are `TEXT`, `BIGINT` and `BOOLEAN` only, so the same statements run on SQLite and
/// PostgreSQL. Instants are `BIGINT` milliseconds since 1970. Every constraint is named, because
/// PostgreSQL reports violations by constraint name (see ``SQLDialectQuirks/conflict(from:)``).
enum HearthSchema {
    /// Bookkeeping: which migrations this database has had applied, and when (ms since 1970).
    /// Created before any migration runs, with `IF NOT EXISTS`.
    static let createMigrationsTable: SQLQueryString = """
        CREATE TABLE IF NOT EXISTS schema_migrations (
            name TEXT NOT NULL,
            applied_at BIGINT NOT NULL,
            CONSTRAINT schema_migrations_pkey PRIMARY KEY (name)
        )
        """

    /// All migrations, oldest first. Append only.
    static let migrations: [SchemaMigration] = [
        SchemaMigration(
            "2026-11-22-create-accounts",
            [
                // users: one row per account. `email` is stored lower-cased. `password_hash` is the
                // self-describing hash (NULL: no password). `custom_attributes` is a JSON object as
                // text. `valid_since`: tokens issued before it are refused. `scheduled_deletion_at`:
                // when the anonymous-account clean-up may delete the row (NULL: never).
                """
                CREATE TABLE users (
                    uid TEXT NOT NULL,
                    email TEXT,
                    email_verified BOOLEAN NOT NULL DEFAULT FALSE,
                    display_name TEXT,
                    photo_url TEXT,
                    phone_number TEXT,
                    password_hash TEXT,
                    password_updated_at BIGINT,
                    disabled BOOLEAN NOT NULL DEFAULT FALSE,
                    custom_attributes TEXT,
                    custom_auth BOOLEAN NOT NULL DEFAULT FALSE,
                    created_at BIGINT NOT NULL,
                    last_login_at BIGINT,
                    valid_since BIGINT NOT NULL,
                    scheduled_deletion_at BIGINT,
                    CONSTRAINT users_pkey PRIMARY KEY (uid),
                    CONSTRAINT users_email_unique UNIQUE (email),
                    CONSTRAINT users_phone_number_unique UNIQUE (phone_number)
                )
                """,
                // The clean-up looks users up by deletion date.
                "CREATE INDEX users_scheduled_deletion_at ON users (scheduled_deletion_at)",
                // provider_links: identity-provider accounts linked to a user (google.com, apple.com…).
                // A provider identity (provider_id, raw_id) belongs to at most one user, and a user has
                // at most one link per provider. Deleted with the user.
                """
                CREATE TABLE provider_links (
                    uid TEXT NOT NULL,
                    provider_id TEXT NOT NULL,
                    raw_id TEXT NOT NULL,
                    email TEXT,
                    display_name TEXT,
                    photo_url TEXT,
                    phone_number TEXT,
                    screen_name TEXT,
                    CONSTRAINT provider_links_pkey PRIMARY KEY (provider_id, raw_id),
                    CONSTRAINT provider_links_uid_provider_unique UNIQUE (uid, provider_id),
                    CONSTRAINT provider_links_uid_fkey FOREIGN KEY (uid) REFERENCES users (uid) ON DELETE CASCADE
                )
                """,
                // Account lookup by any e-mail compares provider e-mails lower-cased.
                "CREATE INDEX provider_links_email_lower ON provider_links (lower(email))",
                // refresh_sessions: the server side of refresh tokens, keyed by the token's hex SHA-256
                // (the token itself is never stored). Deleted with the user.
                """
                CREATE TABLE refresh_sessions (
                    token_hash TEXT NOT NULL,
                    uid TEXT NOT NULL,
                    sign_in_provider TEXT NOT NULL,
                    auth_time BIGINT NOT NULL,
                    created_at BIGINT NOT NULL,
                    extra_claims TEXT,
                    CONSTRAINT refresh_sessions_pkey PRIMARY KEY (token_hash),
                    CONSTRAINT refresh_sessions_uid_fkey FOREIGN KEY (uid) REFERENCES users (uid) ON DELETE CASCADE
                )
                """,
                "CREATE INDEX refresh_sessions_uid ON refresh_sessions (uid)",
            ]),
        SchemaMigration(
            "2026-11-22-create-signing-keys",
            [
                // signing_keys: token-signing keys with their lifecycle instants. `private_key_pem`
                // is a secret (PKCS#8 PEM); `certificate_pem` is the published self-signed X.509.
                """
                CREATE TABLE signing_keys (
                    kid TEXT NOT NULL,
                    algorithm TEXT NOT NULL,
                    private_key_pem TEXT NOT NULL,
                    certificate_pem TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    activates_at BIGINT NOT NULL,
                    retires_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    CONSTRAINT signing_keys_pkey PRIMARY KEY (kid)
                )
                """
            ]),
        SchemaMigration(
            "2026-11-22-create-settings",
            [
                // settings: small named values kept across restarts.
                """
                CREATE TABLE settings (
                    name TEXT NOT NULL,
                    value TEXT NOT NULL,
                    CONSTRAINT settings_pkey PRIMARY KEY (name)
                )
                """
            ]),
        SchemaMigration(
            "2026-11-22-create-rate-counters",
            [
                // rate_counters: abuse counters shared by replicas, one row per key and fixed window.
                // `window_start`/`window_end` are ms since 1970 (end exclusive); `hits` is the count.
                """
                CREATE TABLE rate_counters (
                    counter_key TEXT NOT NULL,
                    window_start BIGINT NOT NULL,
                    window_end BIGINT NOT NULL,
                    hits BIGINT NOT NULL,
                    CONSTRAINT rate_counters_pkey PRIMARY KEY (counter_key, window_start)
                )
                """,
                // Pruning deletes by window end.
                "CREATE INDEX rate_counters_window_end ON rate_counters (window_end)",
            ]),
        SchemaMigration(
            "2026-11-22-create-auth-sessions",
            [
                // auth_sessions: browser sign-ins between two requests (createAuthUri → redirect handler →
                // signInWithIdp), so that any replica can answer the next step. `id` is the OAuth state
                // (kind 'pending') or the one-time result code (kind 'completed'); `session_id` is the
                // client's sessionId; `data` is a JSON object of the step's values (PKCE verifier, nonce,
                // provider tokens — secrets, deleted when consumed). `expires_at` in ms since 1970.
                """
                CREATE TABLE auth_sessions (
                    id TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    session_id TEXT NOT NULL,
                    provider_id TEXT NOT NULL,
                    continue_uri TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    data TEXT NOT NULL,
                    CONSTRAINT auth_sessions_pkey PRIMARY KEY (id)
                )
                """,
                // Pruning deletes by expiry.
                "CREATE INDEX auth_sessions_expires_at ON auth_sessions (expires_at)",
            ]),
        SchemaMigration(
            "2026-11-24-create-login-failures",
            [
                // login_failures: the password lockout's memory, one row per subject ('account:<e-mail>' or
                // 'address:<client address>'), shared by replicas. `failures` counts attempts not taken back
                // by a success; `last_failure_at` and `locked_until` (NULL: no wait) are ms since 1970.
                """
                CREATE TABLE login_failures (
                    subject TEXT NOT NULL,
                    failures BIGINT NOT NULL,
                    last_failure_at BIGINT NOT NULL,
                    locked_until BIGINT,
                    CONSTRAINT login_failures_pkey PRIMARY KEY (subject)
                )
                """,
                // Pruning deletes by last failure.
                "CREATE INDEX login_failures_last_failure_at ON login_failures (last_failure_at)",
            ]),
        SchemaMigration(
            "2026-11-25-create-email-actions",
            [
                // action_codes: the e-mail action codes outstanding (password reset, e-mail verification and
                // change, e-mail sign-in), keyed by the code's hex SHA-256 (the code itself is only in the
                // mail). `kind` is the requestType; `uid` is NULL for a sign-in to an address without an
                // account. Deleted with the user. Instants in ms since 1970.
                """
                CREATE TABLE action_codes (
                    code_hash TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    uid TEXT,
                    email TEXT NOT NULL,
                    new_email TEXT,
                    continue_url TEXT,
                    language_code TEXT,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    CONSTRAINT action_codes_pkey PRIMARY KEY (code_hash),
                    CONSTRAINT action_codes_uid_fkey FOREIGN KEY (uid) REFERENCES users (uid) ON DELETE CASCADE
                )
                """,
                // Voiding a user's codes looks them up by uid (so does the cascade); pruning by expiry.
                "CREATE INDEX action_codes_uid ON action_codes (uid)",
                "CREATE INDEX action_codes_expires_at ON action_codes (expires_at)",
                // mail_queue: mails waiting for delivery, and delivered or given-up ones until pruned.
                // `text_body`/`html_body` hold one-time links (sealed when the store has a key) and are set
                // to NULL once the mail is sent or given up (an empty body is stored as NULL too).
                // `next_attempt_at`: the queue time, a back-off, or a replica's claim. `sent_at`/`failed_at`:
                // NULL while the mail may still go. `last_error`: why the last attempt failed.
                """
                CREATE TABLE mail_queue (
                    id TEXT NOT NULL,
                    recipient TEXT NOT NULL,
                    subject TEXT NOT NULL,
                    text_body TEXT,
                    html_body TEXT,
                    purpose TEXT NOT NULL,
                    language_code TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    attempts BIGINT NOT NULL,
                    next_attempt_at BIGINT NOT NULL,
                    sent_at BIGINT,
                    failed_at BIGINT,
                    last_error TEXT,
                    CONSTRAINT mail_queue_pkey PRIMARY KEY (id)
                )
                """,
                // Claiming asks for the waiting mails that are due, oldest first: a partial index of those.
                """
                CREATE INDEX mail_queue_due ON mail_queue (next_attempt_at, id)
                WHERE sent_at IS NULL AND failed_at IS NULL
                """,
                // The outbox lists the newest mails.
                "CREATE INDEX mail_queue_created_at ON mail_queue (created_at)",
                // users.email_link_sign_in: set once the user signed in with an e-mail link.
                "ALTER TABLE users ADD COLUMN email_link_sign_in BOOLEAN NOT NULL DEFAULT FALSE",
            ]),
        SchemaMigration(
            "2026-11-25-create-audit-events",
            [
                // audit_events: what happened to accounts and settings (sign-ups, sign-ins and failed ones, links,
                // password and e-mail changes, deletions, administrators' changes, key rotations), never with a
                // secret. `kind` is a dotted name (`user.signed_in`); `uid` NULL when no account is concerned (not
                // a foreign key: events outlive the account); `actor` is user, administrator or system, `actor_id`
                // which administrator's credential; `details` a JSON object of strings or NULL. `occurred_at` in ms since 1970; pruned by it after the retention.
                """
                CREATE TABLE audit_events (
                    id TEXT NOT NULL,
                    occurred_at BIGINT NOT NULL,
                    kind TEXT NOT NULL,
                    uid TEXT,
                    actor TEXT NOT NULL,
                    actor_id TEXT,
                    method TEXT,
                    client_address TEXT,
                    details TEXT,
                    CONSTRAINT audit_events_pkey PRIMARY KEY (id)
                )
                """,
                // Listing pages newest first, all events or one account's; pruning by time.
                "CREATE INDEX audit_events_occurred_at ON audit_events (occurred_at, id)",
                "CREATE INDEX audit_events_uid ON audit_events (uid, occurred_at, id)",
            ]),
        SchemaMigration(
            "2026-11-26-index-user-queries",
            [
                // accounts:query sorts by one key, then by uid, both in byte order with a missing value
                // smallest, and pages with OFFSET: one index per key, declared exactly as the ORDER BY is
                // written (SQLStore.ordering), so a page is read from the index in either direction and
                // skipped rows cost index entries, not table rows. PostgreSQL needs COLLATE "C" and NULLS
                // FIRST spelled out; SQLite compares bytes and puts NULL first already. By uid alone SQLite
                // reads its primary key; PostgreSQL's follows the database's locale, hence users_uid_bytes.
                "\(DialectStatement(sqlite: "SELECT 1", postgreSQL: #"CREATE INDEX users_uid_bytes ON users (uid COLLATE "C")"#))",
                """
                \(DialectStatement(
                    sqlite: "CREATE INDEX users_display_name_uid ON users (display_name, uid)",
                    postgreSQL: #"CREATE INDEX users_display_name_uid ON users (display_name COLLATE "C" NULLS FIRST, uid COLLATE "C")"#))
                """,
                """
                \(DialectStatement(
                    sqlite: "CREATE INDEX users_created_at_uid ON users (created_at, uid)",
                    postgreSQL: #"CREATE INDEX users_created_at_uid ON users (created_at, uid COLLATE "C")"#))
                """,
                """
                \(DialectStatement(
                    sqlite: "CREATE INDEX users_last_login_at_uid ON users (last_login_at, uid)",
                    postgreSQL: #"CREATE INDEX users_last_login_at_uid ON users (last_login_at NULLS FIRST, uid COLLATE "C")"#))
                """,
                """
                \(DialectStatement(
                    sqlite: "CREATE INDEX users_email_uid ON users (email, uid)",
                    postgreSQL: #"CREATE INDEX users_email_uid ON users (email COLLATE "C" NULLS FIRST, uid COLLATE "C")"#))
                """,
            ]),
        SchemaMigration(
            "2026-11-27-create-phone-verifications",
            [
                // phone_verifications: phone sign-in's sessions (`kind` 'code': a code sent, waiting to be entered) and
                // temporary proofs ('proof': a number verified while another account had it). Keyed by the hex SHA-256
                // of the sessionInfo or proof the client holds (never stored); `code_hash` is the code's SHA-256
                // salted with the sessionInfo, NULL for a proof. `attempts_left`: wrong codes still allowed, 0 once
                // the session is used or void. Instants in ms since 1970; pruned by expiry.
                """
                CREATE TABLE phone_verifications (
                    verification_key TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    phone_number TEXT NOT NULL,
                    code_hash TEXT,
                    attempts_left BIGINT NOT NULL,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    CONSTRAINT phone_verifications_pkey PRIMARY KEY (verification_key)
                )
                """,
                "CREATE INDEX phone_verifications_expires_at ON phone_verifications (expires_at)",
            ]),
        SchemaMigration(
            "2026-11-28-create-sms-queue",
            [
                // sms_queue: text messages (phone sign-in's codes) waiting for a gateway, and sent or given-up ones until
                // pruned; the mail queue's columns and rules. `body` holds the code (sealed when the store has a key) and
                // is set to NULL once the message is sent or given up. `channel`: 'sms' or 'whatsapp'. `expires_at`: when
                // the code stops working, after which the message is given up rather than sent. `gateway_message_id`:
                // the gateway's id for a sent message.
                """
                CREATE TABLE sms_queue (
                    id TEXT NOT NULL,
                    recipient TEXT NOT NULL,
                    body TEXT,
                    channel TEXT NOT NULL,
                    purpose TEXT NOT NULL,
                    language_code TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    attempts BIGINT NOT NULL,
                    next_attempt_at BIGINT NOT NULL,
                    sent_at BIGINT,
                    failed_at BIGINT,
                    last_error TEXT,
                    gateway_message_id TEXT,
                    CONSTRAINT sms_queue_pkey PRIMARY KEY (id)
                )
                """,
                """
                CREATE INDEX sms_queue_due ON sms_queue (next_attempt_at, id)
                WHERE sent_at IS NULL AND failed_at IS NULL
                """,
                "CREATE INDEX sms_queue_created_at ON sms_queue (created_at)",
            ]),
        SchemaMigration(
            "2026-11-29-add-second-factors",
            [
                // users.second_factors: the enrolled second factors and recovery-code hashes as JSON (NULL: none); a TOTP
                // factor's secret in it is sealed when the server has a key-encryption key.
                "ALTER TABLE users ADD COLUMN second_factors TEXT",
                // refresh_sessions.second_factor: `<kind>:<enrollment id>` of the factor the sign-in was completed with.
                "ALTER TABLE refresh_sessions ADD COLUMN second_factor TEXT",
                // action_codes.mfa_enrollment_id: the factor a REVERT_SECOND_FACTOR_ADDITION code withdraws.
                "ALTER TABLE action_codes ADD COLUMN mfa_enrollment_id TEXT",
                // mfa_sessions: multi-factor steps waiting for their second half: a sign-in whose first factor passed
                // (`kind` 'sign-in', keyed by the hash of its mfaPendingCredential) and a TOTP enrolment whose secret was
                // shown ('totp-enrollment', by the hash of its sessionInfo). `payload`: JSON (the pending session's
                // provider; the enrolment's sealed secret). `attempts_left`: wrong factors still allowed. Pruned by expiry.
                """
                CREATE TABLE mfa_sessions (
                    session_key TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    uid TEXT NOT NULL,
                    payload TEXT NOT NULL,
                    attempts_left BIGINT NOT NULL,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    CONSTRAINT mfa_sessions_pkey PRIMARY KEY (session_key)
                )
                """,
                "CREATE INDEX mfa_sessions_expires_at ON mfa_sessions (expires_at)",
            ]),
        SchemaMigration(
            "2026-11-30-add-refresh-and-initial-email",
            [
                // users.last_refresh_at: when an ID token was last handed out (a sign-in, or a refresh recorded at most once
                // a minute), ms since 1970; NULL: never since this column came.
                "ALTER TABLE users ADD COLUMN last_refresh_at BIGINT",
                // users.initial_email: the first e-mail the account had, set when the e-mail first changes (NULL: never).
                "ALTER TABLE users ADD COLUMN initial_email TEXT",
            ]),
        addTenants,
        addConsoleOperators,
        addPasskeys,
        addAuditFilterIndexes,
        addAuditDayCounts,
        addConsoleImportJobs,
    ]
}
