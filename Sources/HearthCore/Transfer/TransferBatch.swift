/// A page of rows of one ``TransferTable``, as ``TransferStore/exportBatch(_:after:limit:)`` reads
/// them (in primary-key order) and ``TransferStore/importBatch(_:)`` upserts them.
public enum TransferBatch: Sendable, Equatable {
    case tenants([TenantRecord])
    /// Users, each with all its provider links.
    case users([UserRecord])
    /// Passkeys, each with its tenant.
    case passkeys([PasskeyCredential])
    case sessions([RefreshSessionRecord])
    case signingKeys([SigningKeyRecord])
    case settings([SettingRecord])
    case actionCodes([ActionCodeRecord])
    /// Mails with their bodies as stored: sealed bodies stay sealed (the target opens them with the same key).
    case mails([OutgoingMail])
    /// Operators with their secrets as stored (a sealed authenticator secret stays sealed).
    case consoleOperators([OperatorRecord])

    /// The table the rows belong to.
    public var table: TransferTable {
        switch self {
        case .tenants: .tenants
        case .users: .users
        case .passkeys: .passkeys
        case .sessions: .sessions
        case .signingKeys: .signingKeys
        case .settings: .settings
        case .actionCodes: .actionCodes
        case .mails: .mails
        case .consoleOperators: .consoleOperators
        }
    }

    /// The number of primary rows (users, not counting their links).
    public var count: Int {
        switch self {
        case .tenants(let rows): rows.count
        case .users(let rows): rows.count
        case .passkeys(let rows): rows.count
        case .sessions(let rows): rows.count
        case .signingKeys(let rows): rows.count
        case .settings(let rows): rows.count
        case .actionCodes(let rows): rows.count
        case .mails(let rows): rows.count
        case .consoleOperators(let rows): rows.count
        }
    }

    /// Rows per ``TransferStore/counts()`` key: users and their provider links are counted apart.
    public var rowCounts: [String: Int] {
        switch self {
        case .tenants(let rows): ["tenants": rows.count]
        case .users(let rows): ["users": rows.count, "provider_links": rows.reduce(0) { $0 + $1.providers.count }]
        case .passkeys(let rows): ["passkeys": rows.count]
        case .sessions(let rows): ["refresh_sessions": rows.count]
        case .signingKeys(let rows): ["signing_keys": rows.count]
        case .settings(let rows): ["settings": rows.count]
        case .actionCodes(let rows): ["action_codes": rows.count]
        case .mails(let rows): ["mail_queue": rows.count]
        case .consoleOperators(let rows): ["console_operators": rows.count]
        }
    }

    /// The primary key of the last row: the cursor for the next page (`nil` when empty).
    public var lastKey: String? {
        switch self {
        case .tenants(let rows): rows.last?.id
        // Tenant, then key: the order these tables are read in (tenant ids hold no `/`).
        case .users(let rows): rows.last.map { "\($0.tenantID ?? "")/\($0.uid)" }
        case .passkeys(let rows): rows.last.map { "\($0.tenantID ?? "")/\($0.credentialID)" }
        case .sessions(let rows): rows.last?.tokenHash
        case .signingKeys(let rows): rows.last?.kid
        case .settings(let rows): rows.last.map { "\($0.tenantID ?? "")/\($0.name)" }
        case .actionCodes(let rows): rows.last?.codeHash
        case .mails(let rows): rows.last?.id
        case .consoleOperators(let rows): rows.last?.id
        }
    }
}
