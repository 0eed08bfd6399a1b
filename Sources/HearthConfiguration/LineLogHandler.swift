import Foundation
import HearthCore
import Logging
import Synchronization

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
        let provided = metadataProvider?.get()
        let keys = Self.keys(metadata, provided, explicit)
        /// A key's value: the event's over the provider's over the logger's.
        func value(_ key: String) -> Logger.Metadata.Value {
            explicit?[key] ?? provided?[key] ?? metadata[key] ?? ""
        }
        switch format {
        case .text:
            // One string, reserved once; no interpolation (a level's description goes through reflection).
            var text = ""
            text.reserveCapacity(320)
            LogTimestamp.appendSeconds(Date(), to: &text)
            text += " "
            text += level.rawValue
            text += " "
            text += label
            text += " :"
            for key in keys {
                text += " "
                text += key
                text += "="
                switch value(key) {
                case .string(let string): text += string
                case let other: text += other.description
                }
            }
            text += " ["
            text += source
            text += "] "
            text += message.description
            text += "\n"
            write(text)
        case .json:
            var object: [String: JSONValue] = [
                "time": .string(LogTimestamp.milliseconds(Date())), "level": .string(level.rawValue), "label": .string(label),
                "message": .string(message.description), "source": .string(source),
            ]
            if !keys.isEmpty { object["metadata"] = .object(Dictionary(uniqueKeysWithValues: keys.map { ($0, Self.json(value($0))) })) }
            write(JSONValue.object(object).jsonText + "\n")
        }
    }

    /// The keys of an event's metadata (the logger's, the provider's, the event's), sorted, each once. Only the keys are
    /// gathered and sorted, not merged dictionaries (each access-log line passes here).
    static func keys(_ sources: Logger.Metadata?...) -> [String] {
        var keys: [String] = []
        keys.reserveCapacity(sources.reduce(0) { $0 + ($1?.count ?? 0) })
        for source in sources {
            if let source { keys.append(contentsOf: source.keys) }
        }
        keys.sort()
        var unique: [String] = []
        unique.reserveCapacity(keys.count)
        for key in keys where key != unique.last { unique.append(key) }
        return unique
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
    /// The text of the last second written, `2026-11-25T01:02:03`: lines of the same second reuse it.
    private static let lastSecond = Mutex<(second: Int, text: String)>((Int.min, ""))

    /// `2026-11-25T01:02:03+0000`, as swift-log's `StreamLogHandler` writes.
    static func seconds(_ date: Date) -> String {
        var text = ""
        appendSeconds(date, to: &text)
        return text
    }

    /// Appends ``seconds(_:)``'s text to `text`.
    static func appendSeconds(_ date: Date, to text: inout String) {
        text += secondText(Int(date.timeIntervalSince1970.rounded(.down)))
        text += "+0000"
    }

    /// `2026-11-25T01:02:03.456Z` (RFC 3339 with milliseconds).
    static func milliseconds(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        let second = interval.rounded(.down)
        let milliseconds = min(999, max(0, Int(((interval - second) * 1_000).rounded(.down))))
        return secondText(Int(second)) + "." + digits(milliseconds, 3) + "Z"
    }

    private static func secondText(_ second: Int) -> String {
        if let known = lastSecond.withLock({ $0.second == second ? $0.text : nil }) { return known }
        var seconds = time_t(second)
        var fields = tm()
        gmtime_r(&seconds, &fields)
        let text =
            digits(Int(fields.tm_year) + 1_900, 4) + "-" + digits(Int(fields.tm_mon) + 1, 2) + "-" + digits(Int(fields.tm_mday), 2) + "T"
            + digits(Int(fields.tm_hour), 2) + ":" + digits(Int(fields.tm_min), 2) + ":" + digits(Int(fields.tm_sec), 2)
        lastSecond.withLock { $0 = (second, text) }
        return text
    }

    private static func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}

/// Durations in log lines.
public enum LogDuration {
    /// `elapsed` in milliseconds with three decimals (`12.345`), without a formatter.
    public static func milliseconds(_ elapsed: Duration) -> String {
        let microseconds = max(0, elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000)
        let fraction = String(microseconds % 1_000)
        return "\(microseconds / 1_000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
