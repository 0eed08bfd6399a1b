import CoreMetrics
import HearthTelemetry
import Metrics
import Testing
import Tracing

/// The catalogue of metrics and the registry a server's measurements go to, read back in Prometheus' text format.
@Suite("Telemetry: the catalogue and the registry")
struct TelemetryTests {
    static func text(_ telemetry: Telemetry) -> String { String(decoding: telemetry.exposition(), as: UTF8.self) }

    @Test("the catalogue: unique names in Prometheus' form, help for each, buckets only on histograms, ascending")
    func catalogue() {
        let names = MetricDescriptor.catalogue.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(names.count >= 20)
        for metric in MetricDescriptor.catalogue {
            #expect(metric.name.wholeMatch(of: #/hearth_[a-z0-9_]+/#) != nil, "\(metric.name)")
            #expect(!metric.help.isEmpty, "\(metric.name)")
            // Counters end in _total, durations in _seconds (Prometheus' naming).
            if metric.kind == .counter { #expect(metric.name.hasSuffix("_total"), "\(metric.name)") }
            if metric.durationBuckets != nil { #expect(metric.kind == .histogram && metric.name.hasSuffix("_seconds"), "\(metric.name)") }
            if metric.kind != .histogram { #expect(metric.durationBuckets == nil && metric.valueBuckets == nil, "\(metric.name)") }
            for buckets in [
                metric.durationBuckets.map { $0.map { Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18 } },
                metric.valueBuckets,
            ] {
                if let buckets { #expect(buckets == buckets.sorted() && Set(buckets).count == buckets.count, "\(metric.name)") }
            }
            #expect(metric.labels.allSatisfy { $0.wholeMatch(of: #/[a-z_]+/#) != nil }, "\(metric.name)")
        }
        #expect(MetricDescriptor.defaultValueBuckets == MetricDescriptor.defaultValueBuckets.sorted())
        #expect(MetricDescriptor.catalogue.contains { $0.name == MetricDescriptor.httpRequests.name })
    }

    @Test("a counter, a histogram and a gauge land in the registry with the catalogue's help text and buckets")
    func registry() throws {
        let telemetry = Telemetry.prometheus()
        #expect(telemetry.measures)
        let requests = Counter(
            label: MetricDescriptor.signIns.name, dimensions: [("provider", "password"), ("result", "ok")], factory: telemetry.metrics)
        requests.increment(by: 3)
        let duration = MetricDescriptor.databaseTransactionDuration
        Timer(label: duration.name, dimensions: duration.labels.map { ($0, "read") }, factory: telemetry.metrics)
            .recordNanoseconds(2_000_000)
        Gauge(label: MetricDescriptor.startTime.name, factory: telemetry.metrics).record(1_800_000_000)

        let text = Self.text(telemetry)
        #expect(text.contains("# HELP \(MetricDescriptor.signIns.name) \(MetricDescriptor.signIns.help)"), "\(text)")
        #expect(text.contains("# TYPE \(MetricDescriptor.signIns.name) counter"))
        #expect(MetricDescriptor.signIns.labels == ["provider", "result"])
        let signIns = text.split(separator: "\n").filter { $0.hasPrefix(MetricDescriptor.signIns.name + "{") }
        #expect(
            signIns.count == 1 && signIns.allSatisfy { $0.contains(#"provider="password""#) && $0.contains(#"result="ok""#) && $0.hasSuffix(" 3") },
            "\(text)")
        #expect(text.contains("# TYPE \(duration.name) histogram"))
        // Every bucket of the catalogue, and the 2 ms observation counted once.
        let buckets = try #require(duration.durationBuckets ?? Optional(MetricDescriptor.defaultDurationBuckets))
        let bucketLines = text.split(separator: "\n").filter { $0.hasPrefix("\(duration.name)_bucket") }
        #expect(bucketLines.count == buckets.count + 1, "\(bucketLines)")
        #expect(text.contains("\(duration.name)_count{") && text.contains("} 1\n"))
        let start = text.split(separator: "\n").first { $0.hasPrefix(MetricDescriptor.startTime.name + " ") }
        #expect(start.flatMap { Double($0.split(separator: " ").last ?? "") } == 1_800_000_000, "\(text)")
    }

    @Test("each server has its own registry; off keeps nothing and traces nowhere")
    func separateAndOff() {
        let first = Telemetry.prometheus()
        let second = Telemetry.prometheus()
        Counter(label: MetricDescriptor.tokenRefreshes.name, factory: first.metrics).increment()
        #expect(Self.text(first).contains(MetricDescriptor.tokenRefreshes.name))
        #expect(!Self.text(second).contains(MetricDescriptor.tokenRefreshes.name))

        let off = Telemetry.off
        #expect(!off.measures && off.registry == nil)
        Counter(label: MetricDescriptor.tokenRefreshes.name, factory: off.metrics).increment()
        #expect(off.exposition().isEmpty)
        #expect(off.tracer is NoOpTracer)
        // Tracing elsewhere keeps the same registry.
        let traced = first.tracing(to: NoOpTracer())
        #expect(traced.registry === first.registry)
    }
}
