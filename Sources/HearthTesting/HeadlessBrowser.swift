import Foundation
import HearthCore
import HearthPostgresLauncher

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real headless Chromium for tests of the pages people see, driven over the DevTools protocol on a pipe
/// (`--remote-debugging-pipe`: no WebSocket, no port).
///
/// ```swift
/// try await HeadlessBrowser.with { browser in   // launch(), and close() however `body` ends
///     let page = try await browser.newPage()
///     try await page.navigate(to: URL(string: live.baseURL + "/__/auth/action?mode=resetPassword&oobCode=…")!)
///     #expect(page.status == 200)
///     try await page.fill("#password", with: "new password")
///     try await page.clickAndWaitForNavigation("button[type=submit]")
///     #expect(try await page.text(of: "h1") == "Password changed")
///     #expect(page.consoleErrors.isEmpty)
/// }
/// ```
///
/// Chromium is found through the `CHROMIUM` environment variable, `/usr/bin/chromium` or `chromium` on the
/// `PATH`. It runs with a fresh profile in a temporary directory, its output goes to a log file there (the
/// tail is part of launch errors), and ``close()`` ends it and removes the directory. At most
/// ``maximumRunning`` browsers run at once in a test process: ``launch(timeout:)`` waits for a free one.
public final class HeadlessBrowser: @unchecked Sendable {
    /// How many browsers may run at once in this process (the test machines have few cores).
    public static let maximumRunning = 2
    /// The time-out of every DevTools call and wait unless a call says otherwise.
    public static let defaultTimeout: Duration = .seconds(30)
    /// How long ``launch(executable:timeout:)`` waits, by default, for a free slot and then for Chromium's
    /// first answer (a loaded test machine starts Chromium slowly).
    public static let defaultLaunchTimeout: Duration = .seconds(60)

    /// The browser's process id.
    public var processID: pid_t { process.pid }

    let connection: DevToolsConnection
    private let process: ChildProcess
    /// The temporary directory with the profile (`profile/`) and Chromium's log (`chromium.log`); removed by ``close()``.
    public let directory: URL
    private let lock = NSLock()
    private var closed = false

    private init(connection: DevToolsConnection, process: ChildProcess, directory: URL) {
        self.connection = connection
        self.process = process
        self.directory = directory
    }

    deinit {
        if lock.withLock({ closed }) { return }
        // Not closed by the test: end the process without waiting for a clean exit.
        process.send(SIGKILL)
        for _ in 0..<200 where process.isRunning { usleep(10_000) }
        connection.shutDown("the browser was released without close()")
        try? FileManager.default.removeItem(at: directory)
        Task { await BrowserSlots.shared.release() }
    }

    /// Starts Chromium and returns once it answers over the DevTools pipe.
    /// - Parameters:
    ///   - executable: the browser to run; `nil` looks for Chromium (`CHROMIUM`, /usr/bin/chromium, `PATH`).
    ///   - timeout: how long to wait for a free slot and then for Chromium's first answer, each.
    /// - Throws: ``BrowserError/launchFailed(_:)`` with the reason and the tail of Chromium's log.
    public static func launch(executable: String? = nil, timeout: Duration = defaultLaunchTimeout) async throws -> HeadlessBrowser {
        let executable = try executable ?? findChromium()
        guard executable.hasPrefix("/"), FileManager.default.isExecutableFile(atPath: executable) else {
            throw BrowserError.launchFailed("\(executable) is not an executable file given by its absolute path")
        }
        try await BrowserSlots.shared.acquire(timeout: timeout)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-chromium-\(UUID().uuidString)")
        let log = directory.appendingPathComponent("chromium.log")
        var started: HeadlessBrowser?
        do {
            let profile = directory.appendingPathComponent("profile")
            try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
            let commands = try socketPair()
            let replies: (parent: Int32, child: Int32)
            do {
                replies = try socketPair()
            } catch {
                closeDescriptor(commands.parent)
                closeDescriptor(commands.child)
                throw error
            }
            let process: ChildProcess
            do {
                process = try ChildProcess.start(
                    [
                        executable, "--headless=new", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu", "--no-first-run",
                        "--no-default-browser-check", "--disable-background-networking", "--disable-component-update",
                        "--disable-sync", "--mute-audio", "--user-data-dir=\(profile.path)", "about:blank",
                    ],
                    output: log, extraDescriptors: [3: commands.child, 4: replies.child])
            } catch {
                for descriptor in [commands.parent, commands.child, replies.parent, replies.child] { closeDescriptor(descriptor) }
                throw BrowserError.launchFailed("cannot start \(executable): \(error)")
            }
            closeDescriptor(commands.child)
            closeDescriptor(replies.child)
            let connection = DevToolsConnection(commands: commands.parent, replies: replies.parent) { logTail(log) }
            let browser = HeadlessBrowser(connection: connection, process: process, directory: directory)
            started = browser
            do {
                _ = try await connection.call("Browser.getVersion", timeout: timeout)
            } catch {
                throw BrowserError.launchFailed(
                    "\(executable) did not answer over the DevTools pipe (\(error)); its log ends with:\n\(logTail(log))")
            }
            return browser
        } catch {
            if let started {
                try? await started.close()
            } else {
                try? FileManager.default.removeItem(at: directory)
                await BrowserSlots.shared.release()
            }
            throw error as? BrowserError ?? BrowserError.launchFailed("\(error)")
        }
    }

