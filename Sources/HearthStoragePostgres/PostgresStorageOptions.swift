/// Tuning of the PostgreSQL backend. The defaults suit a few replicas on one database.
///
/// Every wait is bounded, so a database that is down or unreachable surfaces as
/// `HearthError(.storageUnavailable)` within seconds instead of hanging a request.
public struct PostgresStorageOptions: Sendable {
    /// Connections the pool may open (at least 2: a leader lock holds one for its whole duration).
    public var maximumConnections: Int = 10
    /// How long opening one connection (TCP, TLS, authentication) may take.
    public var connectTimeout: Duration = .seconds(5)
    /// How long a unit of work waits for a pooled connection, while none of this store's
    /// transactions holds one, before failing with `HearthError(.storageUnavailable)`: the pool
    /// cannot connect, so the database is down or unreachable.
    public var acquireTimeout: Duration = .seconds(5)
    /// How long a unit of work may wait for a pooled connection while other transactions of this
    /// store hold connections (the pool is busy, not broken) before failing the same way.
    public var busyAcquireTimeout: Duration = .seconds(30)
    /// Server-side limit for one statement, including waits for locks (`statement_timeout`);
    /// `nil` keeps the server's setting.
    public var statementTimeout: Duration? = .seconds(30)
    /// Client-side limit for one statement: when the server has not answered by then (a dead
    /// connection, a network partition), the connection is closed and the statement fails with
    /// `HearthError(.storageUnavailable)`. Keep it above ``statementTimeout``.
    public var statementWatchdog: Duration = .seconds(40)
    /// Whether statements run again are sent as named server-side prepared statements, so PostgreSQL parses
    /// and plans each once per connection (``PreparedStatements``). Turn it off behind a connection pooler in
    /// transaction mode that does not keep prepared statements (PgBouncer before 1.21, or without
    /// `max_prepared_statements`).
    public var preparedStatements = true
    /// Whether the pool opens all ``maximumConnections`` at once and keeps them, without keep-alive queries (a server's
    /// pool), rather than opening connections as they are needed and closing them after a minute idle (a tool's, which
    /// runs a few statements and exits). See ``PostgresEndpoint``'s client configuration for why a server's pool is fixed.
    public var keepsConnectionsOpen = false
    /// How long ``PostgresTransactor/close()`` waits for work in flight before closing connections
    /// under it.
    public var closeGracePeriod: Duration = .seconds(10)

    /// The defaults.
    public init() {}
}
