import HearthCore
import Logging

/// Collects the messages logged through it.
struct CapturingLogHandler: LogHandler {
    let messages: LockedBox<[String]>
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        messages.withLock { $0.append(event.message.description) }
    }
}
