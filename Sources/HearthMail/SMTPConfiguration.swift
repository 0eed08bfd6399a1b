/// Where and how ``SMTPClient`` delivers mail.
///
/// ```swift
/// var configuration = try SMTPConfiguration(url: "smtp://hearth:secret@mail.example.com")  // STARTTLS, port 587
/// configuration.timeout = .seconds(10)
/// ```
///
/// The password never appears in `description`, `debugDescription` or a mirror (`dump`), nor in any error.
public struct SMTPConfiguration: Sendable, Equatable {
    /// How the connection is protected.
    public enum Security: String, Sendable, Equatable {
        /// Plain TCP, then STARTTLS before anything else; fails when the server does not offer it (port 587).
        case startTLS
        /// TLS from the first byte (port 465).
        case implicitTLS
        /// Plain TCP throughout: only for a relay on loopback. With credentials, sending to any other host is
        /// refused.
        case none
    }

    /// Which certificates a TLS connection trusts.
    public enum TrustRoots: Sendable, Equatable {
        /// The system's roots.
        case system
        /// The system's roots and the certificates of a PEM file.
        case systemAnd(certificateFile: String)
        /// Only the certificates of a PEM file (a private CA, or a test's self-signed certificate).
        case only(certificateFile: String)
    }

    public var host: String
    public var port: Int
    public var security: Security
    /// The user for AUTH (PLAIN, or LOGIN when the server offers only that). `nil`: no AUTH.
    public var username: String?
    /// The password for AUTH. Redacted from every description.
    public var password: String?
    /// The limit for connecting, for the TLS handshake, and for each reply of the server.
    public var timeout: Duration
    /// The name this client gives in EHLO.
    public var heloName: String
    public var trustRoots: TrustRoots

    public init(
        host: String, port: Int? = nil, security: Security = .startTLS, username: String? = nil, password: String? = nil,
        timeout: Duration = .seconds(30), heloName: String = "localhost", trustRoots: TrustRoots = .system
    ) {
        self.host = host
        self.port = port ?? Self.defaultPort(for: security)
        self.security = security
        self.username = username
        self.password = password
        self.timeout = timeout
        self.heloName = heloName
        self.trustRoots = trustRoots
    }

    /// 587 for STARTTLS (submission), 465 for implicit TLS, 25 for plain.
    public static func defaultPort(for security: Security) -> Int {
        switch security {
        case .startTLS: 587
        case .implicitTLS: 465
        case .none: 25
        }
    }

    /// Whether `host` names this machine: `localhost`, `127.0.0.0/8` or `::1`.
    public var isLoopback: Bool {
        let name = host.lowercased().trimmingBrackets
        if name == "localhost" || name.hasSuffix(".localhost") || name == "::1" { return true }
        let octets = name.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    /// Checks what can be checked before connecting: a host, a port, credentials that would not cross the
    /// network in clear text, no line breaks where they would end up in a command.
    public func validate() throws(SMTPError) {
        if host.isEmpty { throw SMTPError(.invalidConfiguration, "the host is empty") }
        if !(1...65535).contains(port) { throw SMTPError(.invalidConfiguration, "the port \(port) is not between 1 and 65535") }
        if host.contains(where: { $0.isWhitespace || $0 == "\0" || $0 == "/" }) {
            throw SMTPError(.invalidConfiguration, "the host contains whitespace, NUL or a slash")
        }
        if heloName.isEmpty || heloName.contains(where: { $0.isWhitespace || $0 == "\0" }) || !heloName.allSatisfy(\.isASCII) {
            throw SMTPError(.invalidConfiguration, "heloName must be a non-empty ASCII name without whitespace")
        }
        if timeout <= .zero { throw SMTPError(.invalidConfiguration, "the timeout must be positive") }
        if (username == nil) != (password == nil) {
            throw SMTPError(.invalidConfiguration, "a username needs a password and a password a username")
        }
        if let username, let password {
            if username.isEmpty { throw SMTPError(.invalidConfiguration, "the username is empty") }
            if username.contains("\0") || password.contains("\0") {
                throw SMTPError(.invalidConfiguration, "the username or the password contains NUL")
            }
            if security == .none && !isLoopback {
                throw SMTPError(
                    .insecureCredentials,
                    "security none would send the credentials in clear text to \(host), which is not loopback: use startTLS or implicitTLS")
            }
        }
    }
}

extension SMTPConfiguration: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `smtp://user:<redacted>@host:port (startTLS, timeout 30 seconds)`: never the password.
    public var description: String {
        let scheme = security == .implicitTLS ? "smtps" : "smtp"
        let user = username.map { "\($0)\(password == nil ? "" : ":<redacted>")@" } ?? ""
        let hostPart = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "\(scheme)://\(user)\(hostPart):\(port) (\(security.rawValue), timeout \(timeout), helo \(heloName), \(trustRoots))"
    }

    public var debugDescription: String { "SMTPConfiguration(\(description))" }

    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "host": host, "port": port, "security": security, "username": username as Any,
                "password": password == nil ? "nil" : "<redacted>", "timeout": timeout, "heloName": heloName,
                "trustRoots": trustRoots,
            ], displayStyle: .struct)
    }
}

extension String {
    /// `[::1]` → `::1`.
    var trimmingBrackets: String {
        hasPrefix("[") && hasSuffix("]") ? String(dropFirst().dropLast()) : self
    }
}
