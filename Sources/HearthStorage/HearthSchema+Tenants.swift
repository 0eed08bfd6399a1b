import SQLKit

extension HearthSchema {
    /// Tenants: every row of a person's account (users, their links, sessions, e-mail action codes, second-factor and
    /// phone steps, browser sign-ins, audit events) and every setting carries `tenant_id`, `''` for the project's own
    /// users. Uids, e-mails, phone numbers and provider identities are unique within a tenant, so the same person may
    /// have an account in two tenants under one uid.
    ///
    /// PostgreSQL alters the keys in place. SQLite cannot change a primary key or a table's UNIQUE constraint, so
    /// there each of the five tables is rebuilt: the old table is renamed first (which points the foreign keys of its
    /// children at the old name, so dropping it later cascades into nothing new), the new one created under the old
    /// name and filled, and the old one dropped, children before parents; the indexes are made again afterwards.
    static let addTenants = SchemaMigration(
        "2026-12-01-add-tenants",
        [
            // tenants: Identity Platform's tenants of the project. `config` is the tenant's sign-in settings as JSON
            // (the project config's overrides: which sign-ins are on, second factors, test phone numbers).
            // `disabled`: `disableAuth`, no sign-in at all.
            """
            CREATE TABLE tenants (
                tenant_id TEXT NOT NULL,
                display_name TEXT NOT NULL,
                disabled BOOLEAN NOT NULL DEFAULT FALSE,
                config TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                CONSTRAINT tenants_pkey PRIMARY KEY (tenant_id)
            )
            """
        ] + postgreSQLTenantKeys.map { "\(DialectStatement(sqlite: "SELECT 1", postgreSQL: $0))" }
            + sqliteTenantRebuild.map { "\(DialectStatement(sqlite: $0, postgreSQL: "SELECT 1"))" }
            + [
                "ALTER TABLE mfa_sessions ADD COLUMN tenant_id TEXT NOT NULL DEFAULT ''",
                "ALTER TABLE phone_verifications ADD COLUMN tenant_id TEXT NOT NULL DEFAULT ''",
                "ALTER TABLE auth_sessions ADD COLUMN tenant_id TEXT NOT NULL DEFAULT ''",
                "ALTER TABLE audit_events ADD COLUMN tenant_id TEXT NOT NULL DEFAULT ''",
                // One tenant's events, newest first, and one account's.
                "DROP INDEX audit_events_occurred_at",
                "DROP INDEX audit_events_uid",
                "CREATE INDEX audit_events_occurred_at ON audit_events (tenant_id, occurred_at, id)",
                "CREATE INDEX audit_events_uid ON audit_events (tenant_id, uid, occurred_at, id)",
            ] + tenantIndexes)

    /// The keys of PostgreSQL's tables, changed in place.
    private static let postgreSQLTenantKeys: [String] = [
        "ALTER TABLE users ADD COLUMN tenant_id TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE provider_links ADD COLUMN tenant_id TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE refresh_sessions ADD COLUMN tenant_id TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE action_codes ADD COLUMN tenant_id TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE settings ADD COLUMN tenant_id TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE provider_links DROP CONSTRAINT provider_links_uid_fkey",
        "ALTER TABLE refresh_sessions DROP CONSTRAINT refresh_sessions_uid_fkey",
        "ALTER TABLE action_codes DROP CONSTRAINT action_codes_uid_fkey",
        """
        ALTER TABLE users DROP CONSTRAINT users_pkey, DROP CONSTRAINT users_email_unique,
            DROP CONSTRAINT users_phone_number_unique,
            ADD CONSTRAINT users_pkey PRIMARY KEY (tenant_id, uid),
            ADD CONSTRAINT users_email_unique UNIQUE (tenant_id, email),
            ADD CONSTRAINT users_phone_number_unique UNIQUE (tenant_id, phone_number)
        """,
        """
        ALTER TABLE provider_links DROP CONSTRAINT provider_links_pkey, DROP CONSTRAINT provider_links_uid_provider_unique,
            ADD CONSTRAINT provider_links_pkey PRIMARY KEY (tenant_id, provider_id, raw_id),
            ADD CONSTRAINT provider_links_uid_provider_unique UNIQUE (tenant_id, uid, provider_id),
            ADD CONSTRAINT provider_links_uid_fkey FOREIGN KEY (tenant_id, uid) REFERENCES users (tenant_id, uid) ON DELETE CASCADE
        """,
        """
        ALTER TABLE refresh_sessions
            ADD CONSTRAINT refresh_sessions_uid_fkey FOREIGN KEY (tenant_id, uid) REFERENCES users (tenant_id, uid) ON DELETE CASCADE
        """,
        """
        ALTER TABLE action_codes
            ADD CONSTRAINT action_codes_uid_fkey FOREIGN KEY (tenant_id, uid) REFERENCES users (tenant_id, uid) ON DELETE CASCADE
        """,
        "ALTER TABLE settings DROP CONSTRAINT settings_pkey, ADD CONSTRAINT settings_pkey PRIMARY KEY (tenant_id, name)",
        "DROP INDEX users_scheduled_deletion_at",
        "DROP INDEX provider_links_email_lower",
        "DROP INDEX refresh_sessions_uid",
        "DROP INDEX action_codes_uid",
        "DROP INDEX action_codes_expires_at",
        "DROP INDEX users_uid_bytes",
        "DROP INDEX users_display_name_uid",
        "DROP INDEX users_created_at_uid",
        "DROP INDEX users_last_login_at_uid",
        "DROP INDEX users_email_uid",
    ]

