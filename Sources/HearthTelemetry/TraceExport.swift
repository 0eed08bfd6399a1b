import Foundation
import Logging
import OTel
import ServiceLifecycle
import Tracing

/// swift-otel's tracer and OTLP/HTTP exporter for `tracing.*`, made per server: nothing is bootstrapped
/// process-wide (tests run many servers in one process).
///
/// The tracer batches finished spans and the ``service`` posts them to the collector; run in the server's
/// service group, it sends what is left when the server shuts down gracefully. Incoming `traceparent` headers
/// are read (W3C Trace Context), so that a caller's trace continues here. swift-otel also reads the `OTEL_*`
/// environment variables, which override these settings.
public struct TraceExport: Sendable {
    public let tracer: any Tracer
    /// Exports the spans; runs until the graceful shutdown, then flushes.
    public let service: any Service

    /// The exporter `tracing` asks for; `nil` when tracing is off (or `OTEL_SDK_DISABLED=true`, OpenTelemetry's
    /// switch for every SDK). Its diagnostics go to `logger`.
    /// Where and how spans go (the server's `tracing.*` settings, read by HearthConfiguration).
    public struct Settings: Sendable, Equatable {
        /// The OTLP/HTTP traces URL, without credentials.
        public var tracesURL: String
        public var serviceName: String
        /// Protobuf (`true`) or JSON bodies.
        public var protobuf: Bool
        /// HTTP Basic credentials from the endpoint's URL, sent as `Authorization`.
        public var authorization: String?
        public var sampleRatio: Double

        public init(tracesURL: String, serviceName: String, protobuf: Bool, authorization: String?, sampleRatio: Double) {
            (self.tracesURL, self.serviceName, self.protobuf, self.authorization, self.sampleRatio) =
                (tracesURL, serviceName, protobuf, authorization, sampleRatio)
        }
    }

    public static func make(
        _ tracing: Settings?, logger: Logger, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> TraceExport? {
        guard let tracing, environment["OTEL_SDK_DISABLED"]?.trimmingCharacters(in: .whitespaces).lowercased() != "true"
        else { return nil }
        let url = tracing.tracesURL
        var configuration = OTel.Configuration.default
        configuration.serviceName = tracing.serviceName
        configuration.diagnosticLogger = .custom(OTelDiagnosticsHandler.logger(over: logger))
        configuration.diagnosticLogLevel = .warning
        configuration.propagators = [.traceContext]
        configuration.metrics.enabled = false
        configuration.logs.enabled = false
        configuration.traces.enabled = true
        configuration.traces.exporter = .otlp
        configuration.traces.otlpExporter.endpoint = url
        configuration.traces.otlpExporter.protocol = tracing.protobuf ? .httpProtobuf : .httpJSON
        if let authorization = tracing.authorization {
            configuration.traces.otlpExporter.headers = [("Authorization", authorization)]
        }
        configuration.traces.sampler = .parentBasedTraceIDRatio(ratio: tracing.sampleRatio) ?? .parentBasedAlwaysOn
        let backend = try OTel.makeTracingBackend(configuration: configuration)
        return TraceExport(tracer: backend.factory, service: backend.service)
    }
}

/// swift-otel's diagnostics without the values of the settings it reports changing (`environment_value`,
/// `previous_value`, `new_value`: an `OTEL_EXPORTER_OTLP_HEADERS` API key or the endpoint's Basic authorization
/// would be among them) or the headers it could not read a trace context from (`carrier`).
struct OTelDiagnosticsHandler: LogHandler {
    static let redactedKeys: Set<String> = ["environment_value", "previous_value", "new_value", "carrier"]
    var base: any LogHandler

    /// `logger`, its lines passed through this handler.
    static func logger(over logger: Logger) -> Logger {
        let base = logger.handler
        return Logger(label: logger.label) { _ in OTelDiagnosticsHandler(base: base) }
    }

    var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { base.metadata }
        set { base.metadata = Self.redacted(newValue) ?? [:] }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = Self.redactedKeys.contains(key) && newValue != nil ? "<redacted>" : newValue }
    }

    func log(event: LogEvent) {
        var event = event
        event.metadata = Self.redacted(event.metadata)
        base.log(event: event)
    }

    private static func redacted(_ metadata: Logger.Metadata?) -> Logger.Metadata? {
        metadata.map { all in
            var kept = all
            for key in redactedKeys where kept[key] != nil { kept[key] = "<redacted>" }
            return kept
        }
    }
}
