import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A throwaway PostgreSQL server for tests: `initdb` in a fresh temporary directory, `pg_ctl start`
/// on a free loopback port, one database per test, everything deleted at the end.
///
/// ```swift
/// let cluster = try PostgresTestCluster.shared()     // one per test process, started on first use
/// let url = try await cluster.createDatabase()        // postgres://hearth:…@127.0.0.1:port/test_…
/// ```
///
/// - Binaries: `$HEARTH_PG_BIN`, else the newest `/usr/lib/postgresql/<version>/bin`, else `PATH`.
///   When none has `initdb`, `pg_ctl` and `psql`, every call throws an error saying to install
///   PostgreSQL, so the PostgreSQL tests fail loudly instead of passing silently.
/// - Running as root (PostgreSQL refuses to), the server runs as `postgres` (else `nobody`) through
///   `runuser` (or `setpriv`), in a directory that user owns.
/// - The server listens on `127.0.0.1` only, with its Unix socket in the temporary directory;
///   `hearth` is the superuser. `fsync=off` keeps it fast: committed data survives ``restart()``,
///   just not an OS crash. Authentication: `hearth` is trusted (its URLs carry a password all the
///   same, which the server ignores — SCRAM in a debug build costs real CPU per connection); every
///   other role must give its password (SCRAM), so tests of authentication create their own role
///   (``createRole(_:password:)``).
/// - Clean-up: ``shutdown()``; whatever is still running at process exit is stopped by an `atexit`
///   hook, and clusters left behind by a crashed test process are removed when the next one starts.
///
/// Fault tests stop and restart a server: they must use their own cluster (``startPrivate()``),
/// because stopping the shared one would break the tests running next to them.
public final class PostgresTestCluster: Sendable {
    /// The bootstrap superuser.
    public static let user = "hearth"

    /// Directory of `initdb`, `pg_ctl`, `psql`.
    public let binDirectory: String
    /// The temporary directory: data directory, socket, log, password file.
    public let directory: URL
    /// The TCP port on 127.0.0.1 (kept across ``restart()``).
    public let port: Int
    /// The superuser's password.
    public let password: String
    /// The account the server runs as when this process is root (`nil`: as this process).
    private let serverAccount: ServerAccount?
    private let state = Mutex(State())

    private struct State {
        var isRunning = false
        var isShutDown = false
        var databases = 0
    }

    /// An unprivileged account the server runs as.
    struct ServerAccount: Sendable {
        let name: String
        let uid: uid_t
        let gid: gid_t
    }

    public var dataDirectory: String { directory.appendingPathComponent("data").path }
    public var logFile: String { directory.appendingPathComponent("server.log").path }
    /// Where the server's Unix socket lives (`.s.PGSQL.<port>`).
    public var socketDirectory: String { directory.path }

    private init(binDirectory: String, directory: URL, port: Int, password: String, serverAccount: ServerAccount?) {
        self.binDirectory = binDirectory
        self.directory = directory
        self.port = port
        self.password = password
        self.serverAccount = serverAccount
    }

    // MARK: - Getting a cluster

    private static let sharedCluster: Result<PostgresTestCluster, any Error> = Result {
        try startBlocking()
    }

    /// The cluster shared by every test of this process, started on first use (thread-safe; callers
    /// wait while it starts). Throws the same error every time when it cannot start.
    public static func shared() throws -> PostgresTestCluster {
        try sharedCluster.get()
    }

    /// A cluster of its own, for tests that stop or restart the server. Call ``shutdown()`` when done
    /// (the `atexit` hook catches the ones that are not).
    public static func startPrivate() async throws -> PostgresTestCluster {
        try startBlocking()
    }

    /// A URL of database `database` for the superuser, over TCP with a password, TLS off.
    public func url(database: String) -> String {
        url(database: database, user: Self.user, password: password)
    }

    /// A URL of database `database` for `user` with `password`, over TCP, TLS off.
    public func url(database: String, user: String, password: String) -> String {
        "postgres://\(user):\(password)@127.0.0.1:\(port)/\(database)?sslmode=disable"
    }

    /// Creates a login role that must authenticate with `password` (SCRAM-SHA-256).
    public func createRole(_ name: String, password: String) async throws {
        try await psql("CREATE ROLE \(name) LOGIN PASSWORD '\(password)'")
    }

    /// Creates an empty database `test_<random>` and returns its URL.
    ///
    /// - Parameter connectTimeout: the URL's `connect_timeout` in seconds, which also bounds the wait for
    ///   a first pooled connection. 30 by default: while the suite runs, dozens of pools open at once on
    ///   two cores and a first connection can take longer than the production default of 5 s without
    ///   anything being wrong. `nil` keeps the production defaults, for tests of a database that is down.
    public func createDatabase(connectTimeout: Int? = 30) async throws -> String {
        let name = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        try await psql("CREATE DATABASE \(name)")
        state.withLock { $0.databases += 1 }
        return url(database: name) + (connectTimeout.map { "&connect_timeout=\($0)" } ?? "")
    }