    /// SQLite's five rebuilt tables.
    private static let sqliteTenantRebuild: [String] = [
        "ALTER TABLE users RENAME TO users_before_tenants",
        """
        CREATE TABLE users (
            tenant_id TEXT NOT NULL DEFAULT '',
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
            email_link_sign_in BOOLEAN NOT NULL DEFAULT FALSE,
            second_factors TEXT,
            last_refresh_at BIGINT,
            initial_email TEXT,
            CONSTRAINT users_pkey PRIMARY KEY (tenant_id, uid),
            CONSTRAINT users_email_unique UNIQUE (tenant_id, email),
            CONSTRAINT users_phone_number_unique UNIQUE (tenant_id, phone_number)
        )
        """,
        """
        INSERT INTO users (uid, email, email_verified, display_name, photo_url, phone_number, password_hash, password_updated_at,
            disabled, custom_attributes, custom_auth, created_at, last_login_at, valid_since, scheduled_deletion_at,
            email_link_sign_in, second_factors, last_refresh_at, initial_email)
        SELECT uid, email, email_verified, display_name, photo_url, phone_number, password_hash, password_updated_at,
            disabled, custom_attributes, custom_auth, created_at, last_login_at, valid_since, scheduled_deletion_at,
            email_link_sign_in, second_factors, last_refresh_at, initial_email
        FROM users_before_tenants
        """,
        "ALTER TABLE provider_links RENAME TO provider_links_before_tenants",
        """
        CREATE TABLE provider_links (
            tenant_id TEXT NOT NULL DEFAULT '',
            uid TEXT NOT NULL,
            provider_id TEXT NOT NULL,
            raw_id TEXT NOT NULL,
            email TEXT,
            display_name TEXT,
            photo_url TEXT,
            phone_number TEXT,
            screen_name TEXT,
            CONSTRAINT provider_links_pkey PRIMARY KEY (tenant_id, provider_id, raw_id),
            CONSTRAINT provider_links_uid_provider_unique UNIQUE (tenant_id, uid, provider_id),
            CONSTRAINT provider_links_uid_fkey FOREIGN KEY (tenant_id, uid) REFERENCES users (tenant_id, uid) ON DELETE CASCADE
        )
        """,
        """
        INSERT INTO provider_links (uid, provider_id, raw_id, email, display_name, photo_url, phone_number, screen_name)
        SELECT uid, provider_id, raw_id, email, display_name, photo_url, phone_number, screen_name FROM provider_links_before_tenants
        """,
        "DROP TABLE provider_links_before_tenants",
        "ALTER TABLE refresh_sessions RENAME TO refresh_sessions_before_tenants",
        """
        CREATE TABLE refresh_sessions (
            token_hash TEXT NOT NULL,
            tenant_id TEXT NOT NULL DEFAULT '',
            uid TEXT NOT NULL,
            sign_in_provider TEXT NOT NULL,
            auth_time BIGINT NOT NULL,
            created_at BIGINT NOT NULL,
            extra_claims TEXT,
            second_factor TEXT,
            CONSTRAINT refresh_sessions_pkey PRIMARY KEY (token_hash),
            CONSTRAINT refresh_sessions_uid_fkey FOREIGN KEY (tenant_id, uid) REFERENCES users (tenant_id, uid) ON DELETE CASCADE
        )
        """,
        """
        INSERT INTO refresh_sessions (token_hash, uid, sign_in_provider, auth_time, created_at, extra_claims, second_factor)
        SELECT token_hash, uid, sign_in_provider, auth_time, created_at, extra_claims, second_factor FROM refresh_sessions_before_tenants
        """,
        "DROP TABLE refresh_sessions_before_tenants",
        "ALTER TABLE action_codes RENAME TO action_codes_before_tenants",
        """
        CREATE TABLE action_codes (
            code_hash TEXT NOT NULL,
            tenant_id TEXT NOT NULL DEFAULT '',
            kind TEXT NOT NULL,
            uid TEXT,
            email TEXT NOT NULL,
            new_email TEXT,
            continue_url TEXT,
            language_code TEXT,
            created_at BIGINT NOT NULL,
            expires_at BIGINT NOT NULL,
            mfa_enrollment_id TEXT,
            CONSTRAINT action_codes_pkey PRIMARY KEY (code_hash),
            CONSTRAINT action_codes_uid_fkey FOREIGN KEY (tenant_id, uid) REFERENCES users (tenant_id, uid) ON DELETE CASCADE
        )
        """,
        """
        INSERT INTO action_codes (code_hash, kind, uid, email, new_email, continue_url, language_code, created_at, expires_at,
            mfa_enrollment_id)
        SELECT code_hash, kind, uid, email, new_email, continue_url, language_code, created_at, expires_at, mfa_enrollment_id
        FROM action_codes_before_tenants
        """,
        "DROP TABLE action_codes_before_tenants",
        "DROP TABLE users_before_tenants",
        "ALTER TABLE settings RENAME TO settings_before_tenants",
        """
        CREATE TABLE settings (
            tenant_id TEXT NOT NULL DEFAULT '',
            name TEXT NOT NULL,
            value TEXT NOT NULL,
            CONSTRAINT settings_pkey PRIMARY KEY (tenant_id, name)
        )
        """,
        "INSERT INTO settings (name, value) SELECT name, value FROM settings_before_tenants",
        "DROP TABLE settings_before_tenants",
    ]

