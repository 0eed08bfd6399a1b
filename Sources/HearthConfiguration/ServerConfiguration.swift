import Foundation
import HearthCore
import HearthProviders

/// Everything `hearth serve` can be told. Read from flags, `HEARTH_*` environment variables and a
/// YAML/JSON file by ``ServerConfiguration/init(reader:)``; see docs/configuration.md for each key.
public struct ServerConfiguration: Sendable {
    public enum Mode: String, Sendable {
        /// Loopback only, any API key, demo project: what the Firebase emulator offers, loudly.
        case development
        case production
    }

    public struct SignIn: Sendable {
        public var anonymousEnabled = true
        public var passwordEnabled = true
        /// Password sign-in failures say `INVALID_LOGIN_CREDENTIALS`, `createAuthUri` says nothing, and
        /// `accounts:update` refuses e-mail changes. The configuration reader turns it on in production
        /// mode unless `signIn.emailEnumerationProtection` says otherwise.
        public var emailEnumerationProtection = false
        /// One account per e-mail address (Firebase's default): a provider identity whose e-mail another
        /// account owns is linked to it when the provider vouches for the address, and needs confirmation
        /// otherwise.
        public var oneAccountPerEmail = true
        /// E-mail link sign-in (`accounts:signInWithEmailLink`; Firebase's "passwordless" switch). The
        /// configuration reader turns it on in development mode unless `signIn.emailLink.enabled` says otherwise.
        public var emailLinkEnabled = false
        /// Phone sign-in (`accounts:sendVerificationCode`, `accounts:signInWithPhoneNumber`). The configuration reader
        /// turns it on in development mode unless `signIn.phoneNumber.enabled` says otherwise.
        public var phoneEnabled = false
        /// `signIn.phoneNumber.testPhoneNumbers` (`+16505551234=123456` each): numbers that get a fixed code and no SMS.
        public var testPhoneNumbers: [String: String] = [:]
        /// `smsRegionConfig.allowByDefault.disallowedRegions` or `smsRegionConfig.allowlistOnly.allowedRegions`: the regions
        /// (ISO 3166-1 alpha-2) whose numbers may get a code by SMS. Every region by default.
        public var smsRegionPolicy: SMSRegionPolicy = .allowAll
        /// `mfa.*`: second factors. The configuration reader turns them on in development mode (state `ENABLED`, SMS and
        /// TOTP) unless `mfa.state` says otherwise; off in production.
        public var multiFactor = MultiFactorSettings()
        /// `passkeys.*`: the relying party of passkeys. The configuration reader sets ``PasskeySettings/development`` in
        /// development mode unless `passkeys.rpId` says otherwise; off in production until `passkeys.rpId` is set.
        public var passkeys: PasskeySettings?
        /// `passkeys.attestationTrustAnchors` and `passkeys.requireTrustedAttestation`: the attestation enrolments trust,
        /// the server's for the project and every tenant.
        public var passkeyAttestation = PasskeyAttestation.any
        public init() {}
    }

    /// Checks against imported password hashes (``PasswordHashing``): `passwords.importedCostLimit` and
    /// `passwords.importedConcurrency`.
    public struct ImportedHashes: Sendable {
        /// The longest one check may take, in checks of the server's own hash (N = 2^14 at least).
        public var costLimit = PasswordHashBudget.defaultMultiple
        /// How many run at a time; `nil`: half the cores, at least one.
        public var concurrency: Int?
        public init() {}
    }

    public struct AnonymousCleanup: Sendable {
        public var enabled = false
        public var maxAge: TimeInterval = 30 * 86_400
        public var checkInterval: TimeInterval = 3_600
        public init() {}
    }

    /// The key-encryption key that seals signing keys and provider secrets at rest: at most one of
    /// the two. Neither: development mode keeps one in `<dataDirectory>/secrets.key`; production refuses
    /// to start (see ``keyEncryptionKey(logger:createInDevelopment:)``).
    public struct Secrets: Sendable {
        /// `secrets.keyFile`: a file holding the key, 32 bytes in base64.
        public var keyFile: String?
        /// `secrets.key` (`HEARTH_SECRETS_KEY`): the key itself, 32 bytes in base64. A secret: never printed.
        public var key: String?
        public init() {}
    }

