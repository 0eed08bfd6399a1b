import Foundation
import HearthCore
import Logging

/// The server's log handler: each event one line, in the configuration's ``ServerConfiguration/Log/Format``.
///
/// `text` (the default) is swift-log's `StreamLogHandler` layout, with the time in UTC:
///
/// ```
/// 2026-11-25T01:02:03+0000 info hearth : route=/v1/accounts:lookup status=200 [HearthServer] request
/// ```
///
/// `json` is one JSON object a line, for log collectors:
///
/// ```json
/// {"time":"2026-11-25T01:02:03.456Z","level":"info","label":"hearth","message":"request","metadata":{"route":"/v1/accounts:lookup","status":"200"},"source":"HearthServer"}
/// ```
///
/// JSON metadata values keep their shape (strings, arrays, objects), and control characters in messages and values are
/// escaped by the JSON encoding, so a value can never start a line of its own. Unlike `StreamLogHandler`, the handler
/// hands each line to a writer (by default the buffered ``LogOutput/standardError``) instead of writing and flushing
/// it under a lock on the logging thread.
public struct LineLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let format: ServerConfiguration.Log.Format
    private let write: @Sendable (String) -> Void

    /// - Parameter write: receives each line, newline included.
    public init(label: String, format: ServerConfiguration.Log.Format, write: @escaping @Sendable (String) -> Void) {
        self.label = label
        self.format = format
        self.write = write
    }

    /// Lines to standard error through ``LogOutput/standardError``: whole lines, in order, off the request's path.
    public static func standardError(label: String, format: ServerConfiguration.Log.Format) -> LineLogHandler {
        LineLogHandler(label: label, format: format) { LogOutput.standardError.write($0) }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(
        level: Logger.Level, message: Logger.Message, metadata explicit: Logger.Metadata?, source: String, file: String, function: String,
        line: UInt
    ) {
        var all = metadata
        if let provided = metadataProvider?.get() { all.merge(provided) { _, new in new } }
        if let explicit { all.merge(explicit, uniquingKeysWith: { _, new in new }) }
        switch format {
        case .text:
            // Built in one string, without interpolating the level (an enum's description goes through reflection).
            var text = LogTimestamp.seconds(Date())
            text.reserveCapacity(256)
            text += " " + level.rawValue + " " + label + " :"
            for (key, value) in all.sorted(by: { $0.key < $1.key }) {
                text += " " + key + "=" + value.description
            }
            text += " [" + source + "] " + message.description + "\n"
            write(text)
        case .json:
            var object: [String: JSONValue] = [
                "time": .string(LogTimestamp.milliseconds(Date())), "level": .string(level.rawValue), "label": .string(label),
                "message": .string(message.description), "source": .string(source),
            ]
            if !all.isEmpty { object["metadata"] = .object(all.mapValues(Self.json)) }
            write(JSONValue.object(object).jsonText + "\n")
        }
    }

    static func json(_ value: Logger.Metadata.Value) -> JSONValue {
        switch value {
        case .string(let text): .string(text)
        case .stringConvertible(let convertible): .string(convertible.description)
        case .array(let values): .array(values.map(json))
        case .dictionary(let values): .object(values.mapValues(json))
        }
    }
}

/// Log timestamps in UTC without Foundation's formatters (a log line is written for every request).
enum LogTimestamp {
    /// `2026-11-25T01:02:03+0000`, as swift-log's `StreamLogHandler` writes.
    static func seconds(_ date: Date) -> String {
        let (text, _) = parts(date)
        return text + "+0000"
    }

    /// `2026-11-25T01:02:03.456Z` (RFC 3339 with milliseconds).
    static func milliseconds(_ date: Date) -> String {
        let (text, milliseconds) = parts(date)
        return text + "." + digits(milliseconds, 3) + "Z"
    }

    private static func parts(_ date: Date) -> (String, Int) {
        let interval = date.timeIntervalSince1970
        var seconds = time_t(interval.rounded(.down))
        let milliseconds = min(999, max(0, Int(((interval - Double(seconds)) * 1_000).rounded(.down))))
        var fields = tm()
        gmtime_r(&seconds, &fields)
        let text =
            digits(Int(fields.tm_year) + 1_900, 4) + "-" + digits(Int(fields.tm_mon) + 1, 2) + "-" + digits(Int(fields.tm_mday), 2) + "T"
            + digits(Int(fields.tm_hour), 2) + ":" + digits(Int(fields.tm_min), 2) + ":" + digits(Int(fields.tm_sec), 2)
        return (text, milliseconds)
    }

    private static func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
