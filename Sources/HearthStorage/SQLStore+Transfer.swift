import Foundation
import HearthCore
import SQLKit

// MARK: - TransferStore

extension SQLStore {
    /// Tables ``counts()`` reports, in this order.
    static let countedTables = [
        "tenants", "users", "provider_links", "passkeys", "refresh_sessions", "signing_keys", "settings", "action_codes", "mail_queue",
        "rate_counters",
        "console_operators",
    ]

    /// Rows per table, from one read snapshot.
    public func counts() async throws -> [String: Int] {
        try await work.read { database in
            var result: [String: Int] = [:]
            for table in Self.countedTables {
                let row = try await Self.rows(database, "SELECT COUNT(*) AS row_count FROM \(ident: table)").first
                result[table] = Int(try row?.int64("row_count") ?? 0)
            }
            return result
        }
    }

    /// Up to `limit` rows after `cursor` in primary-key order, from one read snapshot.
    public func exportBatch(_ table: TransferTable, after cursor: String?, limit: Int) async throws -> TransferBatch {
        let limit = Int64(max(1, limit))
        return try await work.read { database in
            switch table {
            case .tenants:
                let rows = try await Self.rows(
                    database,
                    """
                    SELECT \(Self.tenantColumns) FROM tenants
                    WHERE \(Self.after(cursor, column: "tenant_id")) ORDER BY tenant_id LIMIT \(bind: limit)
                    """)
                return .tenants(try rows.map(Self.tenant(from:)))
            case .users:
                return .users(try await Self.exportUsers(after: cursor, limit: limit, on: database))
            case .passkeys:
                let rows = try await Self.rows(
                    database,
                    """
                    SELECT tenant_id, \(Self.passkeyColumns) FROM passkeys
                    WHERE \(Self.after(TransferCursor.split(cursor), columns: "tenant_id", "credential_id"))
                    ORDER BY tenant_id, credential_id LIMIT \(bind: limit)
                    """)
                return .passkeys(
                    try rows.map { row in
                        var passkey = try Self.passkey(from: row)
                        passkey.tenantID = try Self.tenantID(row)
                        return passkey
                    })
            case .sessions:
                let rows = try await Self.rows(
                    database,
                    """
                    SELECT \(Self.sessionColumns) FROM refresh_sessions
                    WHERE \(Self.after(cursor, column: "token_hash")) ORDER BY token_hash LIMIT \(bind: limit)
                    """)
                return .sessions(try rows.map(Self.session(from:)))
            case .signingKeys:
                let rows = try await Self.rows(
                    database,
                    """
                    SELECT \(Self.signingKeyColumns) FROM signing_keys
                    WHERE \(Self.after(cursor, column: "kid")) ORDER BY kid LIMIT \(bind: limit)
                    """)
                return .signingKeys(try rows.map(Self.signingKey(from:)))
            case .settings:
                let rows = try await Self.rows(
                    database,
                    """
                    SELECT tenant_id, name, value FROM settings
                    WHERE \(Self.after(TransferCursor.split(cursor), columns: "tenant_id", "name"))
                    ORDER BY tenant_id, name LIMIT \(bind: limit)
                    """)
                return .settings(
                    try rows.map { row in
                        var setting = SettingRecord(name: try row.text("name"), value: try row.text("value"))
                        setting.tenantID = try Self.tenantID(row)
                        return setting
                    })
            case .actionCodes:
                let rows = try await Self.rows(
                    database,
                    """
                    SELECT tenant_id, \(Self.actionCodeColumns) FROM action_codes
                    WHERE \(Self.after(cursor, column: "code_hash")) ORDER BY code_hash LIMIT \(bind: limit)
                    """)
                return .actionCodes(
                    try rows.map { row in
                        var code = try Self.actionCode(from: row)
                        code.tenantID = try Self.tenantID(row)
                        return code
                    })
            case .mails:
                // Bodies as stored: sealed ones stay sealed, as signing keys and settings do.
                let rows = try await Self.rows(
                    database,
                    """
                    SELECT \(Self.mailColumns) FROM mail_queue
                    WHERE \(Self.after(cursor, column: "id")) ORDER BY id LIMIT \(bind: limit)
                    """)
                return .mails(try rows.map(Self.mail(from:)))
            case .consoleOperators:
                let rows = try await Self.rows(
                    database,
                    """
                    SELECT \(Self.operatorColumns) FROM console_operators
                    WHERE \(Self.after(cursor, column: "operator_id")) ORDER BY operator_id LIMIT \(bind: limit)
                    """)
                return .consoleOperators(try rows.map(Self.consoleOperator(from:)))
            }
        }
    }