    /// Drops database `name` (made by ``createDatabase()``), cutting any connection still open to it.
    public func dropDatabase(_ name: String) async throws {
        try await psql("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// Runs one SQL command as the superuser in database `postgres` (over the Unix socket).
    public func psql(_ command: String, database: String = "postgres") async throws {
        let result = try await Self.runAsync(
            binary("psql"),
            ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", socketDirectory, "-p", "\(port)", "-U", Self.user,
             "-d", database, "-c", command],
            account: nil, workingDirectory: directory)
        guard result.status == 0 else {
            throw HarnessError("psql failed (\(result.status)) for: \(command)\n\(result.output)")
        }
    }

    // MARK: - Stopping and starting

    /// Stops the server at once (`pg_ctl stop -m immediate`): clients see their connections drop.
    public func stop() async throws {
        try await Self.runAsyncChecked(pgCtl(["stop", "-m", "immediate"]), account: serverAccount, in: directory)
        state.withLock { $0.isRunning = false }
    }

    /// Starts the stopped server again on the same port and data directory.
    public func start() async throws {
        try await Self.runAsyncChecked(pgCtl(startArguments), account: serverAccount, in: directory)
        state.withLock { $0.isRunning = true }
    }

    /// ``stop()`` then ``start()``: every connection is cut, the data stays.
    public func restart() async throws {
        try await stop()
        try await start()
    }

    /// Stops the server (if running) and deletes the directory. Idempotent.
    public func shutdown() {
        let wasShutDown = state.withLock { state in
            defer { state.isShutDown = true }
            return state.isShutDown
        }
        guard !wasShutDown else { return }
        Self.terminatePostmaster(dataDirectory: dataDirectory)
        try? FileManager.default.removeItem(at: directory)
        _ = Self.registry.withLock { $0.removeValue(forKey: directory.path) }
    }

    // MARK: - Start-up

    private var startArguments: [String] {
        let options = [
            "-c listen_addresses=127.0.0.1", "-c port=\(port)", "-c unix_socket_directories='\(socketDirectory)'",
            // fsync=off: commits reach the OS, not the disk — they survive `stop -m immediate` (only
            // an OS crash would lose them). synchronous_commit stays on: with it off, an immediate
            // stop would drop the last commits before the WAL writer wrote them.
            // max_connections: every test server's pool may keep 10 connections open until it closes, and
            // the HTTP suites on PostgreSQL run about 190 tests at once; 500 ran out at about 50 s.
            "-c fsync=off", "-c full_page_writes=off", "-c max_connections=1500",
            "-c shared_buffers=32MB",
        ]
        return ["start", "-w", "-t", "60", "-l", logFile, "-o", options.joined(separator: " ")]
    }

    private func pgCtl(_ arguments: [String]) -> [String] {
        [binary("pg_ctl"), "-D", dataDirectory, "-s"] + arguments
    }

    private func binary(_ name: String) -> String {
        "\(binDirectory)/\(name)"
    }

    private static func startBlocking() throws -> PostgresTestCluster {
        registerExitHook()
        removeStaleClusters()
        let binDirectory = try locateBinaries()
        let account = try serverAccount()
        let directory = URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("hearth-pg-\(getpid())-\(UUID().uuidString.prefix(8).lowercased())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        registry.withLock { $0[directory.path] = directory.appendingPathComponent("data").path }
        do {
            let password = UUID().uuidString.replacingOccurrences(of: "-", with: "")
            let passwordFile = directory.appendingPathComponent("pwfile")
            try Data((password + "\n").utf8).write(to: passwordFile)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: passwordFile.path)
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path)
            if let account {
                for path in [directory.path, passwordFile.path] where chown(path, account.uid, account.gid) != 0 {
                    throw HarnessError("cannot give \(path) to \(account.name): errno \(errno)")
                }
            }
            try runChecked(
                [
                    "\(binDirectory)/initdb", "-D", directory.appendingPathComponent("data").path, "-U", user,
                    "--pwfile=\(passwordFile.path)", "--auth-host=scram-sha-256", "--auth-local=trust",
                    "--encoding=UTF8", "--locale=C", "--no-sync",
                ],
                account: account, in: directory)
            let hba = directory.appendingPathComponent("data/pg_hba.conf")
            try Data(
                """
                local all all trust
                host all \(user) 127.0.0.1/32 trust
                host all all 127.0.0.1/32 scram-sha-256

                """.utf8
            ).write(to: hba)
            if let account, chown(hba.path, account.uid, account.gid) != 0 {
                throw HarnessError("cannot give \(hba.path) to \(account.name): errno \(errno)")
            }
            var lastError: (any Error)?
            for _ in 0..<5 {
                let cluster = PostgresTestCluster(
                    binDirectory: binDirectory, directory: directory, port: try freePort(), password: password,
                    serverAccount: account)
                do {
                    try runChecked(cluster.pgCtl(cluster.startArguments), account: account, in: directory)
                    cluster.state.withLock { $0.isRunning = true }
                    return cluster
                } catch {
                    lastError = error  // most likely the port was taken meanwhile: try another
                }
            }
            throw lastError ?? HarnessError("pg_ctl start failed")
        } catch {
            terminatePostmaster(dataDirectory: directory.appendingPathComponent("data").path)
            try? FileManager.default.removeItem(at: directory)
            _ = registry.withLock { $0.removeValue(forKey: directory.path) }
            throw error
        }
    }

