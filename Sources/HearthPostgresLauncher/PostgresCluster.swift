import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A throwaway PostgreSQL server: `initdb` in a fresh temporary directory, `pg_ctl start` on a free
/// loopback port, everything deleted at the end. The tests' clusters (`PostgresTestCluster` in
/// HearthTesting) and the benchmark's are both one of these, each with its own ``settings``.
///
/// ```swift
/// let cluster = try PostgresCluster.start(settings: ["max_connections": "200"])
/// let url = cluster.url(database: try await cluster.createDatabase(prefix: "bench"))
/// cluster.shutdown()
/// ```
///
/// - Binaries: `$HEARTH_PG_BIN`, else the newest `/usr/lib/postgresql/<version>/bin`, else `PATH`.
///   When none has `initdb`, `pg_ctl` and `psql`, ``start(settings:)`` throws an error saying to
///   install PostgreSQL.
/// - Running as root (PostgreSQL refuses to), the server runs as `postgres` (else `nobody`) through
///   `runuser` (or `setpriv`), in a directory that user owns.
/// - The server listens on `127.0.0.1` only, with its Unix socket in the temporary directory;
///   `hearth` is the superuser. Authentication: `hearth` is trusted (its URLs carry a password all the
///   same, which the server ignores, so no SCRAM handshake costs CPU per connection); every other role
///   must give its password (SCRAM) (``createRole(_:password:)``).
/// - Clean-up: ``shutdown()``; whatever is still running at process exit is stopped by an `atexit`
///   hook, and clusters left behind by a crashed process are removed when the next one starts.
public final class PostgresCluster: Sendable {
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
    /// The server's settings (`-c name=value`) besides its address, port and socket directory.
    public let settings: [String: String]
    /// The account the server runs as when this process is root (`nil`: as this process).
    private let serverAccount: ServerAccount?
    private let isShutDown = Mutex(false)

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

    /// The postmaster's pid, from `postmaster.pid`; `nil` while the server is stopped.
    public var postmasterPID: pid_t? {
        Self.postmasterPID(dataDirectory: dataDirectory)
    }

    private init(
        binDirectory: String, directory: URL, port: Int, password: String, settings: [String: String], serverAccount: ServerAccount?
    ) {
        self.binDirectory = binDirectory
        self.directory = directory
        self.port = port
        self.password = password
        self.settings = settings
        self.serverAccount = serverAccount
    }

    // MARK: - Databases and roles

    /// A URL of database `database` for the superuser, over TCP with a password, TLS off.
    public func url(database: String) -> String {
        url(database: database, user: Self.user, password: password)
    }

    /// A URL of database `database` for `user` with `password`, over TCP, TLS off.
    public func url(database: String, user: String, password: String) -> String {
        "postgres://\(user):\(password)@127.0.0.1:\(port)/\(database)?sslmode=disable"
    }

    /// Creates an empty database `<prefix>_<random>` and returns its name.
    public func createDatabase(prefix: String) async throws -> String {
        let name = "\(prefix)_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        try await psql("CREATE DATABASE \(name)")
        return name
    }