    /// Opens a new tab (a DevTools target with its own session) on `about:blank`, with an 800×900 viewport.
    public func newPage(timeout: Duration = defaultTimeout) async throws -> BrowserPage {
        let created = try await connection.call("Target.createTarget", ["url": .string("about:blank")], timeout: timeout)
        guard case .string(let targetID)? = created["targetId"] else {
            throw BrowserError.protocolError(method: "Target.createTarget", message: "no targetId in \(created)")
        }
        let attached = try await connection.call(
            "Target.attachToTarget", ["targetId": .string(targetID), "flatten": .bool(true)], timeout: timeout)
        guard case .string(let sessionID)? = attached["sessionId"] else {
            throw BrowserError.protocolError(method: "Target.attachToTarget", message: "no sessionId in \(attached)")
        }
        let page = BrowserPage(connection: connection, targetID: targetID, sessionID: sessionID, timeout: timeout)
        try await page.prepare()
        return page
    }

    /// Ends Chromium (politely, then with SIGKILL), reaps it and removes its profile and log. Safe to call twice.
    public func close() async throws {
        guard
            lock.withLock({ () -> Bool in
                defer { closed = true }
                return !closed
            })
        else { return }
        _ = try? await connection.call("Browser.close", timeout: .seconds(5))
        if try await process.wait(timeout: 10) == nil {
            process.send(SIGKILL)
            _ = try await process.wait(timeout: 30)
        }
        connection.shutDown("the browser was closed")
        try? FileManager.default.removeItem(at: directory)
        await BrowserSlots.shared.release()
    }

    /// Launches a browser, runs `body` with it, and always closes it.
    public static func with<T: Sendable>(_ body: (HeadlessBrowser) async throws -> T) async throws -> T {
        let browser = try await launch()
        do {
            let result = try await body(browser)
            try await browser.close()
            return result
        } catch {
            try? await browser.close()
            throw error
        }
    }

    // MARK: Launch details

    static func findChromium() throws -> String {
        let environment = ProcessInfo.processInfo.environment
        if let configured = environment["CHROMIUM"], !configured.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: configured) else {
                throw BrowserError.launchFailed("CHROMIUM is set to \(configured), which is not an executable file")
            }
            return configured
        }
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium") { return "/usr/bin/chromium" }
        for directory in (environment["PATH"] ?? "").split(separator: ":") {
            let candidate = "\(directory)/chromium"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw BrowserError.launchFailed(
            "no Chromium found: install it (Debian: apt-get install chromium) or set CHROMIUM to its executable")
    }

    /// A connected pair of Unix sockets, both closed on exec (the child gets its end through dup2).
    private static func socketPair() throws -> (parent: Int32, child: Int32) {
        var descriptors: [Int32] = [0, 0]
        #if canImport(Glibc)
        let kind = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, kind, 0, &descriptors) == 0 else { throw BrowserError.launchFailed("socketpair: errno \(errno)") }
        #else
        guard socketpair(AF_UNIX, SOCK_STREAM, 0, &descriptors) == 0 else { throw BrowserError.launchFailed("socketpair: errno \(errno)") }
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        #endif
        return (descriptors[0], descriptors[1])
    }

    /// The last lines of Chromium's log.
    private static func logTail(_ log: URL) -> String {
        guard let text = try? String(contentsOf: log, encoding: .utf8) else { return "" }
        return text.split(separator: "\n", omittingEmptySubsequences: false).suffix(20).joined(separator: "\n")
    }
}

/// `close(2)`, out of the way of ``HeadlessBrowser/close()``.
private func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}

/// The process-wide limit on running browsers: a counting semaphore that waits without blocking a thread.
actor BrowserSlots {
    static let shared = BrowserSlots(HeadlessBrowser.maximumRunning)

    private var free: Int
    private var waiting: [(id: UUID, continuation: CheckedContinuation<Void, any Error>)] = []

    init(_ count: Int) {
        free = count
    }

    func acquire(timeout: Duration) async throws {
        if free > 0 {
            free -= 1
            return
        }
        let id = UUID()
        let timer = Task {
            try await Task.sleep(for: timeout)
            self.cancel(id, BrowserError.timedOut("a free browser slot (\(HeadlessBrowser.maximumRunning) run already)"))
        }
        defer { timer.cancel() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in waiting.append((id, continuation)) }
        } onCancel: {
            Task { await self.cancel(id, CancellationError()) }
        }
    }

    func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().continuation.resume()
        }
    }

    private func cancel(_ id: UUID, _ error: any Error) {
        guard let index = waiting.firstIndex(where: { $0.id == id }) else { return }
        waiting.remove(at: index).continuation.resume(throwing: error)
    }
}