    /// `$HEARTH_PG_BIN`, the newest `/usr/lib/postgresql/<version>/bin`, or a `PATH` entry with the tools.
    public static func locateBinaries() throws -> String {
        let tools = ["initdb", "pg_ctl", "psql"]
        func hasTools(_ directory: String) -> Bool {
            tools.allSatisfy { FileManager.default.isExecutableFile(atPath: "\(directory)/\($0)") }
        }
        let environment = ProcessInfo.processInfo.environment
        if let configured = environment["HEARTH_PG_BIN"], !configured.isEmpty {
            guard hasTools(configured) else {
                throw HarnessError(
                    """
                    HEARTH_PG_BIN=\(configured) does not contain \(tools.joined(separator: ", ")). Point it at the \
                    bin directory of a PostgreSQL installation, or unset it and install postgresql \
                    (Debian/Ubuntu: apt-get install -y postgresql).
                    """)
            }
            return configured
        }
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
            .sorted { (Int($0) ?? 0, $0) > (Int($1) ?? 0, $1) }
        if let version = versions.first(where: { hasTools("\(root)/\($0)/bin") }) {
            return "\(root)/\(version)/bin"
        }
        let path = environment["PATH"] ?? ""
        if let directory = path.split(separator: ":").map(String.init).first(where: hasTools) {
            return directory
        }
        throw HarnessError(
            """
            PostgreSQL server binaries (initdb, pg_ctl, psql) not found in /usr/lib/postgresql/*/bin or PATH. \
            Install postgresql (Debian/Ubuntu: apt-get install -y postgresql; macOS: brew install postgresql) \
            or set HEARTH_PG_BIN to their directory. The PostgreSQL tests cannot run without them.
            """)
    }

    /// `postgres` (else `nobody`) when this process is root; `nil` otherwise.
    private static func serverAccount() throws -> ServerAccount? {
        guard geteuid() == 0 else { return nil }
        for name in ["postgres", "nobody"] {
            if let entry = getpwnam(name) {
                return ServerAccount(name: name, uid: entry.pointee.pw_uid, gid: entry.pointee.pw_gid)
            }
        }
        throw HarnessError("running as root, but there is neither a postgres nor a nobody account to run PostgreSQL as")
    }

