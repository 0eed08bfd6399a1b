/// One metric Hearth keeps: its Prometheus name, what it means, its labels and (for a histogram) its buckets.
///
/// The catalogue (``catalogue``) is the one list of what `/metrics` can show; docs/observability.md is written
/// from it. Names follow Prometheus' conventions: `hearth_` first, the base unit last (`_seconds`, `_bytes`),
/// counters end in `_total`. Labels take values from small fixed sets (route templates, status codes, provider
/// ids, Firebase's error codes): never a uid, an e-mail address or a token.
public struct MetricDescriptor: Sendable {
    public enum Kind: String, Sendable { case counter, gauge, histogram }

    public let name: String
    public let kind: Kind
    public let help: String
    public let labels: [String]
    /// A duration histogram's buckets (swift-metrics' `Timer`).
    public let durationBuckets: [Duration]?
    /// A value histogram's buckets (swift-metrics' aggregating `Recorder`).
    public let valueBuckets: [Double]?

    init(
        _ name: String, _ kind: Kind, labels: [String] = [], help: String, durationBuckets: [Duration]? = nil,
        valueBuckets: [Double]? = nil
    ) {
        self.name = name
        self.kind = kind
        self.help = help
        self.labels = labels
        self.durationBuckets = durationBuckets
        self.valueBuckets = valueBuckets
    }

