import HearthPostgresLauncher

/// The throwaway PostgreSQL server of the tests: a ``PostgresCluster`` with the tests' settings, one
/// database per test, everything deleted at the end.
///
/// ```swift
/// let cluster = try PostgresTestCluster.shared()     // one per test process, started on first use
/// let url = try await cluster.createDatabase()        // postgres://hearth:…@127.0.0.1:port/test_…
/// ```
///
/// When PostgreSQL is not installed, every call throws an error saying to install it, so the PostgreSQL
/// tests fail loudly instead of passing silently. Fault tests stop and restart a server: they must use
/// their own cluster (``PostgresCluster/startPrivate()``), because stopping the shared one would break the
/// tests running next to them.
public typealias PostgresTestCluster = PostgresCluster

extension PostgresCluster {
    /// The tests' server settings. `fsync=off`: commits reach the OS, not the disk — they survive
    /// `stop -m immediate` (only an OS crash would lose them). `synchronous_commit` stays on: with it off,
    /// an immediate stop would drop the last commits before the WAL writer wrote them. `max_connections`:
    /// every test server's pool may keep 10 connections open until it closes, and the HTTP suites on
    /// PostgreSQL run about 190 tests at once; 500 ran out at about 50 s.
    public static let testSettings = [
        "fsync": "off", "full_page_writes": "off", "max_connections": "1500", "shared_buffers": "32MB",
    ]

    private static let sharedCluster: Result<PostgresCluster, any Error> = Result {
        try start(settings: testSettings)
    }

    /// The cluster shared by every test of this process, started on first use (thread-safe; callers
    /// wait while it starts). Throws the same error every time when it cannot start.
    public static func shared() throws -> PostgresCluster {
        try sharedCluster.get()
    }

    /// A cluster of its own, for tests that stop or restart the server. Call ``shutdown()`` when done
    /// (the `atexit` hook catches the ones that are not).
    public static func startPrivate() async throws -> PostgresCluster {
        try start(settings: testSettings)
    }

    /// Creates an empty database `test_<random>` and returns its URL.
    ///
    /// - Parameter connectTimeout: the URL's `connect_timeout` in seconds, which also bounds the wait for
    ///   a first pooled connection. 30 by default: while the suite runs, dozens of pools open at once on
    ///   two cores and a first connection can take longer than the production default of 5 s without
    ///   anything being wrong. `nil` keeps the production defaults, for tests of a database that is down.
    public func createDatabase(connectTimeout: Int? = 30) async throws -> String {
        let name = try await createDatabase(prefix: "test")
        return url(database: name) + (connectTimeout.map { "&connect_timeout=\($0)" } ?? "")
    }
}
