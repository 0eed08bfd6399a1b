/// The groups of rows ``TransferStore`` copies between stores, in the order a copy must follow
/// (sessions and action codes need their users).
///
/// Abuse counters (`rate_counters`) and the schema bookkeeping (`schema_migrations`) are not copied:
/// counters are short-lived, and each database gets its schema from its own binary.
public enum TransferTable: String, Sendable, CaseIterable {
    /// The project's tenants (their users, settings, sessions and codes are in the other groups, each row with its tenant).
    case tenants
    /// Users with their provider links.
    case users
    /// The users' passkeys (after the users, whom they belong to).
    case passkeys
    /// Refresh sessions.
    case sessions
    /// Token-signing keys (with their private keys).
    case signingKeys
    /// Named settings.
    case settings
    /// Outstanding e-mail action codes (hashes only): links already sent keep working after a move.
    case actionCodes
    /// The mail queue, bodies as stored (sealed ones stay sealed): mails waiting survive a move.
    case mails
    /// The console's operators, secrets as stored (their console sessions are not copied: they sign in again).
    case consoleOperators

    /// The ``TransferStore/counts()`` keys (table names) whose rows this group holds.
    public var countKeys: [String] {
        switch self {
        case .tenants: ["tenants"]
        case .users: ["users", "provider_links"]
        case .passkeys: ["passkeys"]
        case .sessions: ["refresh_sessions"]
        case .signingKeys: ["signing_keys"]
        case .settings: ["settings"]
        case .actionCodes: ["action_codes"]
        case .mails: ["mail_queue"]
        case .consoleOperators: ["console_operators"]
        }
    }

    /// Every ``TransferStore/counts()`` key a copy covers: what to compare between source and target.
    public static var copiedCountKeys: [String] { allCases.flatMap(\.countKeys) }
}