    /// Request and query latencies: from a tenth of a millisecond (a cached lookup) to ten seconds.
    public static let defaultDurationBuckets: [Duration] = [
        .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .microseconds(2_500),
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1), .microseconds(2_500_000), .seconds(5), .seconds(10),
    ]
    /// Counts of things in a batch.
    public static let defaultValueBuckets: [Double] = [1, 2, 4, 8, 16, 32, 64, 128, 256]
    /// Calls leaving the machine (identity providers, JWKS): slower than local work.
    static let remoteBuckets: [Duration] = [
        .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
        .milliseconds(500), .seconds(1), .microseconds(2_500_000), .seconds(5), .seconds(10), .seconds(30),
    ]

    // MARK: HTTP

    public static let httpRequests = MetricDescriptor(
        "hearth_http_requests_total", .counter, labels: ["route", "status"],
        help: "Requests answered, by route template (NotFound for unmatched paths) and HTTP status.")
    public static let httpRequestDuration = MetricDescriptor(
        "hearth_http_request_duration_seconds", .histogram, labels: ["route"],
        help: "Time from a request's arrival to its answer, by route template.",
        durationBuckets: defaultDurationBuckets)

    // MARK: Accounts

    public static let signUps = MetricDescriptor(
        "hearth_sign_ups_total", .counter, labels: ["provider", "result"],
        help:
            "Accounts created by sign-up or first sign-in, by provider (anonymous, password, google.com, ...) and result (ok or Firebase's error code)."
    )
    public static let signIns = MetricDescriptor(
        "hearth_sign_ins_total", .counter, labels: ["provider", "result"],
        help: "Sign-ins into existing accounts, and failed sign-ins, by provider and result (ok or Firebase's error code).")
    public static let tokenRefreshes = MetricDescriptor(
        "hearth_token_refreshes_total", .counter, labels: ["result"],
        help: "Refresh-token exchanges at the Secure Token endpoint, by result (ok or Firebase's error code).")
    public static let idTokenChecks = MetricDescriptor(
        "hearth_id_token_checks_total", .counter, labels: ["result"],
        help: "ID tokens checked for client calls, by result (ok or Firebase's error code).")
    public static let anonymousCleanupDeletions = MetricDescriptor(
        "hearth_anonymous_cleanup_deleted_total", .counter,
        help: "Old anonymous accounts deleted by the clean-up.")

    // MARK: Password checks

    public static let passwordChecksRunning = MetricDescriptor(
        "hearth_password_checks_running", .gauge, labels: ["lane"],
        help: "Password hashes and checks running on a hashing thread, by lane (native: the server's own hash; imported).")
    public static let passwordChecksWaiting = MetricDescriptor(
        "hearth_password_checks_waiting", .gauge, labels: ["lane"],
        help: "Password hashes and checks waiting for their lane's turn or a hashing thread, by lane.")

    // MARK: Identity providers

    public static let providerRequests = MetricDescriptor(
        "hearth_provider_requests_total", .counter, labels: ["provider", "result"],
        help: "Calls to identity providers, by provider and result (ok, refused for a 4xx answer, failed for no usable answer).")
    public static let providerRequestDuration = MetricDescriptor(
        "hearth_provider_request_duration_seconds", .histogram, labels: ["provider"],
        help: "Time of calls to identity providers, by provider, failures included.", durationBuckets: remoteBuckets)
    public static let jwksFetches = MetricDescriptor(
        "hearth_jwks_fetches_total", .counter, labels: ["provider", "result"],
        help: "Fetches of identity providers' signing keys (JWKS), by provider and result (ok or failed).")

    // MARK: Mail

    public static let mailsQueued = MetricDescriptor(
        "hearth_mails_queued_total", .counter, labels: ["purpose"],
        help: "Mails queued for delivery, by purpose (PASSWORD_RESET, VERIFY_EMAIL, ...).")
    public static let mailsSent = MetricDescriptor(
        "hearth_mails_sent_total", .counter, labels: ["purpose"], help: "Mails the mail server accepted, by purpose.")
    public static let mailsFailed = MetricDescriptor(
        "hearth_mails_failed_total", .counter, labels: ["purpose", "outcome"],
        help: "Delivery attempts that failed, by purpose and outcome (retry, or gave_up when the mail was dropped).")

    // MARK: SMS

    public static let smsQueued = MetricDescriptor(
        "hearth_sms_queued_total", .counter, labels: ["region", "channel"],
        help: "Verification codes queued for an SMS gateway, by the number's region (ISO 3166) and channel (sms, whatsapp).")
    public static let smsSent = MetricDescriptor(
        "hearth_sms_sent_total", .counter, labels: ["gateway", "channel"], help: "Messages the SMS gateway accepted, by gateway and channel.")
    public static let smsFailed = MetricDescriptor(
        "hearth_sms_failed_total", .counter, labels: ["gateway", "outcome"],
        help: "Delivery attempts that failed, by gateway and outcome (retry, gave_up, or expired when the code ran out first).")
    public static let queueWaiting = MetricDescriptor(
        "hearth_queue_waiting", .gauge, labels: ["queue"],
        help: "Messages waiting in a delivery queue (mail, sms), neither sent nor given up, as of the scrape.")
    public static let smsBudgetUsed = MetricDescriptor(
        "hearth_sms_budget_used_ratio", .gauge,
        help: "How much of the project's hourly SMS budget (abuse.limits.phoneCodesPerProject) this window has spent, 0 to 1 and over.")

    // MARK: Database

    public static let databaseConnectionsInUse = MetricDescriptor(
        "hearth_db_connections_in_use", .gauge, labels: ["pool"],
        help: "Database connections doing work, by pool (SQLite: read, write; PostgreSQL: postgres).")
    public static let databaseConnectionsWaiting = MetricDescriptor(
        "hearth_db_connections_waiting", .gauge, labels: ["pool"],
        help: "Units of work waiting for a database connection, by pool.")
    public static let databaseTransactionDuration = MetricDescriptor(
        "hearth_db_transaction_duration_seconds", .histogram, labels: ["kind"],
        help: "Time of database transactions (one or more queries), waiting for a connection included, by kind (read or write).",
        durationBuckets: defaultDurationBuckets)
    public static let sqliteGroupCommitBatchSize = MetricDescriptor(
        "hearth_sqlite_group_commit_batch_size", .histogram,
        help: "Writes committed together in one SQLite transaction (group commit).", valueBuckets: defaultValueBuckets)

    // MARK: Keys and process

    public static let signingKeyAge = MetricDescriptor(
        "hearth_signing_key_age_seconds", .gauge, help: "Age of the key that signs new ID tokens, as of the scrape.")
    public static let startTime = MetricDescriptor(
        "hearth_start_time_seconds", .gauge, help: "When this server started, in seconds since 1970.")
    public static let buildInfo = MetricDescriptor(
        "hearth_build_info", .gauge, labels: ["version", "database"],
        help: "Always 1; its labels name the version and the database (sqlite or postgres).")

    /// Every metric, in the order docs/observability.md lists them.
    public static let catalogue: [MetricDescriptor] = [
        httpRequests, httpRequestDuration, signUps, signIns, tokenRefreshes, idTokenChecks, anonymousCleanupDeletions,
        passwordChecksRunning, passwordChecksWaiting,
        providerRequests, providerRequestDuration, jwksFetches, mailsQueued, mailsSent, mailsFailed,
        smsQueued, smsSent, smsFailed, smsBudgetUsed, queueWaiting,
        databaseConnectionsInUse, databaseConnectionsWaiting, databaseTransactionDuration, sqliteGroupCommitBatchSize,
        signingKeyAge, startTime, buildInfo,
    ]

    static let byName: [String: MetricDescriptor] = Dictionary(uniqueKeysWithValues: catalogue.map { ($0.name, $0) })
}
