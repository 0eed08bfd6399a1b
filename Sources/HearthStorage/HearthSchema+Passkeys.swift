import SQLKit

extension HearthSchema {
    /// Passkeys: the WebAuthn credentials registered to accounts, one tenant's apart from another's.
    static let addPasskeys = SchemaMigration(
        "2026-12-03-add-passkeys",
        [
            // passkeys: `credential_id` base64url, unique in its tenant (an authenticator's key signs in one account);
            // `public_key` the COSE_Key as the authenticator encoded it, in base64url; `algorithm` its COSE algorithm;
            // `sign_count` the last counter seen; `transports` a JSON array of strings; `backup_eligible` and
            // `backed_up` the BE and BS flags (registration's and last seen). Times: ms since 1970. An account's
            // deletion deletes its passkeys.
            """
            CREATE TABLE passkeys (
                tenant_id TEXT NOT NULL,
                credential_id TEXT NOT NULL,
                uid TEXT NOT NULL,
                name TEXT NOT NULL,
                public_key TEXT NOT NULL,
                algorithm BIGINT NOT NULL,
                sign_count BIGINT NOT NULL,
                transports TEXT NOT NULL,
                backup_eligible BOOLEAN NOT NULL,
                backed_up BOOLEAN NOT NULL,
                created_at BIGINT NOT NULL,
                last_used_at BIGINT,
                CONSTRAINT passkeys_pkey PRIMARY KEY (tenant_id, credential_id),
                CONSTRAINT passkeys_user_fkey FOREIGN KEY (tenant_id, uid) REFERENCES users (tenant_id, uid) ON DELETE CASCADE
            )
            """,
            "CREATE INDEX passkeys_uid ON passkeys (tenant_id, uid, created_at)",
        ])
}
