import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Browser sign-in for desktop and command-line apps, the native-app pattern of RFC 8252 §7.3: the app listens
/// on `http://127.0.0.1:<free port>/callback`, opens the provider's page in the system browser, and takes the
/// server's redirect back on that loopback address.
///
/// ```swift
/// Auth.auth().defaultUIDelegate = try LoopbackBrowser.delegate()
/// let credential = try await OAuthProvider(providerID: "microsoft.com").credential(with: nil)
/// let result = try await Auth.auth().signIn(with: credential)
/// ```
public enum LoopbackBrowser {
    /// A ``BrowserSignInUIDelegate`` whose return URL is a loopback listener it owns for as long as it lives.
    /// - Parameters:
    ///   - openBrowser: shows the URL to the person; the system browser by default (`$BROWSER`, then `open` on
    ///     macOS or `xdg-open` on Linux). Tests pass a function that drives the page themselves.
    ///   - timeout: how long to wait for the browser to come back before the sign-in counts as cancelled.
    public static func delegate(
        openBrowser: @escaping @Sendable (URL) throws -> Void = LoopbackBrowser.openSystemBrowser,
        timeout: TimeInterval = 300
    ) throws -> BrowserSignInUIDelegate {
        let listener = try LoopbackListener()
        let returnURL = "http://127.0.0.1:\(listener.port)/callback"
        return BrowserSignInUIDelegate(returnURL: returnURL) { authURL, _ in
            try openBrowser(authURL)
            return try await listener.nextCallback(path: "/callback", timeout: timeout)
        }
    }

    /// Opens `url` in the person's browser. Where an app cannot start a process (iOS, tvOS, watchOS, visionOS)
    /// it throws: pass an `openBrowser` that presents the page.
    public static func openSystemBrowser(_ url: URL) throws {
        #if os(macOS) || os(Linux)
        let arguments: [String]
        if let browser = ProcessInfo.processInfo.environment["BROWSER"], !browser.isEmpty {
            arguments = ["/usr/bin/env", browser, url.absoluteString]
        } else {
            #if os(macOS)
            arguments = ["/usr/bin/open", url.absoluteString]
            #else
            arguments = ["/usr/bin/env", "xdg-open", url.absoluteString]
            #endif
        }
        try spawn(arguments)
        #else
        throw AuthErrorFactory.error(
            .webSignInUserInteractionFailure, message: "No system browser to start on this platform: pass openBrowser to LoopbackBrowser.delegate.")
        #endif
    }

    #if os(macOS) || os(Linux)
    /// Starts `arguments[0]` (an absolute path) with `posix_spawn`, not Foundation's `Process` (whose start on
    /// Linux reads `/proc/self/fd` in a way that crashed a test process), and reaps it on a thread of its own
    /// once it ends. It shares this process's standard input and output; no other descriptor reaches it where
    /// the system can say so (Darwin's `POSIX_SPAWN_CLOEXEC_DEFAULT`, glibc 2.34's `addclosefrom_np`).
    private static func spawn(_ arguments: [String]) throws {
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
        var attributes: posix_spawnattr_t? = nil
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        #if canImport(Darwin)
        for descriptor: Int32 in 0...2 { posix_spawn_file_actions_addinherit_np(&actions, descriptor) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_CLOEXEC_DEFAULT))
        #else
        _ = addCloseFrom?(&actions, 3)
        #endif
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, arguments[0], &actions, &attributes, &argv, environ)
        guard status == 0 else {
            throw AuthErrorFactory.error(
                .webSignInUserInteractionFailure, message: "Cannot start \(arguments[0]) to open the browser: errno \(status).")
        }
        let child = pid
        Thread.detachNewThread {
            var ended: Int32 = 0
            while waitpid(child, &ended, 0) == -1 && errno == EINTR {}
        }
    }

    #if !canImport(Darwin)
    /// glibc 2.34's `posix_spawn_file_actions_addclosefrom_np`, looked up at run time because the `Glibc`
    /// module does not export it; `nil` on an older C library (the child then inherits what is not close-on-exec).
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static let addCloseFrom: AddCloseFrom? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else {
            return nil
        }
        return unsafeBitCast(symbol, to: AddCloseFrom.self)
    }()
    #endif
    #endif
}

