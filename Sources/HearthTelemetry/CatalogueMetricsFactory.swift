import CoreMetrics
import Prometheus

/// swift-metrics' factory over one Prometheus registry, with each metric's help text and buckets from
/// ``MetricDescriptor/catalogue``.
///
/// swift-prometheus' own factory registers every metric with an empty help text and one set of buckets; this
/// one looks the label up in the catalogue, so `/metrics` carries a `# HELP` line for each family and every
/// histogram has buckets that fit what it measures. A label missing from the catalogue is a programming
/// error, caught by the tests that read `/metrics`: it is registered without help, never dropped.
struct CatalogueMetricsFactory: MetricsFactory {
    let registry: PrometheusCollectorRegistry

    /// The registry's name for `label`, with the catalogue's help text (none for a label it lacks).
    private func name(_ label: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: label, unitName: "", helpText: MetricDescriptor.byName[label]?.help ?? "")
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        registry.makeCounter(descriptor: name(label), labels: dimensions)
    }

    func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        registry.makeCounter(descriptor: name(label), labels: dimensions)
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        guard aggregate else { return registry.makeGauge(descriptor: name(label), labels: dimensions) }
        let buckets = MetricDescriptor.byName[label]?.valueBuckets ?? MetricDescriptor.defaultValueBuckets
        return registry.makeValueHistogram(descriptor: name(label), labels: dimensions, buckets: buckets)
    }

    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        registry.makeGauge(descriptor: name(label), labels: dimensions)
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        let buckets = MetricDescriptor.byName[label]?.durationBuckets ?? MetricDescriptor.defaultDurationBuckets
        return registry.makeDurationHistogram(descriptor: name(label), labels: dimensions, buckets: buckets)
    }

    func destroyCounter(_ handler: any CounterHandler) {}
    func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {}
    func destroyRecorder(_ handler: any RecorderHandler) {}
    func destroyMeter(_ handler: any MeterHandler) {}
    func destroyTimer(_ handler: any TimerHandler) {}
}
