import Foundation
import HearthConsole
import HearthCore
import HearthTelemetry
import Metrics

/// The server's own metrics (see ``MetricDescriptor``'s catalogue), and what the status page shows of the last
/// hour's requests.
///
/// Handles are made once per label set and kept: a request then costs one dictionary lookup under a lock per
/// metric, not the registry's name checks. Label values come from fixed sets only (route templates, status
/// codes, provider ids the server knows, Firebase's error codes), so the cache stays small.
public final class ServerMetrics: Sendable {
    public let telemetry: Telemetry
    /// When the server started (its uptime and `hearth_start_time_seconds`).
    public let startedAt: Date
    /// The last hour's requests, minute by minute, and the last errors (for `/console/status`).
    public let recent: RecentRequests
    private let counters = LockedBox<[HandleKey: Counter]>([:])
    private let timers = LockedBox<[HandleKey: Metrics.Timer]>([:])
    /// The two handles of each route and status: the one lookup a request costs.
    private let requestHandles = LockedBox<[RequestKey: (requests: Counter, duration: Metrics.Timer)]>([:])

    private struct RequestKey: Hashable {
        var route: String
        var status: Int
    }

    private struct HandleKey: Hashable {
        var name: String
        var labels: [String]
    }

    public init(telemetry: Telemetry, startedAt: Date, clock: WallClock) {
        self.telemetry = telemetry
        self.startedAt = startedAt
        self.recent = RecentRequests(clock: clock)
    }

    /// Adds `amount` to the counter `descriptor` with these label values (in the descriptor's label order).
    public func count(_ descriptor: MetricDescriptor, _ values: String..., by amount: Int = 1) {
        guard telemetry.measures else { return }
        counter(descriptor, values).increment(by: amount)
    }

    /// Records `duration` in the histogram `descriptor` with these label values.
    public func time(_ descriptor: MetricDescriptor, _ values: String..., duration: Duration) {
        guard telemetry.measures else { return }
        timer(descriptor, values).recordNanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    /// Sets the gauge `descriptor` (read at scrape time: key age, pools, start time).
    public func set(_ descriptor: MetricDescriptor, _ values: String..., to value: Double) {
        guard telemetry.measures else { return }
        Gauge(label: descriptor.name, dimensions: dimensions(descriptor, values), factory: telemetry.metrics).record(value)
    }

    /// One answered request: `hearth_http_requests_total`, `hearth_http_request_duration_seconds`, and the
    /// status page's minute counts and error list. `errorCode` is Firebase's error code of an error answer.
    func request(route: String, status: Int, duration: Duration, errorCode: String?) {
        recent.record(route: route, status: status, errorCode: errorCode)
        guard telemetry.measures else { return }
        let key = RequestKey(route: route, status: status)
        let handles = requestHandles.withLock { handles in
            if let known = handles[key] { return known }
            let made = (
                requests: counter(.httpRequests, [route, String(status)]),
                duration: timer(.httpRequestDuration, [route])
            )
            handles[key] = made
            return made
        }
        handles.requests.increment()
        handles.duration.recordNanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    private func counter(_ descriptor: MetricDescriptor, _ values: [String]) -> Counter {
        let key = HandleKey(name: descriptor.name, labels: values)
        return counters.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = Counter(label: descriptor.name, dimensions: dimensions(descriptor, values), factory: telemetry.metrics)
            counters[key] = counter
            return counter
        }
    }

    private func timer(_ descriptor: MetricDescriptor, _ values: [String]) -> Metrics.Timer {
        let key = HandleKey(name: descriptor.name, labels: values)
        return timers.withLock { timers in
            if let timer = timers[key] { return timer }
            let timer = Metrics.Timer(label: descriptor.name, dimensions: dimensions(descriptor, values), factory: telemetry.metrics)
            timers[key] = timer
            return timer
        }
    }

    private func dimensions(_ descriptor: MetricDescriptor, _ values: [String]) -> [(String, String)] {
        precondition(values.count == descriptor.labels.count, "\(descriptor.name) takes \(descriptor.labels)")
        return Array(zip(descriptor.labels, values))
    }

}
