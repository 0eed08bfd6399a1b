import Foundation
import HearthMail
import HearthPostgresLauncher
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real mail server for the tests: `scripts/smtp-sink.py` (aiosmtpd, run by `/usr/bin/python3`) on a free
/// loopback port, storing every message it accepts in a directory of its own.
///
/// ```swift
/// let sink = try await SMTPSink.start(security: .startTLS, username: "hearth", password: "secret")
/// defer { sink.shutdown() }
/// try await SMTPClient(configuration: sink.configuration()).send(message)
/// let mail = try await sink.waitForMessages(count: 1)[0]
/// ```
///
/// With TLS, the sink gets a throwaway self-signed certificate for `127.0.0.1` and `localhost` (made with the
/// `openssl` command); ``certificateFile`` is its PEM, which ``configuration(username:password:)`` trusts.
/// Messages are decoded by Python's own e-mail package (headers with RFC 2047 undone, parts with base64 or
/// quoted-printable undone), independently of HearthMail's encoder. ``stop()`` and ``restart()`` keep the port.
public final class SMTPSink: Sendable {
    public enum Security: Sendable {
        case none
        /// Offers STARTTLS and refuses everything but EHLO, NOOP and QUIT before it.
        case startTLS
        case implicitTLS
    }

    /// A message the sink accepted.
    public struct Message: Sendable, Decodable {
        /// 1 for the first message accepted, counting across restarts.
        public let number: Int
        public let mailFrom: String
        public let rcptTos: [String]
        /// Whether the session was encrypted (STARTTLS or implicit TLS) when the message was sent.
        public let tls: Bool
        public let authenticated: Bool
        public let authenticatedUser: String?
        /// Every header field in order, `[name, decoded value]`.
        public let headers: [[String]]
        public let contentType: String
        /// What Python's parser found wrong with the message (names of `email.errors` classes); empty when sound.
        public let defects: [String]
        public let textBody: String?
        public let htmlBody: String?
        /// The message as received (after the server undid dot-stuffing).
        public internal(set) var raw: [UInt8] = []

        private enum CodingKeys: String, CodingKey {
            case number, mailFrom, rcptTos, tls, authenticated, authenticatedUser, headers, contentType, defects
            case textBody, htmlBody
        }

        /// The first header of that name (case-insensitive), decoded.
        public func header(_ name: String) -> String? {
            headers.first { $0.first?.lowercased() == name.lowercased() }?.last
        }

        public var subject: String? { header("Subject") }
        /// The raw message as text.
        public var rawText: String { String(decoding: raw, as: UTF8.self) }
    }

    public let host = "127.0.0.1"
    public let port: Int
    public let security: Security
    public let username: String?
    public let password: String?
    /// The self-signed certificate (PEM) when ``security`` is not `.none`.
    public let certificateFile: String?
    /// The temporary directory: certificate, key, log and ``maildir``.
    public let directory: URL
    public var maildir: URL { directory.appendingPathComponent("maildir") }
    private var logFile: URL { directory.appendingPathComponent("sink.log") }
    /// The script's arguments but the port.
    private let arguments: [String]
    private let process: Mutex<ChildProcess?>

    private init(
        port: Int, security: Security, username: String?, password: String?, certificateFile: String?, directory: URL,
        arguments: [String], process: ChildProcess
    ) {
        self.port = port
        self.security = security
        self.username = username
        self.password = password
        self.certificateFile = certificateFile
        self.directory = directory
        self.arguments = arguments
        self.process = Mutex(process)
    }

    deinit {
        shutdown()
    }

