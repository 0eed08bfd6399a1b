import Foundation
import HearthCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One DevTools protocol event: its method, the session it belongs to (`nil` for the browser) and its parameters.
struct DevToolsEvent: Sendable {
    let method: String
    let sessionID: String?
    let params: [String: JSONValue]
}

/// The Chrome DevTools protocol over `--remote-debugging-pipe`: JSON messages ending in a NUL byte, commands
/// written to one socket, replies and events read from another.
///
/// A dedicated thread blocks in `recv` on the reply socket (never a thread of the cooperative pool); it
/// resumes the caller waiting for each reply by id and hands events to the listeners. Every call has a
/// time-out. Sockets rather than pipes, so a write to a browser that has ended fails with `EPIPE` instead
/// of a `SIGPIPE` that would end the test process.
final class DevToolsConnection: @unchecked Sendable {
    typealias Listener = @Sendable (DevToolsEvent) -> Void

    private let commands: Int32
    private let replies: Int32
    /// Guarded by `writeLock`: whether `commands` is still open.
    private var commandsOpen = true
    /// Guarded by `lock`: whether the reader has closed `replies`.
    private var readerDone = false
    private let lock = NSLock()
    private let writeLock = NSLock()
    private var nextID = 1
    private var pending: [Int: (method: String, reply: Pending<[String: JSONValue]>)] = [:]
    private var listeners: [Int: Listener] = [:]
    private var nextListenerID = 1
    private var closedReason: String?
    /// What to add to the message when the connection ends (the tail of Chromium's log).
    private let diagnostics: @Sendable () -> String

    /// Takes ownership of both sockets: `commands` is written to, `replies` is read by a new thread.
    init(commands: Int32, replies: Int32, diagnostics: @escaping @Sendable () -> String) {
        self.commands = commands
        self.replies = replies
        self.diagnostics = diagnostics
        let thread = Thread { [self] in readLoop() }
        thread.name = "hearth.devtools-reader"
        thread.start()
    }

    /// Sends `method` and returns its `result`, or throws Chromium's error or ``BrowserError/timedOut(_:)``.
    func call(
        _ method: String, _ params: [String: JSONValue] = [:], session: String? = nil, timeout: Duration = .seconds(30)
    ) async throws -> [String: JSONValue] {
        let reply = Pending<[String: JSONValue]>()
        let id: Int = try lock.withLock {
            if let closedReason { throw BrowserError.closed(closedReason) }
            let id = nextID
            nextID += 1
            pending[id] = (method, reply)
            return id
        }
        defer { _ = lock.withLock { pending.removeValue(forKey: id) } }
        var message: [String: JSONValue] = ["id": .number(Double(id)), "method": .string(method), "params": .object(params)]
        if let session { message["sessionId"] = .string(session) }
        try write(Array(JSONValue.object(message).jsonText.utf8) + [0])
        return try await reply.value(timeout: timeout, waitingFor: "the reply to \(method)")
    }

    /// Calls `listener` with every event until ``removeListener(_:)``; on the reader thread, so it must be quick.
    func addListener(_ listener: @escaping Listener) -> Int {
        lock.withLock {
            let id = nextListenerID
            nextListenerID += 1
            listeners[id] = listener
            return id
        }
    }

    func removeListener(_ id: Int) {
        _ = lock.withLock { listeners.removeValue(forKey: id) }
    }

    /// Stops the connection: pending and later calls fail with ``BrowserError/closed(_:)``, the reader
    /// thread wakes, ends and closes its socket.
    func shutDown(_ reason: String) {
        finish(reason)
    }

    private func write(_ bytes: [UInt8]) throws {
        try writeLock.withLock {
            guard commandsOpen else { throw BrowserError.closed("the DevTools pipe is closed") }
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { buffer in
                    send(commands, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
                }
                if written < 0 {
                    if errno == EINTR { continue }
                    throw BrowserError.closed("cannot write to Chromium: errno \(errno)")
                }
                offset += written
            }
        }
    }

    private func readLoop() {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(replies, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            buffer.append(contentsOf: chunk[0..<count])
            var start = 0
            while let end = buffer[start...].firstIndex(of: 0) {
                dispatch(Data(buffer[start..<end]))
                start = end + 1
            }
            buffer.removeFirst(start)
        }
        lock.withLock {
            readerDone = true
            close(replies)
        }
        finish("Chromium closed the DevTools pipe")
    }

    private func dispatch(_ data: Data) {
        guard case .object(let message)? = try? JSONDecoder().decode(JSONValue.self, from: data) else { return }
        if case .number(let number)? = message["id"] {
            guard let entry = lock.withLock({ pending[Int(number)] }) else { return }
            let (method, reply) = entry
            if case .object(let error)? = message["error"] {
                let text = error["message"].flatMap { if case .string(let s) = $0 { s } else { nil } } ?? "\(error)"
                reply.resolve(.failure(BrowserError.protocolError(method: method, message: text)))
            } else if case .object(let result)? = message["result"] {
                reply.resolve(.success(result))
            } else {
                reply.resolve(.success([:]))
            }
        } else if case .string(let method)? = message["method"] {
            var session: String?
            if case .string(let value)? = message["sessionId"] { session = value }
            var params: [String: JSONValue] = [:]
            if case .object(let value)? = message["params"] { params = value }
            let event = DevToolsEvent(method: method, sessionID: session, params: params)
            for listener in lock.withLock({ Array(listeners.values) }) { listener(event) }
        }
    }

    private func finish(_ reason: String) {
        let waiting: [Pending<[String: JSONValue]>]? = lock.withLock {
            guard closedReason == nil else { return nil }
            closedReason = reason
            if !readerDone { shutdown(replies, Int32(SHUT_RDWR)) }
            return pending.values.map(\.reply)
        }
        guard let waiting else { return }
        // Chromium sees the end of its command pipe.
        writeLock.withLock {
            commandsOpen = false
            close(commands)
        }
        let tail = diagnostics()
        let message = tail.isEmpty ? reason : "\(reason); Chromium's log ends with:\n\(tail)"
        for reply in waiting { reply.resolve(.failure(BrowserError.closed(message))) }
    }
}

/// A value that arrives once (a DevTools reply, an awaited event), awaited by one task with a time-out.
final class Pending<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var outcome: Result<Value, any Error>?
    private var continuation: CheckedContinuation<Value, any Error>?

    /// Sets the outcome unless one is set already.
    func resolve(_ result: Result<Value, any Error>) {
        let waiting: CheckedContinuation<Value, any Error>? = lock.withLock {
            guard outcome == nil else { return nil }
            outcome = result
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume(with: result)
    }

    /// The outcome, or ``BrowserError/timedOut(_:)`` after `timeout`, or `CancellationError`.
    func value(timeout: Duration, waitingFor what: String) async throws -> Value {
        let timer = Task { [self] in
            try await Task.sleep(for: timeout)
            resolve(.failure(BrowserError.timedOut("\(what) (\(timeout))")))
        }
        defer { timer.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                let ready: Result<Value, any Error>? = lock.withLock {
                    if let outcome { return outcome }
                    self.continuation = continuation
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            resolve(.failure(CancellationError()))
        }
    }
}