    public var mode: Mode = .development
    public var projectID = "demo-hearth"
    /// Keys accepted in `?key=` / `x-goog-api-key`. In development any key is accepted.
    public var apiKeys: [String] = []
    /// Bearer tokens that may call the admin routes (`/v2/projects/{project}/…`). Secrets: never printed.
    /// Development mode also accepts the emulator's `Bearer owner`.
    public var adminTokens: [String] = []
    /// PEM files with the public keys (`BEGIN PUBLIC KEY`) of the service accounts whose custom tokens
    /// `accounts:signInWithCustomToken` accepts. Development mode also accepts unsigned ones.
    public var customTokenKeyFiles: [String] = []
    /// The service accounts (`iss`/`sub` of custom tokens) allowed; empty: any signer of a configured key.
    public var customTokenServiceAccounts: [String] = []
    public var host = "127.0.0.1"
    /// `server.publicURL`: where clients reach this server (`https://auth.example.com`), without a trailing
    /// slash; the `token_uri` of service-account files lies under it. Unset: ``baseURL``.
    public var publicURL: String?
    public var port = 9099
    /// `server.tls.certificateFile` and `server.tls.keyFile`: PEM files with which the server speaks HTTPS
    /// itself (re-read on SIGHUP), both or neither. Unset: plain HTTP, for a reverse proxy in front.
    public var tlsCertificateFile: String?
    public var tlsKeyFile: String?
    public var maxBodyBytes = 1 << 20
    public var dataDirectory = "./.hearth"
    /// The SQLite file; defaults to `<dataDirectory>/hearth.sqlite`.
    public var sqlitePath: String?
    /// How many users read by uid (and refresh sessions) a server keeps in memory (0: none). On SQLite such a server
    /// holds its file exclusively; on PostgreSQL each replica hears the others' changes (`LISTEN`) and serves an entry
    /// at most ``databaseCacheMaxAge`` after reading it.
    public var userCacheSize = 4_096
    /// `database.cacheMaxAge`: on PostgreSQL, the seconds a replica serves a cached user or session after reading it
    /// (0 to 60; 0: no cache on PostgreSQL). The bound for a change no replica announced (a row edited in `psql`).
    public var databaseCacheMaxAge: TimeInterval = 5
    /// `database.maxConnections`: the connections a server's PostgreSQL pool may open (2 to 1,000).
    public var databaseMaxConnections = 10
    /// `database.preparedStatements`: on PostgreSQL, whether statements run again are sent as named prepared
    /// statements (off behind a pooler in transaction mode that does not keep them).
    public var databasePreparedStatements = true
    /// `postgres://user:password@host:port/database`: several replicas share this database.
    /// Unset: the embedded SQLite file. A secret (it may hold a password): never printed.
    public var databaseURL: String?
    public var issuer: String?
    public var idTokenLifetime: TimeInterval = 3_600
    public var keyRotationPeriod: TimeInterval = 7 * 86_400
    public var keyPublishLead: TimeInterval = 3_600
    public var scryptLogN = 14
    public var importedHashes = ImportedHashes()
    public var signIn = SignIn()
    public var anonymousCleanup = AnonymousCleanup()
    /// `audit.retentionDays`: how many days audit events are kept before they are deleted; 0 keeps them forever.
    public var auditRetentionDays = 90
    /// How recent `auth_time` must be for e-mail/password changes and account deletion.
    public var recentLoginWindow: TimeInterval = 300
    /// Per-address limits, the password lockout and the trusted proxies (see ``Abuse``).
    public var abuse = Abuse()
    /// Identity providers for `signInWithIdp`; none is on by default.
    public var providers = ProvidersConfiguration()
    /// Development mode only: serve HearthSandbox (offline stand-ins for every identity provider) at
    /// `/sandbox` and point every provider that `providers` does not switch on at it. On by default in
    /// development mode; production refuses it.
    public var sandboxEnabled: Bool?
    public var secrets = Secrets()
    /// E-mail actions and their delivery (`email.*`).
    public var email = Email()
    /// Phone sign-in's SMS and their delivery (`sms.*`).
    public var sms = SMS()
    /// The log's format and level, and the access log (`log.*`).
    public var log = Log()
    /// The metrics and their second listener (`metrics.*`).
    public var metrics = Metrics()
    /// Where the server's spans go (`tracing.*`); nowhere by default.
    public var tracing = Tracing()

    /// Whether the sandbox is served: ``sandboxEnabled``, or by default in development mode.
    public var servesSandbox: Bool { sandboxEnabled ?? (mode == .development) }

    public init() {}

    /// Whether the data lives in PostgreSQL rather than the embedded SQLite file.
    public var usesPostgres: Bool { databaseURL.map(Self.isPostgresURL) ?? false }

    static func isPostgresURL(_ url: String) -> Bool { url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") }

    /// Where the data lives, for banners and messages, without any password.
    public var storageDescription: String {
        guard let databaseURL, usesPostgres, let url = URL(string: databaseURL) else { return resolvedSQLitePath }
        return "postgres://\(url.host ?? "localhost"):\(url.port ?? 5432)\(url.path)"
    }

    /// `http://host:port` (`https://` with ``tlsCertificateFile``), with an IPv6 host in brackets.
    public var baseURL: String { "\(tlsCertificateFile == nil ? "http" : "https")://\(host.contains(":") ? "[\(host)]" : host):\(port)" }

    /// ``publicURL``, else ``baseURL``.
    public var publicBaseURL: String { publicURL ?? baseURL }

    public var resolvedSQLitePath: String { sqlitePath ?? (dataDirectory as NSString).appendingPathComponent("hearth.sqlite") }
    public var resolvedIssuer: String { issuer ?? "https://securetoken.google.com/\(projectID)" }
    public var displayAPIKey: String { apiKeys.first ?? "any-key-works-in-dev-mode" }
}