    /// A TCP port on 127.0.0.1 that nothing listens on right now.
    private static func freePort() throws -> Int {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw HarnessError("socket() failed: errno \(errno)") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw HarnessError("bind() failed: errno \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { throw HarnessError("getsockname() failed: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    // MARK: - Clean-up

    /// Live clusters of this process: directory → data directory.
    private static let registry = Mutex<[String: String]>([:])
    private static let exitHook: Void = {
        atexit {
            PostgresTestCluster.shutdownAllAtExit()
        }
    }()

    private static func registerExitHook() {
        _ = exitHook
    }

    /// Stops every cluster this process still runs and deletes their directories.
    private static func shutdownAllAtExit() {
        let clusters = registry.withLock { registry in
            defer { registry.removeAll() }
            return registry
        }
        for (directory, dataDirectory) in clusters {
            terminatePostmaster(dataDirectory: dataDirectory)
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    /// Immediate shutdown without a subprocess (usable from `atexit`): SIGQUIT to the postmaster
    /// named in `postmaster.pid`, then wait up to 10 s for it to go.
    private static func terminatePostmaster(dataDirectory: String) {
        guard let pidFile = try? String(contentsOfFile: "\(dataDirectory)/postmaster.pid", encoding: .utf8),
            let firstLine = pidFile.split(separator: "\n").first, let pid = pid_t(firstLine.trimmingCharacters(in: .whitespaces)),
            pid > 0
        else { return }
        guard kill(pid, SIGQUIT) == 0 else { return }
        for _ in 0..<1000 where kill(pid, 0) == 0 {
            usleep(10_000)
        }
    }

    /// Removes `hearth-pg-<pid>-*` directories of test processes that no longer exist (crashed
    /// before their `atexit` hook ran), stopping their servers first.
    private static func removeStaleClusters() {
        let temporary = URL(fileURLWithPath: NSTemporaryDirectory())
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: temporary.path) else { return }
        for name in names where name.hasPrefix("hearth-pg-") {
            let parts = name.split(separator: "-")
            guard parts.count >= 4, let owner = pid_t(parts[2]), owner != getpid() else { continue }
            guard kill(owner, 0) != 0, errno == ESRCH else { continue }  // its test process still runs
            let directory = temporary.appendingPathComponent(name)
            terminatePostmaster(dataDirectory: directory.appendingPathComponent("data").path)
            try? FileManager.default.removeItem(at: directory)
        }
    }

    // MARK: - Processes

    /// What a finished process said.
    struct ProcessResult: Sendable {
        let status: Int32
        let output: String
    }

    /// A started child process: its pid and the file collecting its output.
    private struct Child {
        let pid: pid_t
        let output: URL
    }

    /// Starts `command` (as `account` when given, through `runuser`) in `workingDirectory`, with
    /// stdin from /dev/null and stdout/stderr into a file.
    ///
    /// ``ChildProcess`` (`posix_spawn`, reaped here with `waitpid`), not Foundation's `Process`: on Linux
    /// `Process` learns of a child's exit through a descriptor every descendant inherits, so `pg_ctl start`
    /// — whose server keeps running — would never be seen to finish; and only descriptors 0–2 reach the
    /// postmaster, which outlasts the test that started it.
    private static func spawn(_ command: [String], account: ServerAccount?, workingDirectory: URL) throws -> Child {
        guard !command.isEmpty else { throw HarnessError("empty command") }
        var arguments = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", workingDirectory.path]
        if let account {
            arguments +=
                FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser")
                ? ["/usr/sbin/runuser", "-u", account.name, "--"]
                : ["/usr/bin/setpriv", "--reuid=\(account.uid)", "--regid=\(account.gid)", "--clear-groups"]
        }
        arguments += command
        let output = URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("hearth-pg-output-\(UUID().uuidString)")

        let child = try ChildProcess.start(arguments, output: output)
        return Child(pid: child.pid, output: output)
    }

    /// The exit status of a child that has ended, or `nil` while it runs.
    private static func exitStatus(of child: Child, blocking: Bool) throws -> Int32? {
        var status: Int32 = 0
        while true {
            let result = waitpid(child.pid, &status, blocking ? 0 : WNOHANG)
            if result == child.pid { break }
            if result == 0 { return nil }
            if errno == EINTR { continue }
            throw HarnessError("waitpid failed: errno \(errno)")
        }
        // WIFEXITED / WEXITSTATUS, spelled out (they are macros).
        if status & 0x7f == 0 { return (status >> 8) & 0xff }
        return 128 + (status & 0x7f)
    }

    private static func collect(_ child: Child, status: Int32) -> ProcessResult {
        let text = (try? String(contentsOf: child.output, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(at: child.output)
        return ProcessResult(status: status, output: text)
    }

    /// Runs a command to completion, blocking the calling thread (start-up only).
    private static func runChecked(_ command: [String], account: ServerAccount?, in directory: URL) throws {
        let child = try spawn(command, account: account, workingDirectory: directory)
        let result = collect(child, status: try exitStatus(of: child, blocking: true) ?? -1)
        guard result.status == 0 else {
            throw HarnessError("\(command.joined(separator: " ")) failed (\(result.status)):\n\(result.output)")
        }
    }

    /// Runs a command to completion, polling instead of blocking a thread.
    private static func runAsync(
        _ executable: String, _ arguments: [String], account: ServerAccount?, workingDirectory: URL
    ) async throws -> ProcessResult {
        let child = try spawn([executable] + arguments, account: account, workingDirectory: workingDirectory)
        while true {
            if let status = try exitStatus(of: child, blocking: false) {
                return collect(child, status: status)
            }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    private static func runAsyncChecked(_ command: [String], account: ServerAccount?, in directory: URL) async throws {
        guard let executable = command.first else { throw HarnessError("empty command") }
        let result = try await runAsync(executable, Array(command.dropFirst()), account: account, workingDirectory: directory)
        guard result.status == 0 else {
            throw HarnessError("\(command.joined(separator: " ")) failed (\(result.status)):\n\(result.output)")
        }
    }
}
