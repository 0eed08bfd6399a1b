import CoreMetrics
import Prometheus
import Tracing

/// Where one server's measurements and spans go.
///
/// Every server makes its own (``prometheus(tracer:)``) rather than bootstrapping swift-metrics' and
/// swift-distributed-tracing's process-wide systems: tests run many servers in one process, and each must count
/// only its own requests. Code that measures takes a `Telemetry` and builds its metrics with
/// ``MetricDescriptor``'s names on ``metrics`` (swift-metrics' `Counter(label:dimensions:factory:)` and the
/// like), and its spans on ``tracer``.
public struct Telemetry: Sendable {
    /// The factory swift-metrics' handles are made with: the catalogue's Prometheus registry, or nothing.
    public let metrics: any MetricsFactory
    /// What `/metrics` shows; `nil` when metrics are off.
    public let registry: PrometheusCollectorRegistry?
    /// Where spans go: swift-otel's exporter when tracing is on, else a tracer that records nothing.
    public let tracer: any Tracer

    public init(metrics: any MetricsFactory, registry: PrometheusCollectorRegistry?, tracer: any Tracer) {
        self.metrics = metrics
        self.registry = registry
        self.tracer = tracer
    }

    /// Nothing measured, nothing traced.
    public static let off = Telemetry(metrics: NOOPMetricsHandler.instance, registry: nil, tracer: NoOpTracer())

    /// Metrics in a new Prometheus registry of the catalogue's metrics, spans to `tracer`.
    public static func prometheus(tracer: any Tracer = NoOpTracer()) -> Telemetry {
        let registry = PrometheusCollectorRegistry()
        return Telemetry(metrics: CatalogueMetricsFactory(registry: registry), registry: registry, tracer: tracer)
    }

    /// The same metrics with spans going to `tracer`.
    public func tracing(to tracer: any Tracer) -> Telemetry {
        Telemetry(metrics: metrics, registry: registry, tracer: tracer)
    }

    /// Whether metrics are kept (there is a registry to show).
    public var measures: Bool { registry != nil }

    /// The registry in Prometheus' text format (version 0.0.4); empty when metrics are off.
    public func exposition() -> [UInt8] {
        var buffer: [UInt8] = []
        registry?.emit(into: &buffer)
        return buffer
    }
}