    /// The indexes of the five tables, on both databases: each leads with `tenant_id`, as every query of them does.
    private static let tenantIndexes: [SQLQueryString] = [
        "CREATE INDEX users_scheduled_deletion_at ON users (scheduled_deletion_at)",
        "CREATE INDEX provider_links_email_lower ON provider_links (tenant_id, lower(email))",
        "CREATE INDEX refresh_sessions_uid ON refresh_sessions (tenant_id, uid)",
        "CREATE INDEX action_codes_uid ON action_codes (tenant_id, uid)",
        "CREATE INDEX action_codes_expires_at ON action_codes (expires_at)",
        """
        \(DialectStatement(
            sqlite: "SELECT 1",
            postgreSQL: #"CREATE INDEX users_uid_bytes ON users (tenant_id, uid COLLATE "C")"#))
        """,
        """
        \(DialectStatement(
            sqlite: "CREATE INDEX users_display_name_uid ON users (tenant_id, display_name, uid)",
            postgreSQL: #"CREATE INDEX users_display_name_uid ON users (tenant_id, display_name COLLATE "C" NULLS FIRST, uid COLLATE "C")"#))
        """,
        """
        \(DialectStatement(
            sqlite: "CREATE INDEX users_created_at_uid ON users (tenant_id, created_at, uid)",
            postgreSQL: #"CREATE INDEX users_created_at_uid ON users (tenant_id, created_at, uid COLLATE "C")"#))
        """,
        """
        \(DialectStatement(
            sqlite: "CREATE INDEX users_last_login_at_uid ON users (tenant_id, last_login_at, uid)",
            postgreSQL: #"CREATE INDEX users_last_login_at_uid ON users (tenant_id, last_login_at NULLS FIRST, uid COLLATE "C")"#))
        """,
        """
        \(DialectStatement(
            sqlite: "CREATE INDEX users_email_uid ON users (tenant_id, email, uid)",
            postgreSQL: #"CREATE INDEX users_email_uid ON users (tenant_id, email COLLATE "C" NULLS FIRST, uid COLLATE "C")"#))
        """,
    ]
}
