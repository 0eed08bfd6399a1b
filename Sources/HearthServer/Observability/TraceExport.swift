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

    /// The exporter `tracing` asks for; `nil` when tracing is off. Its diagnostics go to `logger`.
    public static func make(_ tracing: ServerConfiguration.Tracing, logger: Logger) throws -> TraceExport? {
        guard let url = tracing.tracesURL else { return nil }
        var configuration = OTel.Configuration.default
        configuration.serviceName = tracing.serviceName
        configuration.diagnosticLogger = .custom(logger)
        configuration.diagnosticLogLevel = .warning
        configuration.propagators = [.traceContext]
        configuration.metrics.enabled = false
        configuration.logs.enabled = false
        configuration.traces.enabled = true
        configuration.traces.exporter = .otlp
        configuration.traces.otlpExporter.endpoint = url
        configuration.traces.otlpExporter.protocol =
            switch tracing.wireProtocol {
            case .httpProtobuf: .httpProtobuf
            case .httpJSON: .httpJSON
            }
        if let authorization = tracing.authorization {
            configuration.traces.otlpExporter.headers = [("Authorization", authorization)]
        }
        configuration.traces.sampler = .parentBasedTraceIDRatio(ratio: tracing.sampleRatio) ?? .parentBasedAlwaysOn
        let backend = try OTel.makeTracingBackend(configuration: configuration)
        return TraceExport(tracer: backend.factory, service: backend.service)
    }
}