/// A TCP listener on 127.0.0.1 that answers each browser request with a short page and hands back the request
/// target. Only loopback: nothing outside the machine can reach it.
final class LoopbackListener: Sendable {
    let port: Int
    private let descriptor: Int32

    init() throws {
        #if canImport(Darwin)
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #else
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard fd >= 0 else { throw Self.failure("socket") }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)  // not inherited by the browser the app opens
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 8) == 0 else {
            close(fd)
            throw Self.failure("bind/listen")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            close(fd)
            throw Self.failure("getsockname")
        }
        descriptor = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }

    /// Waits for a request whose path is `path` and returns its URL; other requests (a favicon) get a 404.
    /// Throws `CancellationError` after `timeout`.
    func nextCallback(path: String, timeout: TimeInterval) async throws -> URL {
        let deadline = Date().addingTimeInterval(timeout)
        return try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { [self] in
                continuation.resume(with: Result { try self.accept(path: path, deadline: deadline) })
            }
        }
    }

    private func accept(path: String, deadline: Date) throws -> URL {
        while true {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { throw CancellationError() }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(remaining, 1) * 1000))
            guard ready > 0 else { continue }
            let connection = Glue.accept(descriptor)
            guard connection >= 0 else { continue }
            defer { close(connection) }
            Self.prepare(connection)
            guard let target = Self.requestTarget(connection) else { continue }
            let targetPath = target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? target
            guard targetPath == path, let url = URL(string: "http://127.0.0.1:\(port)\(target)") else {
                Self.reply(connection, status: "404 Not Found", body: "Not found.")
                continue
            }
            let failed = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.contains { $0.name == "firebaseError" } ?? false
            Self.reply(
                connection, status: "200 OK",
                body: failed ? "Sign-in did not complete. You can close this window." : "Signed in. You can close this window and return to the app.")
            return url
        }
    }

    /// Not inherited by child processes, and a peer that connects and then says nothing (a port scanner,
    /// a browser's speculative connection) gives up the listener after a few seconds instead of holding it.
    private static func prepare(_ connection: Int32) {
        _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
        var limit = timeval(tv_sec: 5, tv_usec: 0)
        for option in [SO_RCVTIMEO, SO_SNDTIMEO] {
            _ = setsockopt(connection, SOL_SOCKET, option, &limit, socklen_t(MemoryLayout<timeval>.size))
        }
    }

    /// The request target of the first line (`GET /callback?link=… HTTP/1.1`).
    private static func requestTarget(_ connection: Int32) -> String? {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var received = 0
        while received < buffer.count {
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress! + received, $0.count - received, 0) }
            guard count > 0 else { break }
            received += count
            if buffer[..<received].contains(UInt8(ascii: "\n")) { break }
        }
        guard let line = String(decoding: buffer[..<received], as: UTF8.self).split(separator: "\r\n").first else { return nil }
        let parts = line.split(separator: " ")
        guard parts.count >= 2, parts[0] == "GET" else { return nil }
        return String(parts[1])
    }

    private static func reply(_ connection: Int32, status: String, body: String) {
        let page = "<!doctype html><meta charset=\"utf-8\"><title>Hearth</title><p style=\"font-family:system-ui;margin:3rem\">\(body)</p>"
        let response =
            "HTTP/1.1 \(status)\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(page.utf8.count)\r\nConnection: close\r\n\r\n\(page)"
        _ = Array(response.utf8).withUnsafeBytes { send(connection, $0.baseAddress, $0.count, 0) }
    }

    private static func failure(_ call: String) -> NSError {
        NSError(domain: NSPOSIXErrorDomain, code: Int(errno), userInfo: [NSLocalizedDescriptionKey: "\(call) failed for the loopback listener"])
    }
}

/// `accept` without the address, apart from the method names it would clash with.
private enum Glue {
    static func accept(_ descriptor: Int32) -> Int32 {
        #if canImport(Darwin)
        Darwin.accept(descriptor, nil, nil)
        #elseif canImport(Glibc)
        Glibc.accept(descriptor, nil, nil)
        #else
        Musl.accept(descriptor, nil, nil)
        #endif
    }
}