    /// Upserts every row of `batch` by primary key in one write transaction; a user's links are
    /// replaced by the batch's.
    public func importBatch(_ batch: TransferBatch) async throws {
        guard batch.count > 0 else { return }
        defer { accountCache?.forgetAll() }
        try await work.write { database in
            try await self.announceAccountChange(nil, on: database)
            switch batch {
            case .consoleOperators(let records):
                for record in records {
                    try await Self.exec(
                        database,
                        """
                        INSERT INTO console_operators (\(Self.operatorColumns)) VALUES (\(binds: try Self.operatorValues(record)))
                        ON CONFLICT (operator_id) DO UPDATE SET
                            email = excluded.email, role = excluded.role, password_hash = excluded.password_hash,
                            totp_secret = excluded.totp_secret, recovery_codes = excluded.recovery_codes,
                            last_code_step = excluded.last_code_step, created_at = excluded.created_at,
                            last_sign_in_at = excluded.last_sign_in_at
                        """)
                }
            case .tenants(let tenants):
                for tenant in tenants {
                    try await Self.exec(
                        database,
                        """
                        INSERT INTO tenants (\(Self.tenantColumns)) VALUES (\(binds: try Self.tenantValues(tenant)))
                        ON CONFLICT (tenant_id) DO UPDATE SET
                            display_name = excluded.display_name, disabled = excluded.disabled, config = excluded.config,
                            created_at = excluded.created_at
                        """)
                }
            case .users(let users):
                for user in users {
                    try await Self.upsertUser(user, on: database)
                }
            case .passkeys(let passkeys):
                for passkey in passkeys {
                    try await Self.exec(
                        database,
                        """
                        INSERT INTO passkeys (tenant_id, \(Self.passkeyColumns))
                        VALUES (\(binds: try Self.passkeyValues(passkey, tenant: passkey.tenantID ?? "")))
                        ON CONFLICT (tenant_id, credential_id) DO UPDATE SET
                            uid = excluded.uid, name = excluded.name, public_key = excluded.public_key, algorithm = excluded.algorithm,
                            sign_count = excluded.sign_count, transports = excluded.transports,
                            backup_eligible = excluded.backup_eligible, backed_up = excluded.backed_up,
                            created_at = excluded.created_at, last_used_at = excluded.last_used_at
                        """)
                }
            case .sessions(let sessions):
                for session in sessions {
                    try await Self.exec(
                        database,
                        """
                        INSERT INTO refresh_sessions (\(Self.sessionColumns))
                        VALUES (\(binds: Self.sessionValues(session, tenant: session.tenantID ?? "")))
                        ON CONFLICT (token_hash) DO UPDATE SET
                            tenant_id = excluded.tenant_id, uid = excluded.uid, sign_in_provider = excluded.sign_in_provider,
                            auth_time = excluded.auth_time, created_at = excluded.created_at,
                            extra_claims = excluded.extra_claims, second_factor = excluded.second_factor
                        """)
                }
            case .signingKeys(let keys):
                for key in keys {
                    try await Self.exec(
                        database,
                        """
                        INSERT INTO signing_keys (\(Self.signingKeyColumns)) VALUES (\(binds: Self.signingKeyValues(key)))
                        ON CONFLICT (kid) DO UPDATE SET
                            algorithm = excluded.algorithm, private_key_pem = excluded.private_key_pem,
                            certificate_pem = excluded.certificate_pem, created_at = excluded.created_at,
                            activates_at = excluded.activates_at, retires_at = excluded.retires_at,
                            expires_at = excluded.expires_at
                        """)
                }
            case .settings(let settings):
                for setting in settings {
                    try await Self.exec(
                        database,
                        """
                        INSERT INTO settings (tenant_id, name, value)
                        VALUES (\(bind: setting.tenantID ?? ""), \(bind: setting.name), \(bind: setting.value))
                        ON CONFLICT (tenant_id, name) DO UPDATE SET value = excluded.value
                        """)
                }
            case .actionCodes(let codes):
                for code in codes {
                    try Self.checkStorable(code)
                    try await Self.exec(
                        database,
                        """
                        INSERT INTO action_codes (tenant_id, \(Self.actionCodeColumns))
                        VALUES (\(bind: code.tenantID ?? ""), \(binds: Self.actionCodeValues(code)))
                        ON CONFLICT (code_hash) DO UPDATE SET
                            tenant_id = excluded.tenant_id, kind = excluded.kind, uid = excluded.uid, email = excluded.email, new_email = excluded.new_email,
                            continue_url = excluded.continue_url, language_code = excluded.language_code,
                            created_at = excluded.created_at, expires_at = excluded.expires_at,
                            mfa_enrollment_id = excluded.mfa_enrollment_id
                        """)
                }
            case .mails(let mails):
                for mail in mails {
                    try Self.checkStorable(mail)
                    try await Self.exec(
                        database,
                        """
                        INSERT INTO mail_queue (\(Self.mailColumns)) VALUES (\(binds: Self.mailValues(mail)))
                        ON CONFLICT (id) DO UPDATE SET
                            recipient = excluded.recipient, subject = excluded.subject, text_body = excluded.text_body,
                            html_body = excluded.html_body, purpose = excluded.purpose,
                            language_code = excluded.language_code, created_at = excluded.created_at,
                            attempts = excluded.attempts, next_attempt_at = excluded.next_attempt_at,
                            sent_at = excluded.sent_at, failed_at = excluded.failed_at, last_error = excluded.last_error
                        """)
                }
            }
        }
    }
}

