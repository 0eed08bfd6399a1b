import Foundation

/// A throwaway PostgreSQL server for the benchmark: `initdb` in a fresh temporary directory, the
/// `postgres` server as a child process on a free loopback port, deleted at the end.
///
/// - Binaries: `$HEARTH_PG_BIN`, else the newest `/usr/lib/postgresql/<version>/bin`, else `PATH`.
/// - Running as root (PostgreSQL refuses to), the server runs as `postgres` (else `nobody`) through
///   `setpriv`, which execs, so the child's pid is the postmaster's and signals reach it directly.
/// - Settings: `fsync` on, `synchronous_commit=off` (a commit does not wait for its WAL flush: the
///   same durability as the SQLite default, `synchronous=NORMAL` in WAL mode, where a commit is not
///   synced either; an OS crash may lose the last commits, never corrupts), `max_connections=200`,
///   `shared_buffers=256MB`. The superuser `hearth` is trusted on loopback, so no SCRAM handshake
///   costs CPU when the replicas' pools connect.
final class PostgresCluster: @unchecked Sendable {
    static let user = "hearth"

    let binDirectory: String
    let directory: URL
    let port: Int
    private let process: Process
    private var databases = 0

    var dataDirectory: String { directory.appendingPathComponent("data").path }
    var socketDirectory: String { directory.path }
    var pid: Int32 { process.processIdentifier }

    private init(binDirectory: String, directory: URL, port: Int, process: Process) {
        self.binDirectory = binDirectory
        self.directory = directory
        self.port = port
        self.process = process
    }

    /// `postgres://hearth:…@127.0.0.1:<port>/<database>?sslmode=disable` (the password is ignored: trust).
    func url(database: String) -> String {
        "postgres://\(Self.user):bench@127.0.0.1:\(port)/\(database)?sslmode=disable"
    }

    /// Creates an empty database and returns its URL.
    func createDatabase(prefix: String = "bench") throws -> String {
        databases += 1
        let name = "\(prefix)_\(databases)_\(UUID().uuidString.prefix(8).lowercased())"
        try psql("CREATE DATABASE \(name)")
        return url(database: name)
    }

    /// Runs one SQL command as the superuser in database `postgres` over the Unix socket.
    func psql(_ command: String) throws {
        let result = try Self.run(
            "\(binDirectory)/psql",
            ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", socketDirectory, "-p", "\(port)", "-U", Self.user, "-d", "postgres", "-c", command],
            account: nil)
        guard result.status == 0 else { throw BenchmarkError("psql failed (\(result.status)) for \(command): \(result.output)") }
    }

    /// Pids of the postmaster and its children (backends, WAL writer, checkpointer…), for CPU accounting.
    func processIDs() -> [Int32] {
        ProcessTree.descendants(of: pid, includingRoot: true)
    }

