import Foundation

/// What an app needs to reach its Hearth server: the counterpart of `FirebaseOptions`.
///
/// ```swift
/// HearthApp.configure(options: HearthOptions(apiKey: "dev", projectID: "demo-hearth",
///                                           serverURL: "http://127.0.0.1:9099"))
/// ```
public struct HearthOptions: Sendable {
    /// The API key sent as `?key=` with every call. A development-mode server accepts any key.
    public var apiKey: String
    /// The project id (the `aud` of the ID tokens).
    public var projectID: String
    /// The server's base URL, `http(s)://host[:port]`, without a path. ``Auth/useEmulator(withHost:port:)`` overrides it.
    public var serverURL: String
    /// Where the signed-in user is kept between launches. `nil` picks the platform's default: the Keychain on
    /// Apple platforms, a file under `$XDG_DATA_HOME/hearth-auth/` (or `~/.local/share/hearth-auth/`) elsewhere.
    public var userStore: (any SignedInUserStore)?
    /// Sends the HTTP requests; ``URLSessionTransport`` by default.
    public var transport: any AuthTransport
    /// The current time: token freshness is judged against it. Tests move it; apps leave the default.
    public var clock: @Sendable () -> Date
    /// `FirebaseOptions.googleAppID`'s counterpart: names the Keychain service. Defaults to the project id.
    public var appID: String?

    /// - Parameters:
    ///   - apiKey: sent as `?key=` with every call.
    ///   - projectID: the project the ID tokens are issued for.
    ///   - serverURL: `http(s)://host[:port]` of the Hearth server.
    public init(apiKey: String, projectID: String, serverURL: String = "http://127.0.0.1:9099") {
        self.apiKey = apiKey
        self.projectID = projectID
        self.serverURL = Self.normalize(serverURL)
        self.userStore = nil
        self.transport = URLSessionTransport()
        self.clock = { Date() }
        self.appID = nil
    }

    /// - Parameters:
    ///   - apiKey: sent as `?key=` with every call.
    ///   - projectID: the project the ID tokens are issued for.
    ///   - host: the server's host name or address; IPv6 addresses may be given with or without brackets.
    ///   - port: the server's port.
    public init(apiKey: String, projectID: String, host: String, port: Int) {
        self.init(apiKey: apiKey, projectID: projectID, serverURL: Self.url(host: host, port: port))
    }

    /// The options of ``HearthApp/configure()``, read from the environment:
    /// `HEARTH_SERVER_URL` (or `FIREBASE_AUTH_EMULATOR_HOST` as `host:port`), `HEARTH_API_KEY` and
    /// `HEARTH_PROJECT_ID`; each missing one takes the value of a server in development mode
    /// (`http://127.0.0.1:9099`, `dev`, `demo-hearth`).
    public static func defaultOptions() -> HearthOptions {
        let environment = ProcessInfo.processInfo.environment
        var serverURL = "http://127.0.0.1:9099"
        if let url = environment["HEARTH_SERVER_URL"], !url.isEmpty {
            serverURL = url
        } else if let host = environment["FIREBASE_AUTH_EMULATOR_HOST"], !host.isEmpty {
            serverURL = "http://\(host)"
        }
        return HearthOptions(
            apiKey: environment["HEARTH_API_KEY"].flatMap { $0.isEmpty ? nil : $0 } ?? "dev",
            projectID: environment["HEARTH_PROJECT_ID"].flatMap { $0.isEmpty ? nil : $0 } ?? "demo-hearth",
            serverURL: serverURL)
    }

    static func url(host: String, port: Int) -> String {
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "http://\(bracketed):\(port)"
    }

    static func normalize(_ url: String) -> String {
        var url = url
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }
}