// MARK: - Rows

extension SQLStore {
    /// `column > cursor`, or a tautology when there is no cursor.
    static func after(_ cursor: String?, column: String) -> SQLQueryString {
        guard let cursor else { return "1 = 1" }
        return "\(ident: column) > \(bind: cursor)"
    }

    /// Rows after `cursor` in the order of a two-column key (the tenant, then the row's own key).
    static func after(_ cursor: (String, String)?, columns first: String, _ second: String) -> SQLQueryString {
        guard let (tenant, key) = cursor else { return "1 = 1" }
        return "(\(ident: first) > \(bind: tenant) OR (\(ident: first) = \(bind: tenant) AND \(ident: second) > \(bind: key)))"
    }

    /// The row's `tenant_id`, `nil` for the project's own.
    static func tenantID(_ row: any SQLRow) throws -> String? {
        let tenant = try row.text("tenant_id")
        return tenant.isEmpty ? nil : tenant
    }

    /// A page of every tenant's users, by tenant and uid, with their links.
    static func exportUsers(after cursor: String?, limit: Int64, on database: any SQLDatabase) async throws -> [UserRecord] {
        let userRows = try await rows(
            database,
            """
            SELECT \(userColumns) FROM users WHERE \(after(TransferCursor.split(cursor), columns: "tenant_id", "uid"))
            ORDER BY tenant_id, uid LIMIT \(bind: limit)
            """)
        guard !userRows.isEmpty else { return [] }
        let keys = try userRows.map { TransferCursor.join(try $0.text("tenant_id"), try $0.text("uid")) }
        let uids = try userRows.map { try $0.text("uid") }
        let tenants = Array(Set(try userRows.map { try $0.text("tenant_id") }))
        let linkRows = try await rows(
            database, "SELECT \(linkColumns) FROM provider_links WHERE tenant_id IN (\(binds: tenants)) AND uid IN (\(binds: uids))")
        var linksByKey: [String: [ProviderLink]] = [:]
        for row in linkRows {
            linksByKey[TransferCursor.join(try row.text("tenant_id"), try row.text("uid")), default: []].append(try providerLink(from: row))
        }
        return try zip(userRows, keys).map { row, key in
            try userRecord(from: row, providers: ordered(linksByKey[key] ?? []))
        }
    }

    /// Inserts or replaces the user row in the user's own tenant (``UserRecord/tenantID``), then replaces its links.
    static func upsertUser(_ user: UserRecord, on database: any SQLDatabase) async throws {
        try checkStorable(user)
        let tenant = user.tenantID ?? ""
        try await exec(
            database,
            """
            INSERT INTO users (\(userColumns)) VALUES (\(bind: tenant), \(bind: user.uid), \(binds: userValues(user)))
            ON CONFLICT (tenant_id, uid) DO UPDATE SET
                email = excluded.email, email_verified = excluded.email_verified,
                display_name = excluded.display_name, photo_url = excluded.photo_url,
                phone_number = excluded.phone_number, password_hash = excluded.password_hash,
                password_updated_at = excluded.password_updated_at, disabled = excluded.disabled,
                custom_attributes = excluded.custom_attributes, custom_auth = excluded.custom_auth,
                created_at = excluded.created_at, last_login_at = excluded.last_login_at,
                valid_since = excluded.valid_since, scheduled_deletion_at = excluded.scheduled_deletion_at,
                email_link_sign_in = excluded.email_link_sign_in, second_factors = excluded.second_factors,
                last_refresh_at = excluded.last_refresh_at, initial_email = excluded.initial_email
            """)
        try await exec(database, "DELETE FROM provider_links WHERE tenant_id = \(bind: tenant) AND uid = \(bind: user.uid)")
        try await insertLinks(ordered(user.providers), uid: user.uid, tenant: tenant, on: database)
    }
}

/// The cursor of a table keyed by tenant and a key of its own: `tenant` and `key` joined by `/` (tenant ids hold
/// none).
enum TransferCursor {
    static func join(_ tenant: String, _ key: String) -> String { "\(tenant)/\(key)" }

    static func split(_ cursor: String?) -> (String, String)? {
        guard let cursor, let slash = cursor.firstIndex(of: "/") else { return nil }
        return (String(cursor[..<slash]), String(cursor[cursor.index(after: slash)...]))
    }
}
