/// A page of rows of one ``TransferTable``, as ``TransferStore/exportBatch(_:after:limit:)`` reads
/// them (in primary-key order) and ``TransferStore/importBatch(_:)`` upserts them.
public enum TransferBatch: Sendable, Equatable {
    /// Users, each with all its provider links.
    case users([UserRecord])
    case sessions([RefreshSessionRecord])
    case signingKeys([SigningKeyRecord])
    case settings([SettingRecord])

    /// The table the rows belong to.
    public var table: TransferTable {
        switch self {
        case .users: .users
        case .sessions: .sessions
        case .signingKeys: .signingKeys
        case .settings: .settings
        }
    }

    /// The number of primary rows (users, not counting their links).
    public var count: Int {
        switch self {
        case .users(let rows): rows.count
        case .sessions(let rows): rows.count
        case .signingKeys(let rows): rows.count
        case .settings(let rows): rows.count
        }
    }

    /// Rows per ``TransferStore/counts()`` key: users and their provider links are counted apart.
    public var rowCounts: [String: Int] {
        switch self {
        case .users(let rows): ["users": rows.count, "provider_links": rows.reduce(0) { $0 + $1.providers.count }]
        case .sessions(let rows): ["refresh_sessions": rows.count]
        case .signingKeys(let rows): ["signing_keys": rows.count]
        case .settings(let rows): ["settings": rows.count]
        }
    }

    /// The primary key of the last row: the cursor for the next page (`nil` when empty).
    public var lastKey: String? {
        switch self {
        case .users(let rows): rows.last?.uid
        case .sessions(let rows): rows.last?.tokenHash
        case .signingKeys(let rows): rows.last?.kid
        case .settings(let rows): rows.last?.name
        }
    }
}