    /// Drops database `name`, cutting any connection still open to it.
    public func dropDatabase(_ name: String) async throws {
        try await psql("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// Creates a login role that must authenticate with `password` (SCRAM-SHA-256).
    public func createRole(_ name: String, password: String) async throws {
        try await psql("CREATE ROLE \(name) LOGIN PASSWORD '\(password)'")
    }

    /// Runs one SQL command as the superuser in `database` (over the Unix socket).
    public func psql(_ command: String, database: String = "postgres") async throws {
        let arguments = [
            binary("psql"), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", socketDirectory, "-p", "\(port)", "-U", Self.user,
            "-d", database, "-c", command,
        ]
        let result = try await Self.run(arguments, account: nil, in: directory)
        guard result.status == 0 else {
            throw LauncherError("psql failed (\(result.status)) for: \(command)\n\(result.output)")
        }
    }

    // MARK: - Stopping and starting

    /// Stops the server at once (`pg_ctl stop -m immediate`): clients see their connections drop.
    public func stop() async throws {
        try await Self.runChecked(pgCtl(["stop", "-m", "immediate"]), account: serverAccount, in: directory)
    }

    /// Starts the stopped server again on the same port and data directory.
    public func start() async throws {
        try await Self.runChecked(pgCtl(startArguments), account: serverAccount, in: directory)
    }

    /// ``stop()`` then ``start()``: every connection is cut, the data stays.
    public func restart() async throws {
        try await stop()
        try await start()
    }

    /// Stops the server (if running) and deletes the directory. Idempotent.
    public func shutdown() {
        let wasShutDown = isShutDown.withLock { isShutDown in
            defer { isShutDown = true }
            return isShutDown
        }
        guard !wasShutDown else { return }
        Self.terminatePostmaster(dataDirectory: dataDirectory)
        try? FileManager.default.removeItem(at: directory)
        _ = Self.registry.withLock { $0.removeValue(forKey: directory.path) }
    }

    // MARK: - Start-up

    /// Initialises a cluster in a new temporary directory and starts it with `settings` (`-c name=value`),
    /// waiting until it accepts connections. Blocks the calling thread while `initdb` and `pg_ctl` run.
    public static func start(settings: [String: String]) throws -> PostgresCluster {
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
            try initialise(directory, password: password, binDirectory: binDirectory, account: account)
            var lastError: (any Error)?
            for _ in 0..<5 {
                let cluster = PostgresCluster(
                    binDirectory: binDirectory, directory: directory, port: try freePort(), password: password,
                    settings: settings, serverAccount: account)
                do {
                    try runCheckedBlocking(cluster.pgCtl(cluster.startArguments), account: account, in: directory)
                    return cluster
                } catch {
                    lastError = error  // most likely the port was taken meanwhile: try another
                }
            }
            throw lastError ?? LauncherError("pg_ctl start failed")
        } catch {
            terminatePostmaster(dataDirectory: directory.appendingPathComponent("data").path)
            try? FileManager.default.removeItem(at: directory)
            _ = registry.withLock { $0.removeValue(forKey: directory.path) }
            throw error
        }
    }

    /// `initdb` with the superuser's password, and the authentication rules: the superuser trusted,
    /// every other role by SCRAM.
    private static func initialise(_ directory: URL, password: String, binDirectory: String, account: ServerAccount?) throws {
        let passwordFile = directory.appendingPathComponent("pwfile")
        try Data((password + "\n").utf8).write(to: passwordFile)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: passwordFile.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path)
        try give([directory.path, passwordFile.path], to: account)
        try runCheckedBlocking(
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
        try give([hba.path], to: account)
    }

    /// Hands `paths` to the server's account (when this process is root).
    private static func give(_ paths: [String], to account: ServerAccount?) throws {
        guard let account else { return }
        for path in paths where chown(path, account.uid, account.gid) != 0 {
            throw LauncherError("cannot give \(path) to \(account.name): errno \(errno)")
        }
    }

    private var startArguments: [String] {
        let options =
            ["-c listen_addresses=127.0.0.1", "-c port=\(port)", "-c unix_socket_directories='\(socketDirectory)'"]
            + settings.sorted { $0.key < $1.key }.map { "-c \($0.key)=\($0.value)" }
        return ["start", "-w", "-t", "60", "-l", logFile, "-o", options.joined(separator: " ")]
    }

    private func pgCtl(_ arguments: [String]) -> [String] {
        [binary("pg_ctl"), "-D", dataDirectory, "-s"] + arguments
    }

    private func binary(_ name: String) -> String {
        "\(binDirectory)/\(name)"
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
                throw LauncherError(
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
        throw LauncherError(
            """
            PostgreSQL server binaries (initdb, pg_ctl, psql) not found in /usr/lib/postgresql/*/bin or PATH. \
            Install postgresql (Debian/Ubuntu: apt-get install -y postgresql; macOS: brew install postgresql) \
            or set HEARTH_PG_BIN to their directory.
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
        throw LauncherError("running as root, but there is neither a postgres nor a nobody account to run PostgreSQL as")
    }

    /// A TCP port on 127.0.0.1 that nothing listens on right now (for a server that cannot be given port 0: PostgreSQL
    /// here, glewlwyd in hearth-benchmark).
    public static func freePort() throws -> Int {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw LauncherError("socket() failed: errno \(errno)") }
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
        guard bound == 0 else { throw LauncherError("bind() failed: errno \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { throw LauncherError("getsockname() failed: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    // MARK: - Clean-up

    /// Live clusters of this process: directory → data directory.
    private static let registry = Mutex<[String: String]>([:])
    private static let exitHook: Void = {
        atexit {
            PostgresCluster.shutdownAllAtExit()
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

    /// The pid in `postmaster.pid`, if any.
    private static func postmasterPID(dataDirectory: String) -> pid_t? {
        guard let pidFile = try? String(contentsOfFile: "\(dataDirectory)/postmaster.pid", encoding: .utf8),
            let firstLine = pidFile.split(separator: "\n").first, let pid = pid_t(firstLine.trimmingCharacters(in: .whitespaces)),
            pid > 0
        else { return nil }
        return pid
    }

    /// Immediate shutdown without a subprocess (usable from `atexit`): SIGQUIT to the postmaster
    /// named in `postmaster.pid`, then wait up to 10 s for it to go.
    private static func terminatePostmaster(dataDirectory: String) {
        guard let pid = postmasterPID(dataDirectory: dataDirectory), kill(pid, SIGQUIT) == 0 else { return }
        for _ in 0..<1000 where kill(pid, 0) == 0 {
            usleep(10_000)
        }
    }

    /// Removes `hearth-pg-<pid>-*` directories of processes that no longer exist (crashed before their
    /// `atexit` hook ran), stopping their servers first.
    private static func removeStaleClusters() {
        let temporary = URL(fileURLWithPath: NSTemporaryDirectory())
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: temporary.path) else { return }
        for name in names where name.hasPrefix("hearth-pg-") {
            let parts = name.split(separator: "-")
            guard parts.count >= 4, let owner = pid_t(parts[2]), owner != getpid() else { continue }
            guard kill(owner, 0) != 0, errno == ESRCH else { continue }  // its process still runs
            let directory = temporary.appendingPathComponent(name)
            terminatePostmaster(dataDirectory: directory.appendingPathComponent("data").path)
            try? FileManager.default.removeItem(at: directory)
        }
    }

    // MARK: - Processes

    /// Starts `command` (as `account` when given, through `runuser`, else `setpriv`) in `directory`, with
    /// its output into a file.
    ///
    /// ``ChildProcess`` (`posix_spawn`), not Foundation's `Process`: on Linux `Process` learns of a child's
    /// exit through a descriptor every descendant inherits, so `pg_ctl start` — whose server keeps running
    /// — would never be seen to finish; and only descriptors 0–2 reach the postmaster, which outlasts the
    /// caller that started it.
    private static func spawn(_ command: [String], account: ServerAccount?, in directory: URL) throws -> (ChildProcess, output: URL) {
        guard !command.isEmpty else { throw LauncherError("empty command") }
        var arguments = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", directory.path]
        if let account {
            arguments +=
                FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser")
                ? ["/usr/sbin/runuser", "-u", account.name, "--"]
                : ["/usr/bin/setpriv", "--reuid=\(account.uid)", "--regid=\(account.gid)", "--clear-groups"]
        }
        let output = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("hearth-pg-output-\(UUID().uuidString)")
        return (try ChildProcess.start(arguments + command, output: output), output)
    }

    /// The output of a finished command, its file removed.
    private static func collect(_ output: URL) -> String {
        defer { try? FileManager.default.removeItem(at: output) }
        return (try? String(contentsOf: output, encoding: .utf8)) ?? ""
    }

    /// Runs a command to completion, polling without blocking a thread; its exit status and output.
    private static func run(_ command: [String], account: ServerAccount?, in directory: URL) async throws -> (status: Int32, output: String) {
        let (child, output) = try spawn(command, account: account, in: directory)
        while true {
            if let status = try child.exitStatus() { return (status, collect(output)) }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    private static func runChecked(_ command: [String], account: ServerAccount?, in directory: URL) async throws {
        let result = try await run(command, account: account, in: directory)
        guard result.status == 0 else {
            throw LauncherError("\(command.joined(separator: " ")) failed (\(result.status)):\n\(result.output)")
        }
    }

    /// Runs a command to completion, blocking the calling thread (start-up only).
    private static func runCheckedBlocking(_ command: [String], account: ServerAccount?, in directory: URL) throws {
        let (child, output) = try spawn(command, account: account, in: directory)
        var status = try child.exitStatus()
        while status == nil {
            usleep(5_000)
            status = try child.exitStatus()
        }
        let text = collect(output)
        guard status == 0 else {
            throw LauncherError("\(command.joined(separator: " ")) failed (\(status ?? -1)):\n\(text)")
        }
    }
}
