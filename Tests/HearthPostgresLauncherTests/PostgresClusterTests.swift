import Foundation
import HearthPostgresLauncher
import Logging
import PostgresNIO
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The launcher on its own: a throwaway cluster that a real client reaches over TCP, stopped and started, and
/// gone with its directory after the shut-down; and the `posix_spawn` children it is built on.
@Suite("PostgreSQL launcher: throwaway clusters and child processes")
struct PostgresClusterTests {
    static let logger = Logger(label: "hearth.tests.launcher")

    /// Connects to `database` of `cluster` with PostgresNIO, as the superuser, and returns `SELECT <expression>`.
    static func select(_ expression: String, in database: String, of cluster: PostgresCluster) async throws -> Int {
        let configuration = PostgresConnection.Configuration(
            host: "127.0.0.1", port: cluster.port, username: PostgresCluster.user, password: cluster.password, database: database,
            tls: .disable)
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        do {
            let rows = try await connection.query(PostgresQuery(unsafeSQL: "SELECT \(expression) AS value"), logger: logger)
            var value: Int?
            for try await row in rows { value = try row.decode(Int.self) }
            try await connection.close()
            return try #require(value)
        } catch {
            try? await connection.close()
            throw error
        }
    }

    @Test("starts a cluster, a client connects and reads what psql wrote, stop refuses connections, start serves them again, shutdown removes it")
    func lifecycle() async throws {
        let cluster = try PostgresCluster.start(settings: ["max_connections": "20"])
        defer { cluster.shutdown() }
        #expect(FileManager.default.fileExists(atPath: cluster.dataDirectory))
        let pid = try #require(cluster.postmasterPID)
        #expect(kill(pid, 0) == 0)
        #expect(cluster.url(database: "x").hasPrefix("postgres://\(PostgresCluster.user):\(cluster.password)@127.0.0.1:\(cluster.port)/x"))

        let database = try await cluster.createDatabase(prefix: "launcher")
        try await cluster.psql("CREATE TABLE t (n BIGINT); INSERT INTO t VALUES (20), (22)", database: database)
        #expect(try await Self.select("(SELECT sum(n)::bigint FROM t)", in: database, of: cluster) == 42)
        #expect(try await Self.select("current_setting('max_connections')::bigint", in: database, of: cluster) == 20)

        try await cluster.stop()
        #expect(cluster.postmasterPID == nil)
        await #expect(throws: (any Error).self) { _ = try await Self.select("1", in: database, of: cluster) }
        try await cluster.start()
        // The data stayed.
        #expect(try await Self.select("(SELECT count(*) FROM t)", in: database, of: cluster) == 2)

        try await cluster.dropDatabase(database)
        await #expect(throws: (any Error).self) { _ = try await Self.select("1", in: database, of: cluster) }

        cluster.shutdown()
        #expect(!FileManager.default.fileExists(atPath: cluster.directory.path))
        // The postmaster is gone (it may take a moment to exit).
        var waited = 0
        while kill(pid, 0) == 0, waited < 100 {
            try await Task.sleep(for: .milliseconds(100))
            waited += 1
        }
        #expect(kill(pid, 0) != 0)
        cluster.shutdown()  // idempotent
    }

    @Test("a child process: its output in a file, its exit status, a signal's 128 + n (SIGKILL)")
    func childProcess() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-launcher-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out.txt")
        let child = try ChildProcess.start(["/bin/sh", "-c", "echo hello; echo oops >&2; exit 3"], output: output)
        #expect(try await child.wait(timeout: 30) == 3)
        #expect(!child.isRunning)
        #expect(try String(contentsOf: output, encoding: .utf8) == "hello\noops\n")

        let sleeper = try ChildProcess.start(["/bin/sleep", "30"], output: directory.appendingPathComponent("sleep.txt"))
        #expect(sleeper.isRunning)
        // SIGKILL: a test process may block or ignore SIGTERM, and a spawned child inherits that.
        sleeper.send(SIGKILL)
        #expect(try await sleeper.wait(timeout: 30) == 128 + SIGKILL)
        #expect(throws: LauncherError.self) { try ChildProcess.start([], output: output) }
    }
}
