import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL

/// Sends mail through an SMTP server, one connection per message.
///
/// ```swift
/// let client = SMTPClient(configuration: try SMTPConfiguration(url: "smtp://hearth:secret@mail.example.com"))
/// try await client.send(message)
/// ```
///
/// A session: greeting (220), EHLO, STARTTLS and EHLO again (``SMTPConfiguration/Security/startTLS``), AUTH
/// PLAIN (or LOGIN when that is all the server offers) when credentials are configured, MAIL FROM, RCPT TO,
/// DATA with the dot-stuffed message, QUIT. Connecting, the TLS handshake and every reply are each bounded by
/// ``SMTPConfiguration/timeout``. Logs at debug level, never the credentials or the message's content.
public struct SMTPClient: Sendable {
    public let configuration: SMTPConfiguration
    private let eventLoopGroup: any EventLoopGroup
    private let logger: Logger

    public init(
        configuration: SMTPConfiguration, eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "hearth.mail", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.configuration = configuration
        self.eventLoopGroup = eventLoopGroup
        self.logger = logger
    }

    /// Delivers `message` to the server (which takes it from there).
    ///
    /// Throws ``SMTPError`` only. The message and the configuration are checked before connecting: header
    /// injection, invalid addresses and credentials over plain TCP to a host that is not loopback never reach
    /// the network. ``SMTPError/isPermanent`` says whether trying again later can help.
    public func send(_ message: MailMessage) async throws {
        try configuration.validate()
        let data = try Self.dotStuffed(message.rendered(date: Date()))
        let tlsContext = configuration.security == .none ? nil : try makeTLSContext()
        let serverHostname = Self.isIPAddress(configuration.host.trimmingBrackets) ? nil : configuration.host
        let host = configuration.host.trimmingBrackets

        let connection = try await SMTPConnection.connect(
            host: host, port: configuration.port,
            tls: configuration.security == .implicitTLS ? tlsContext.map { ($0, serverHostname) } : nil,
            timeout: configuration.timeout, group: eventLoopGroup)
        var logger = logger
        logger[metadataKey: "smtp.server"] = "\(host):\(configuration.port)"
        logger[metadataKey: "mail.message_id"] = "\(message.messageID)"
        do {
            try await connection.command(nil, stage: "the greeting", expecting: [220])
            var capabilities = try await ehlo(connection)
            if configuration.security == .startTLS, let tlsContext {
                guard capabilities["STARTTLS"] != nil else {
                    throw SMTPError(
                        .startTLSNotOffered, "\(host) does not offer STARTTLS, which security startTLS requires")
                }
                try await connection.command("STARTTLS", stage: "STARTTLS", expecting: [220])
                try await connection.startTLS(context: tlsContext, serverHostname: serverHostname)
                capabilities = try await ehlo(connection)
                logger.debug("SMTP session is encrypted (STARTTLS)")
            }
            if let username = configuration.username, let password = configuration.password {
                try await authenticate(connection, capabilities: capabilities, username: username, password: password)
            }
            try await connection.command("MAIL FROM:<\(message.from.address)>", stage: "MAIL FROM", expecting: [250])
            try await connection.command("RCPT TO:<\(message.to.address)>", stage: "RCPT TO", expecting: [250, 251])
            try await connection.command("DATA", stage: "DATA", expecting: [354])
            try await connection.exchange(ByteBuffer(bytes: data), stage: "the end of DATA", expecting: [250])
            logger.debug("SMTP server accepted the message")
            _ = try? await connection.command("QUIT", stage: "QUIT", expecting: [221])
            await connection.close()
        } catch {
            await connection.close()
            logger.debug("SMTP sending failed", metadata: ["error": "\(error)"])
            throw error
        }
    }

    private func ehlo(_ connection: SMTPConnection) async throws(SMTPError) -> [String: [String]] {
        try await connection.command("EHLO \(configuration.heloName)", stage: "EHLO", expecting: [250]).extensions
    }

    /// AUTH PLAIN when offered, else AUTH LOGIN; fails when neither is offered.
    private func authenticate(
        _ connection: SMTPConnection, capabilities: [String: [String]], username: String, password: String
    ) async throws(SMTPError) {
        let mechanisms = capabilities["AUTH"] ?? []
        func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }
        if mechanisms.contains("PLAIN") {
            try await connection.command("AUTH PLAIN \(base64("\0\(username)\0\(password)"))", stage: "AUTH PLAIN", expecting: [235])
        } else if mechanisms.contains("LOGIN") {
            try await connection.command("AUTH LOGIN", stage: "AUTH LOGIN", expecting: [334])
            try await connection.command(base64(username), stage: "AUTH LOGIN (user name)", expecting: [334])
            try await connection.command(base64(password), stage: "AUTH LOGIN (password)", expecting: [235])
        } else {
            let offered = mechanisms.isEmpty ? "no AUTH at all" : "AUTH \(mechanisms.joined(separator: " "))"
            throw SMTPError(
                .authenticationNotOffered, "credentials are configured but \(configuration.host) offers \(offered), not PLAIN or LOGIN")
        }
    }

    private func makeTLSContext() throws(SMTPError) -> NIOSSLContext {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.minimumTLSVersion = .tlsv12
        switch configuration.trustRoots {
        case .system:
            break
        case .systemAnd(let file):
            try Self.checkReadable(file)
            tls.additionalTrustRoots = [.file(file)]
        case .only(let file):
            try Self.checkReadable(file)
            tls.trustRoots = .file(file)
        }
        do {
            return try NIOSSLContext(configuration: tls)
        } catch {
            throw SMTPError(.invalidConfiguration, "cannot set up TLS with the configured trust roots: \(error)")
        }
    }

    private static func checkReadable(_ file: String) throws(SMTPError) {
        guard FileManager.default.isReadableFile(atPath: file) else {
            throw SMTPError(.invalidConfiguration, "the CA certificate file \(file) cannot be read")
        }
    }

    private static func isIPAddress(_ host: String) -> Bool {
        (try? SocketAddress(ipAddress: host, port: 0)) != nil
    }

    /// The DATA bytes: every line that starts with `.` gets another `.` (RFC 5321 §4.5.2), then `.` CRLF ends
    /// the data. `text` has CRLF line ends only (``MailMessage/rendered(date:boundary:)`` writes nothing else).
    static func dotStuffed(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 64)
        var atLineStart = true
        for byte in text.utf8 {
            if atLineStart && byte == UInt8(ascii: ".") { bytes.append(byte) }
            bytes.append(byte)
            atLineStart = byte == 0x0a
        }
        if !atLineStart { bytes += [0x0d, 0x0a] }
        bytes += Array(".\r\n".utf8)
        return bytes
    }
}