    /// Initialises a cluster in a new temporary directory and starts it; waits until it accepts connections.
    static func start(startupTimeout: Duration = .seconds(60)) async throws -> PostgresCluster {
        let binDirectory = try locateBinaries()
        let account = try serverAccount()
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("hearth-benchmark-pg-\(UUID().uuidString.prefix(8).lowercased())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        do {
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path)
            if let account, chown(directory.path, account.uid, account.gid) != 0 {
                throw BenchmarkError("cannot give \(directory.path) to \(account.name): errno \(errno)")
            }
            let data = directory.appendingPathComponent("data").path
            let initdb = try run(
                "\(binDirectory)/initdb",
                ["-D", data, "-U", user, "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync"],
                account: account)
            guard initdb.status == 0 else { throw BenchmarkError("initdb failed (\(initdb.status)): \(initdb.output)") }

            let port = try freePort()
            let logFile = directory.appendingPathComponent("server.log")
            _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
            if let account { chown(logFile.path, account.uid, account.gid) }
            let process = Process()
            let server = "\(binDirectory)/postgres"
            let arguments = [
                "-D", data, "-c", "listen_addresses=127.0.0.1", "-c", "port=\(port)",
                "-c", "unix_socket_directories=\(directory.path)", "-c", "synchronous_commit=off",
                "-c", "max_connections=200", "-c", "shared_buffers=256MB",
            ]
            if let account {
                process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
                process.arguments = ["--reuid=\(account.uid)", "--regid=\(account.gid)", "--clear-groups", server] + arguments
            } else {
                process.executableURL = URL(fileURLWithPath: server)
                process.arguments = arguments
            }
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = try FileHandle(forWritingTo: logFile)
            process.standardError = try FileHandle(forWritingTo: logFile)
            try process.run()
            let cluster = PostgresCluster(binDirectory: binDirectory, directory: directory, port: port, process: process)
            let deadline = ContinuousClock.now + startupTimeout
            while true {
                let ready = try run("\(binDirectory)/pg_isready", ["-q", "-h", directory.path, "-p", "\(port)"], account: nil)
                if ready.status == 0 { return cluster }
                if !process.isRunning || ContinuousClock.now >= deadline {
                    let log = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
                    cluster.stop()
                    throw BenchmarkError("PostgreSQL did not start: \(log.suffix(2_000))")
                }
                try await Task.sleep(for: .milliseconds(100))
            }
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// Fast shutdown (SIGINT), SIGKILL after 20 s; then deletes the directory. Idempotent.
    func stop() {
        if process.isRunning {
            kill(pid, SIGINT)
            for _ in 0..<200 where process.isRunning { usleep(100_000) }
            if process.isRunning { kill(pid, SIGKILL) }
            for _ in 0..<50 where process.isRunning { usleep(100_000) }
        }
        try? FileManager.default.removeItem(at: directory)
    }

    // MARK: - Helpers

    struct Account {
        let name: String
        let uid: uid_t
        let gid: gid_t
    }

    /// `$HEARTH_PG_BIN`, the newest `/usr/lib/postgresql/<version>/bin`, or a `PATH` entry with the tools.
    static func locateBinaries() throws -> String {
        let tools = ["initdb", "postgres", "psql", "pg_isready"]
        func hasTools(_ directory: String) -> Bool {
            tools.allSatisfy { FileManager.default.isExecutableFile(atPath: "\(directory)/\($0)") }
        }
        let environment = ProcessInfo.processInfo.environment
        if let configured = environment["HEARTH_PG_BIN"], !configured.isEmpty {
            guard hasTools(configured) else { throw BenchmarkError("HEARTH_PG_BIN=\(configured) lacks \(tools.joined(separator: ", "))") }
            return configured
        }
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
            .sorted { (Int($0) ?? 0, $0) > (Int($1) ?? 0, $1) }
        if let version = versions.first(where: { hasTools("\(root)/\($0)/bin") }) { return "\(root)/\(version)/bin" }
        if let directory = (environment["PATH"] ?? "").split(separator: ":").map(String.init).first(where: hasTools) {
            return directory
        }
        throw BenchmarkError("PostgreSQL server binaries (initdb, postgres, psql, pg_isready) not found; install postgresql, set HEARTH_PG_BIN, or pass --postgres-url")
    }

    /// `postgres` (else `nobody`) when this process is root; `nil` otherwise.
    private static func serverAccount() throws -> Account? {
        guard geteuid() == 0 else { return nil }
        for name in ["postgres", "nobody"] {
            if let entry = getpwnam(name) { return Account(name: name, uid: entry.pointee.pw_uid, gid: entry.pointee.pw_gid) }
        }
        throw BenchmarkError("running as root, but there is neither a postgres nor a nobody account to run PostgreSQL as")
    }

    /// Runs a short-lived command to completion (as `account` through `setpriv` when given).
    private static func run(_ executable: String, _ arguments: [String], account: Account?) throws -> (status: Int32, output: String) {
        let process = Process()
        if let account {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=\(account.uid)", "--regid=\(account.gid)", "--clear-groups", executable] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        }
        // initdb must not start in root's home directory, which `postgres` cannot read.
        process.currentDirectoryURL = FileManager.default.temporaryDirectory
        let output = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// A TCP port on 127.0.0.1 that nothing listens on right now.
    private static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw BenchmarkError("socket() failed: errno \(errno)") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw BenchmarkError("bind() failed: errno \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { throw BenchmarkError("getsockname() failed: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// Processes by parent, from `/proc/<pid>/stat`.
enum ProcessTree {
    /// `root` (when `includingRoot`) and every process below it.
    static func descendants(of root: Int32, includingRoot: Bool) -> [Int32] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return includingRoot ? [root] : [] }
        var children: [Int32: [Int32]] = [:]
        for name in names {
            guard let pid = Int32(name), let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")")
            else { continue }
            // After "pid (comm)": state, then ppid.
            let fields = stat[stat.index(after: close)...].split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count > 1, let parent = Int32(fields[1]) else { continue }
            children[parent, default: []].append(pid)
        }
        var result: [Int32] = includingRoot ? [root] : []
        var queue = children[root] ?? []
        while let next = queue.popLast() {
            result.append(next)
            queue += children[next] ?? []
        }
        return result
    }
}
