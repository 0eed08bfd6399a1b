import Foundation
import HearthCore
import Logging

/// A log handler that writes each event as one line of JSON (`log.format: json`), for log collectors:
///
/// ```json
/// {"time":"2026-11-25T01:02:03.456Z","level":"info","label":"hearth","message":"request","metadata":{"route":"/v1/accounts:lookup","status":"200"},"source":"HearthServer"}
/// ```
///
/// Metadata values keep their shape (strings, arrays, objects). Control characters in messages and values are
/// escaped by the JSON encoding, so a value can never start a line of its own.
public struct JSONLogHandler: LogHandler {
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

    /// Lines to standard error through ``LogOutput/standardError``: whole lines, in order, off the request's path.
    public static func standardError(label: String) -> JSONLogHandler {
        JSONLogHandler(label: label) { LogOutput.standardError.write($0) }
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
        var object: [String: JSONValue] = [
            "time": .string(Self.timestamp(Date())), "level": .string(level.rawValue), "label": .string(label),
            "message": .string(message.description), "source": .string(source),
        ]
        if !all.isEmpty { object["metadata"] = .object(all.mapValues(Self.json)) }
        write(JSONValue.object(object).jsonText + "\n")
    }

    static func json(_ value: Logger.Metadata.Value) -> JSONValue {
        switch value {
        case .string(let text): .string(text)
        case .stringConvertible(let convertible): .string(convertible.description)
        case .array(let values): .array(values.map(json))
        case .dictionary(let values): .object(values.mapValues(json))
        }
    }

    /// RFC 3339 in UTC with milliseconds.
    static func timestamp(_ date: Date) -> String {
        LogTimestamp.milliseconds(date)
    }
}
