import Foundation
import HearthCore
import NIOCore
import NIOSSL
import PostgresNIO

/// Where and how to connect, parsed from a connection URL:
///
///     postgres://user:password@host:port/database?sslmode=disable
///
/// - Scheme `postgres` or `postgresql`. User name and host are required (unless `host` is given as
///   a query parameter naming a Unix-socket directory); port defaults to 5432; the database
///   defaults to the user name. User, password and database are percent-decoded.
/// - `sslmode` (alias `tlsmode`): `disable`; `prefer` (default; also `allow`); `require` (also
///   `verify-ca`, `verify-full`). Whenever TLS is used the certificate chain and host name are
///   verified, as in PostgresKit — unlike libpq's `prefer`/`require`.
/// - `host=/dir`: connect through the Unix socket `/dir/.s.PGSQL.<port>` (TLS off).
/// - `connect_timeout` (seconds) and `application_name` as in libpq.
/// - Any other parameter is refused, so a typo is not silently ignored.
///
/// Errors name what is wrong but never repeat the URL: it may hold a password. ``description``
/// leaves the password out.
struct PostgresEndpoint: Sendable, CustomStringConvertible {
    enum Location: Sendable, Equatable {
        case tcp(host: String, port: Int)
        case unixSocket(path: String)
    }

    enum TLSMode: Sendable, Equatable {
        case disable, prefer, require
    }

    var location: Location
    var username: String
    var password: String?
    var database: String?
    var tlsMode: TLSMode
    var applicationName: String?
    var connectTimeout: Duration?

    init(url: String) throws {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased() else {
            throw Self.invalid("not a URL")
        }
        guard scheme == "postgres" || scheme == "postgresql" else {
            throw Self.invalid("the scheme must be postgres:// or postgresql://")
        }
        guard let user = components.user, !user.isEmpty else {
            throw Self.invalid("a user name is required")
        }
        username = user
        password = components.password
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        guard !path.contains("/") else { throw Self.invalid("the path must be just the database name") }
        database = path.isEmpty ? nil : path

        var tlsMode = TLSMode.prefer
        var socketDirectory: String?
        var applicationName: String?
        var connectTimeout: Duration?
        for item in components.queryItems ?? [] {
            let value = item.value ?? ""
            switch item.name.lowercased() {
            case "sslmode", "tlsmode", "ssl", "tls":
                switch value.lowercased() {
                case "disable", "false": tlsMode = .disable
                case "prefer", "allow", "true": tlsMode = .prefer
                case "require", "verify-ca", "verify-full": tlsMode = .require
                default: throw Self.invalid("unknown \(item.name) value")
                }
            case "host":
                guard value.hasPrefix("/") else {
                    throw Self.invalid("the host parameter must be a Unix-socket directory")
                }
                socketDirectory = value
            case "application_name":
                applicationName = value
            case "connect_timeout":
                guard let seconds = Int(value), seconds > 0 else {
                    throw Self.invalid("connect_timeout must be a positive number of seconds")
                }
                connectTimeout = .seconds(seconds)
            default:
                throw Self.invalid("unsupported parameter \(item.name)")
            }
        }

        let port = components.port ?? 5432
        guard (1...65535).contains(port) else { throw Self.invalid("the port is out of range") }
        if let socketDirectory {
            let directory = socketDirectory.hasSuffix("/") ? String(socketDirectory.dropLast()) : socketDirectory
            location = .unixSocket(path: "\(directory)/.s.PGSQL.\(port)")
            tlsMode = .disable
        } else {
            var host = components.host ?? ""
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            guard !host.isEmpty else { throw Self.invalid("a host is required") }
            location = .tcp(host: host, port: port)
        }
        self.tlsMode = tlsMode
        self.applicationName = applicationName
        self.connectTimeout = connectTimeout
    }

    /// `postgres://user@host:port/database`, without the password.
    var description: String {
        let place =
            switch location {
            case .tcp(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
            case .unixSocket(let path): path
            }
        return "postgres://\(username)@\(place)/\(database ?? username)"
    }

    /// The configuration of the connection pool.
    func clientConfiguration(options: PostgresStorageOptions) -> PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        switch location {
        case .tcp(let host, let port):
            let tls: PostgresClient.Configuration.TLS =
                switch tlsMode {
                case .disable: .disable
                case .prefer: .prefer(.makeClientConfiguration())
                case .require: .require(.makeClientConfiguration())
                }
            configuration = PostgresClient.Configuration(
                host: host, port: port, username: username, password: password, database: database, tls: tls)
        case .unixSocket(let path):
            configuration = PostgresClient.Configuration(
                unixSocketPath: path, username: username, password: password, database: database)
        }
        configuration.options.connectTimeout = connectTimeout ?? options.connectTimeout
        configuration.options.additionalStartupParameters = startupParameters(options: options)
        configuration.options.maximumConnections = max(2, options.maximumConnections)
        configuration.options.minimumConnections = 0
        if options.keepsConnectionsOpen {
            // A server's pool is of fixed size, without keep-alive queries. The pool arms a timer each time a
            // connection goes back idle (one for the keep-alive query, one more for closing a connection beyond the
            // minimum), and a cancelled timer stays in memory until its deadline (30 s, 60 s): at every query's rate,
            // 20 MB of the server's peak (heaptrack; BENCHMARKS.md, issue 30). A connection that died while idle is
            // found when next leased, and the unit of work runs again on another (``PostgresTransactor``).
            configuration.options.minimumConnections = configuration.options.maximumConnections
            configuration.options.keepAliveBehavior = nil
        }
        return configuration
    }

    /// The configuration of one stand-alone connection (the probe ``PostgresTransactor`` makes when
    /// it opens), equivalent to the pool's.
    func connectionConfiguration(options: PostgresStorageOptions) throws -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        switch location {
        case .tcp(let host, let port):
            let tls: PostgresConnection.Configuration.TLS
            do {
                tls =
                    switch tlsMode {
                    case .disable: .disable
                    case .prefer: .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
                    case .require: .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
                    }
            } catch {
                throw HearthError(
                    .storageUnavailable, reason: "cannot set up TLS for PostgreSQL", underlying: error)
            }
            configuration = PostgresConnection.Configuration(
                host: host, port: port, username: username, password: password, database: database, tls: tls)
        case .unixSocket(let path):
            configuration = PostgresConnection.Configuration(
                unixSocketPath: path, username: username, password: password, database: database)
        }
        configuration.options.connectTimeout = TimeAmount(connectTimeout ?? options.connectTimeout)
        configuration.options.additionalStartupParameters = startupParameters(options: options)
        return configuration
    }

    /// Run-time parameters every session starts with.
    private func startupParameters(options: PostgresStorageOptions) -> [(String, String)] {
        var parameters: [(String, String)] = [("application_name", applicationName ?? "hearth")]
        if let timeout = options.statementTimeout {
            let milliseconds = timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
            parameters.append(("statement_timeout", "\(max(1, milliseconds))"))
        }
        return parameters
    }

    private static func invalid(_ problem: String) -> HearthError {
        HearthError(.storageUnavailable, reason: "invalid PostgreSQL URL: \(problem)")
    }
}
