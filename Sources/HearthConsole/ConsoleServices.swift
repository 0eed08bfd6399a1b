import HearthCore
import HearthMessages

/// What the console works with, given by the server that serves it (HearthServer's `buildRouter`): the administrator's
/// use cases, the store it reads users and events from, the operators' sign-in, and the status page's report.
public struct ConsoleServices: Sendable {
    public typealias Store = AccountStore & AuditStore & SettingStore & ConsoleImportJobStore

    /// Every change to a user goes through these (and records its audit event, naming the operator).
    public var accounts: AdministeredAccounts
    /// Reads: the listing, the search, a user's events; and the import jobs.
    public var store: any Store
    /// The server's password hashing: its own scrypt (an export carries hashes made with it) and the cost budget that
    /// limits an import's hash parameters.
    public var hashing: PasswordHashing
    public var signIn: ConsoleSignIn
    /// The operators, which an owner lists and removes.
    public var operators: ConsoleOperators
    public var clock: WallClock
    /// Shown in the pages' titles.
    public var projectID: String
    /// Development mode: a browser on this machine is signed in as owner without an operator account.
    public var localBrowserIsOwner: Bool
    /// What `/console/status` shows, read anew for each visit.
    public var statusReport: @Sendable () async -> StatusReport
    /// Makes a new signing key now (published at once, signing after the publish lead); `nil` when one is waiting
    /// already. The argument names the operator in the audit event.
    public var rotateKeys: @Sendable (_ actorID: String) async throws -> String?
    /// The settings pages' parts: the tenants, each tenant's (and the project's) settings and providers, and what the
    /// pages show of the server's own configuration.
    public var signInSettings: ConsoleSignInSettings

    /// The mails as the server writes them (the configuration's template folder, under the templates an owner stores
    /// in the console) and the app's name they show; `nil`: the built-in mails and the project id.
    public var mail: (templates: MailTemplates, appName: String)?

    public init(
        accounts: AdministeredAccounts, store: any Store, hashing: PasswordHashing, signIn: ConsoleSignIn, operators: ConsoleOperators,
        clock: WallClock, projectID: String,
        localBrowserIsOwner: Bool, statusReport: @escaping @Sendable () async -> StatusReport,
        rotateKeys: @escaping @Sendable (_ actorID: String) async throws -> String?,
        signInSettings: ConsoleSignInSettings
    ) {
        self.accounts = accounts
        self.store = store
        self.hashing = hashing
        self.signIn = signIn
        self.operators = operators
        self.clock = clock
        self.projectID = projectID
        self.localBrowserIsOwner = localBrowserIsOwner
        self.statusReport = statusReport
        self.rotateKeys = rotateKeys
        self.signInSettings = signInSettings
    }
}

/// What the sign-in methods and settings pages work with. Every change goes through HearthCore's use cases, the same
/// the admin API's controllers call (so the rules, the messages and the audit events are theirs).
public struct ConsoleSignInSettings: Sendable {
    /// One scope's use cases: the project's (no tenant) or one tenant's.
    public struct Scope: Sendable {
        /// The project's settings (read and changed); a tenant's are read here and changed through ``tenants``.
        public var settings: ProjectSettingsChanges
        public var providers: ProviderSettingsChanges
        /// The scope's users: changed through these (their audit events are the scope's), read from ``store``, which
        /// sees this scope's users and events alone.
        public var accounts: AdministeredAccounts
        public var store: any ConsoleServices.Store
        /// Issues a password-reset (``ActionCodeKind/passwordReset``) or verification (``ActionCodeKind/verifyEmail``)
        /// link for one of the scope's users and returns it; with `send`, also mails it (as `accounts:sendOobCode` does,
        /// limits and hooks included).
        public var emailLink: @Sendable (_ kind: ActionCodeKind, _ user: UserRecord, _ send: Bool, _ origin: AuditOrigin) async throws -> String

        public init(
            settings: ProjectSettingsChanges, providers: ProviderSettingsChanges, accounts: AdministeredAccounts, store: any ConsoleServices.Store,
            emailLink: @escaping @Sendable (_ kind: ActionCodeKind, _ user: UserRecord, _ send: Bool, _ origin: AuditOrigin) async throws -> String
        ) {
            self.settings = settings
            self.providers = providers
            self.accounts = accounts
            self.store = store
            self.emailLink = emailLink
        }
    }

    public var tenants: TenantChanges
    /// The use cases of `tenantID` (`nil`: the project's): `INVALID_TENANT_ID`, `TENANT_NOT_FOUND`.
    public var scope: @Sendable (_ tenantID: String?) async throws -> Scope
    /// Hearth's redirect handler: the callback URL (redirect URI, ACS URL) to register with providers (asked at each page:
    /// a server on port 0 knows its port once it listens).
    public var callbackURL: @Sendable () -> String
    /// The hosts a continue URL or return URL may point at.
    public var authorizedDomains: [String]
    /// Development mode: blocking hooks may be http URLs to this machine.
    public var development: Bool

    public init(
        tenants: TenantChanges, scope: @escaping @Sendable (_ tenantID: String?) async throws -> Scope, callbackURL: @escaping @Sendable () -> String,
        authorizedDomains: [String], development: Bool
    ) {
        self.tenants = tenants
        self.scope = scope
        self.callbackURL = callbackURL
        self.authorizedDomains = authorizedDomains
        self.development = development
    }
}

/// Who is looking at a console page: a signed-in operator, or development mode's local browser.
struct ConsoleIdentity: Sendable {
    /// The operator's e-mail, or `development`.
    var name: String
    var role: OperatorRecord.Role
    /// As audit events name them (``OperatorRecord/actorID``).
    var actorID: String
    /// The token every form of theirs carries.
    var csrfToken: String
    /// Signed in with a session (rather than as development mode's local browser): they can sign out.
    var hasSession: Bool
}