    /// Starts a sink and waits until it listens.
    /// - Parameters:
    ///   - username, password: when given, AUTH is required with exactly these.
    ///   - authMechanisms: what AUTH offers (`["LOGIN"]` to test the LOGIN fallback).
    ///   - rejectFirst: the first `rejectFirst` messages get `451` at the end of DATA.
    public static func start(
        security: Security = .none, username: String? = nil, password: String? = nil, authMechanisms: [String] = ["PLAIN", "LOGIN"],
        rejectFirst: Int = 0
    ) async throws -> SMTPSink {
        let python = "/usr/bin/python3"
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw HarnessError("\(python) is missing; the mail tests need it with aiosmtpd (apt-get install -y python3-aiosmtpd)")
        }
        guard FileManager.default.isReadableFile(atPath: scriptPath) else {
            throw HarnessError("the mail sink script \(scriptPath) is missing")
        }
        let directory = URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("hearth-smtp-\(getpid())-\(UUID().uuidString.prefix(8).lowercased())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        do {
            var arguments = [python, scriptPath, "--host", "127.0.0.1", "--maildir", directory.appendingPathComponent("maildir").path]
            var certificateFile: String?
            if security != .none {
                let (certificate, key) = try await makeCertificate(in: directory)
                certificateFile = certificate
                arguments += [security == .startTLS ? "--starttls" : "--implicit-tls", certificate, key]
            }
            if let username, let password {
                arguments += ["--auth", username, password, "--auth-mechanisms", authMechanisms.joined(separator: " ")]
            }
            if rejectFirst > 0 { arguments += ["--reject-first", "\(rejectFirst)"] }
            let log = directory.appendingPathComponent("sink.log")
            let (process, port) = try await launch(arguments + ["--port", "0"], log: log)
            return SMTPSink(
                port: port, security: security, username: username, password: password, certificateFile: certificateFile,
                directory: directory, arguments: arguments, process: process)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// A client configuration for this sink: its host, port and security, its certificate as the only trust
    /// root, and its credentials unless others are given.
    public func configuration(username: String? = nil, password: String? = nil, timeout: Duration = .seconds(30)) -> SMTPConfiguration {
        let clientSecurity: SMTPConfiguration.Security =
            switch security {
            case .none: .none
            case .startTLS: .startTLS
            case .implicitTLS: .implicitTLS
            }
        return SMTPConfiguration(
            host: host, port: port, security: clientSecurity, username: username ?? self.username,
            password: password ?? self.password, timeout: timeout,
            trustRoots: certificateFile.map { .only(certificateFile: $0) } ?? .system)
    }

    /// The messages accepted so far, in order.
    public func messages() throws -> [Message] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: maildir.path)) ?? []
        let numbers = names.compactMap { $0.hasSuffix(".json") && !$0.hasPrefix(".") ? Int($0.dropLast(5)) : nil }.sorted()
        return try numbers.map { number in
            let json = try Data(contentsOf: maildir.appendingPathComponent("\(number).json"))
            var message = try JSONDecoder().decode(Message.self, from: json)
            message.raw = Array(try Data(contentsOf: maildir.appendingPathComponent("\(number).eml")))
            return message
        }
    }

    /// Waits until at least `count` messages have arrived and returns them all; throws after `timeout`.
    public func waitForMessages(count: Int, timeout: Duration = .seconds(60)) async throws -> [Message] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let messages = try messages()
            if messages.count >= count { return messages }
            guard ContinuousClock.now < deadline else {
                throw HarnessError("the mail sink has \(messages.count) message(s) after \(timeout), expected \(count)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Stops the server (connections are cut; the port refuses until ``restart()``). The messages stay.
    public func stop() async {
        let running = process.withLock { process in
            defer { process = nil }
            return process
        }
        guard let running else { return }
        running.send(SIGTERM)
        if (try? await running.wait(timeout: 10)) ?? nil == nil {
            running.send(SIGKILL)
            _ = try? await running.wait(timeout: 10)
        }
    }

    /// Starts the server again on the same port, with the same settings (``start`` counts `rejectFirst` anew).
    public func restart() async throws {
        await stop()
        var lastError: (any Error)?
        // The port was just released: should a stray client's connection hold it a moment, try again.
        for _ in 0..<20 {
            do {
                let (started, _) = try await Self.launch(arguments + ["--port", "\(port)"], log: logFile)
                process.withLock { $0 = started }
                return
            } catch {
                lastError = error
                try await Task.sleep(for: .milliseconds(250))
            }
        }
        throw lastError ?? HarnessError("the mail sink did not restart")
    }

    /// Stops the server at once and deletes its directory. Idempotent; also run on deinit.
    public func shutdown() {
        let running = process.withLock { process in
            defer { process = nil }
            return process
        }
        if let running {
            running.send(SIGKILL)
            _ = try? running.exitStatus()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    // MARK: - Start-up

    private static let scriptPath: String = {
        // Sources/HearthTesting/SMTPSink.swift → scripts/smtp-sink.py
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/smtp-sink.py").path
    }()

    /// Starts the script and waits for its `ready <host> <port>` line.
    private static func launch(_ arguments: [String], log: URL) async throws -> (ChildProcess, Int) {
        let process = try ChildProcess.start(arguments, output: log)
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if let line = output.split(separator: "\n").first(where: { $0.hasPrefix("ready ") }),
                let port = line.split(separator: " ").last.flatMap({ Int($0) })
            {
                return (process, port)
            }
            if let status = try process.exitStatus() {
                let reason =
                    status == 3
                    ? "/usr/bin/python3 cannot import aiosmtpd: install python3-aiosmtpd (apt-get install -y python3-aiosmtpd)"
                    : "the mail sink ended with status \(status)"
                throw HarnessError("\(reason). Its output:\n\(output.suffix(2000))")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        process.send(SIGKILL)
        _ = try? await process.wait(timeout: 5)
        throw HarnessError("the mail sink did not report ready within 60 s; see \(log.path)")
    }

    /// A self-signed P-256 certificate for 127.0.0.1 and localhost, valid for two days: (certificate, key) paths.
    private static func makeCertificate(in directory: URL) async throws -> (String, String) {
        let candidates =
            ["/usr/bin/openssl", "/usr/local/bin/openssl", "/opt/homebrew/bin/openssl"]
            + (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/openssl" }
        guard let openssl = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw HarnessError("the openssl command is missing; the TLS mail tests need it (apt-get install -y openssl)")
        }
        let certificate = directory.appendingPathComponent("cert.pem").path
        let key = directory.appendingPathComponent("key.pem").path
        let log = directory.appendingPathComponent("openssl.log")
        let process = try ChildProcess.start(
            [
                openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                "-keyout", key, "-out", certificate, "-subj", "/CN=127.0.0.1",
                "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
            ], output: log)
        guard let status = try await process.wait(timeout: 60) else {
            process.send(SIGKILL)
            throw HarnessError("openssl req did not end within 60 s")
        }
        guard status == 0 else {
            let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw HarnessError("openssl req failed with status \(status): \(output.suffix(1000))")
        }
        return (certificate, key)
    }
}
