import Logging

extension ServerConfiguration {
    /// How the server writes its log (`log.*`): one line per event on standard error.
    public struct Log: Sendable, Equatable {
        /// The shape of each line.
        public enum Format: String, Sendable, CaseIterable {
            /// `2026-11-25T01:02:03+0000 info hearth: method=POST route=… [HearthServer] request`: for people.
            case text
            /// One JSON object per line (`time`, `level`, `label`, `message`, `metadata`, `source`): for collectors.
            case json
        }

        /// `log.format`: `text` (default) or `json`.
        public var format: Format = .text
        /// `log.level`: the least severe level written (`trace` … `critical`); `info` by default. `hearth serve
        /// --log-level` wins over it.
        public var level: Logger.Level = .info
        /// `log.accessLog`: one line per request (method, route template, status, duration, client address, API-key
        /// id, uid, request id); on by default.
        public var accessLog = true

        public init() {}
    }

    /// Reads `log.*`.
    static func readLog(_ r: ConfigValues) throws -> Log {
        var log = Log()
        if let text = try r.string("log.format") {
            guard let format = Log.Format(rawValue: text.lowercased()) else {
                throw ConfigurationError(key: "log.format", problem: "expected text or json, got \(text)")
            }
            log.format = format
        }
        if let text = try r.string("log.level") {
            guard let level = Logger.Level(rawValue: text.lowercased()) else {
                throw ConfigurationError(key: "log.level", problem: "expected trace, debug, info, notice, warning, error or critical, got \(text)")
            }
            log.level = level
        }
        log.accessLog = try r.bool("log.accessLog") ?? log.accessLog
        return log
    }
}
