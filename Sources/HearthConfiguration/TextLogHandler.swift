import Foundation
import Logging

/// A log handler that writes each event as one line of text (`log.format: text`, the default), in swift-log's
/// `StreamLogHandler` layout, with the time in UTC:
///
/// ```
/// 2026-11-25T01:02:03+0000 info hearth : route=/v1/accounts:lookup status=200 [HearthServer] request
/// ```
///
/// Unlike `StreamLogHandler` it hands the line to a writer (by default the buffered ``LogOutput/standardError``)
/// instead of writing and flushing it under a lock on the logging thread.
public struct TextLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let write: @Sendable (String) -> Void

    /// - Parameter write: receives each line, newline included.
    public init(label: String, write: @escaping @Sendable (String) -> Void) {
        self.label = label
        self.write = write
    }

    /// Lines to standard error through ``LogOutput/standardError``.
    public static func standardError(label: String) -> TextLogHandler {
        TextLogHandler(label: label) { LogOutput.standardError.write($0) }
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
        if let explicit { all.merge(explicit) { _, new in new } }
        var text = LogTimestamp.seconds(Date())
        text += " \(level) \(label) :"
        for (key, value) in all.sorted(by: { $0.key < $1.key }) { text += " \(key)=\(value)" }
        text += " [\(source)] \(message)\n"
        write(text)
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
