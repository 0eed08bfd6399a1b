extension ServerConfiguration {
    /// What the server measures and where it shows it (`metrics.*`).
    public struct Metrics: Sendable, Equatable {
        /// `metrics.enabled`: keep the metrics and serve `/metrics`; on by default.
        public var enabled = true
        /// `metrics.listen`: `host:port` (`[::1]:9464` for IPv6) of a second listener that serves only `GET
        /// /metrics`, without a credential, for a Prometheus on a private network; `nil` (default): none. The
        /// main port serves `/metrics` to administrators either way.
        public var listen: ListenAddress?

        public init() {}
    }

    /// A host and a port to listen on.
    public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
        public var host: String
        public var port: Int

        public init(host: String, port: Int) {
            self.host = host
            self.port = port
        }

        /// `host:port`, `[v6]:port`; `nil` for anything else (a missing or bad port, a path, a scheme).
        public init?(_ text: String) {
            guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65_535).contains(port)
            else { return nil }
            var host = String(text[..<colon])
            if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:")
            guard !host.isEmpty, host.allSatisfy({ allowed.contains($0) }) else { return nil }
            self.host = host
            self.port = port
        }

        public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
    }

    /// Reads `metrics.*`.
    static func readMetrics(_ r: ConfigValues) throws -> Metrics {
        var metrics = Metrics()
        metrics.enabled = try r.bool("metrics.enabled") ?? metrics.enabled
        if let text = try r.string("metrics.listen") {
            guard let address = ListenAddress(text) else {
                throw ConfigurationError(key: "metrics.listen", problem: "expected host:port (such as 127.0.0.1:9464 or [::1]:9464), got \(text)")
            }
            metrics.listen = address
        }
        return metrics
    }
}
