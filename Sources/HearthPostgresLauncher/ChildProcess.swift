import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process started with `posix_spawn` and reaped with `waitpid`, for the tests and the benchmark
/// that run `hearth` and PostgreSQL's tools.
///
/// Not Foundation's `Process`, for two reasons. On Linux `Process.run()` reads `/proc/self/fd` with a
/// 256-byte copy of each directory entry, which faults now and then when an entry ends a page (a test
/// process with hundreds of descriptors open hit it: swift-corelibs-foundation #5472). And it learns of
/// a child's exit through a descriptor every descendant inherits, so a command whose own child keeps
/// running (`pg_ctl start`) would never be seen to end.
///
/// Only descriptors 0, 1 and 2, and those the caller hands over by number (`extraDescriptors`), reach the
/// child: everything else the parent has open (other tests' sockets, event loops, the pipe `swift test`
/// reads) would otherwise live on in children that outlast the test that started them.
public final class ChildProcess: @unchecked Sendable {
    public let pid: pid_t
    private let ended = LockedStatus()

    private init(pid: pid_t) {
        self.pid = pid
    }

    /// Starts `arguments[0]` (an absolute path) with `arguments`, standard input from `input` (/dev/null when
    /// `nil`), standard output into `output` and standard error into `errorOutput` (into `output` when `nil`).
    /// - Parameters:
    ///   - environment: the whole environment of the child; `nil` passes this process's own.
    ///   - extraDescriptors: more descriptors for the child, as child number (3 or higher) → parent
    ///     descriptor (e.g. `[3: commands, 4: replies]` for Chromium's `--remote-debugging-pipe`). The
    ///     parent's descriptors stay open; closing them after the start is the caller's job.
    public static func start(
        _ arguments: [String], environment: [String: String]? = nil, input: URL? = nil, output: URL, errorOutput: URL? = nil,
        extraDescriptors: [Int32: Int32] = [:]
    ) throws -> ChildProcess {
        guard let executable = arguments.first else { throw LauncherError("empty command") }
        guard extraDescriptors.keys.allSatisfy({ $0 >= 3 }) else {
            throw LauncherError("extra descriptors must be numbered 3 or higher in the child")
        }
        // Copies numbered above every target, so no dup2 below overwrites a source that is still needed
        // (parent descriptor 4 going to 3 while parent 3 goes to 4). They close on exec and after the start.
        let highest = extraDescriptors.keys.max() ?? 2
        var copies: [(child: Int32, copy: Int32)] = []
        defer { for entry in copies { close(entry.copy) } }
        for (child, parent) in extraDescriptors.sorted(by: { $0.key < $1.key }) {
            let copy = fcntl(parent, F_DUPFD_CLOEXEC, highest + 1)
            guard copy >= 0 else { throw LauncherError("cannot hand descriptor \(parent) to the child: errno \(errno)") }
            copies.append((child, copy))
        }
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input?.path ?? "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if let errorOutput {
            posix_spawn_file_actions_addopen(&actions, 2, errorOutput.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        } else {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }
        // dup2 clears close-on-exec on the target; everything from `highest + 1` on (the copies among
        // them) is closed, and the numbers between 3 and `highest` that are not handed over as well.
        for entry in copies { posix_spawn_file_actions_adddup2(&actions, entry.copy, entry.child) }
        if highest >= 3 {
            for number in 3...highest where extraDescriptors[number] == nil { posix_spawn_file_actions_addclose(&actions, number) }
        }
        try closeInheritedDescriptors(&actions, from: highest + 1)

        var attributes = try spawnAttributes()
        defer { posix_spawnattr_destroy(&attributes) }
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var envp: [UnsafeMutablePointer<CChar>?]? = environment.map { variables in
            variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        }
        defer { for pointer in envp ?? [] { free(pointer) } }
        var pid: pid_t = 0
        var status: Int32 = 0
        // ETXTBSY: an executable just written (a test's script) is still open for writing in a child another thread
        // forked meanwhile, until that child's exec closes it. It passes within milliseconds: try again a few times.
        for attempt in 0..<50 {
            if envp != nil {
                status = envp!.withUnsafeMutableBufferPointer { posix_spawn(&pid, executable, &actions, &attributes, &argv, $0.baseAddress) }
            } else {
                status = posix_spawn(&pid, executable, &actions, &attributes, &argv, environ)
            }
            guard status == ETXTBSY, attempt < 49 else { break }
            usleep(10_000)
        }
        guard status == 0 else { throw LauncherError("cannot start \(executable): errno \(status)") }
        return ChildProcess(pid: pid)
    }

    /// The exit status once the child has ended (128 + the signal when a signal ended it), else `nil`.
    public func exitStatus() throws -> Int32? {
        if let status = ended.value { return status }
        var raw: Int32 = 0
        while true {
            let result = waitpid(pid, &raw, WNOHANG)
            if result == pid { break }
            if result == 0 { return nil }
            if errno == EINTR { continue }
            throw LauncherError("waitpid failed: errno \(errno)")
        }
        // WIFEXITED / WEXITSTATUS, spelled out (they are macros).
        let status = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        ended.value = status
        return status
    }

    /// Whether the child is still running.
    public var isRunning: Bool { ((try? exitStatus()) ?? nil) == nil }

    /// Waits, polling without blocking a concurrency thread, until the child ends or `timeout` passes;
    /// the exit status, or `nil` at the time-out.
    public func wait(timeout: TimeInterval) async throws -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let status = try exitStatus() { return status }
            try await Task.sleep(for: .milliseconds(10))
        }
        return try exitStatus()
    }

    /// Sends `signal` (SIGTERM, SIGKILL, …) unless the child has ended.
    public func send(_ signal: Int32) {
        if isRunning { _ = kill(pid, signal) }
    }

    // MARK: posix_spawn details

    #if canImport(Darwin)
    private static func spawnAttributes() throws -> posix_spawnattr_t? {
        var attributes: posix_spawnattr_t? = nil
        posix_spawnattr_init(&attributes)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_CLOEXEC_DEFAULT))
        return attributes
    }

    private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t?, from lowest: Int32) throws {}
    #else
    private static func spawnAttributes() throws -> posix_spawnattr_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        return attributes
    }

    /// glibc 2.34's `posix_spawn_file_actions_addclosefrom_np`, looked up at run time because the
    /// `Glibc` module does not export it.
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static let addCloseFrom: AddCloseFrom? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else {
            return nil
        }
        return unsafeBitCast(symbol, to: AddCloseFrom.self)
    }()

    private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t, from lowest: Int32) throws {
        guard let addCloseFrom else {
            throw LauncherError("posix_spawn_file_actions_addclosefrom_np is missing: glibc 2.34 or newer is needed")
        }
        let status = addCloseFrom(&actions, lowest)
        guard status == 0 else { throw LauncherError("posix_spawn_file_actions_addclosefrom_np failed: errno \(status)") }
    }
    #endif
}

/// The exit status of a reaped child, shared between threads.
private final class LockedStatus: @unchecked Sendable {
    private let lock = NSLock()
    private var status: Int32?

    var value: Int32? {
        get { lock.withLock { status } }
        set { lock.withLock { status = newValue } }
    }
}
