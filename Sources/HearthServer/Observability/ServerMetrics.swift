import Foundation
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

/// The last hour of requests for the status page: counts per minute (all, client errors, server errors) and
/// the last ``capacity`` error answers (time, route template, status, error code).
public final class RecentRequests: Sendable {
    public struct Minute: Sendable, Equatable {
        /// The minute's start, in minutes since 1970.
        public var minute: Int64
        public var requests = 0
        public var clientErrors = 0
        public var serverErrors = 0
    }

    public struct ErrorAnswer: Sendable, Equatable {
        public var time: Date
        public var route: String
        public var status: Int
        public var code: String?
    }

    public static let capacity = 20
    static let minutes = 60

    private struct State {
        var minutes: [Minute] = []
        var errors: [ErrorAnswer] = []
    }

    private let clock: WallClock
    private let state = LockedBox(State())

    init(clock: WallClock) {
        self.clock = clock
    }

    func record(route: String, status: Int, errorCode: String?) {
        let now = clock.now
        let minute = Int64(now.timeIntervalSince1970 / 60)
        state.withLock { state in
            if state.minutes.last?.minute != minute {
                state.minutes.append(Minute(minute: minute))
                state.minutes.removeAll { $0.minute <= minute - Int64(Self.minutes) }
            }
            state.minutes[state.minutes.count - 1].requests += 1
            guard status >= 400 else { return }
            if status >= 500 {
                state.minutes[state.minutes.count - 1].serverErrors += 1
            } else {
                state.minutes[state.minutes.count - 1].clientErrors += 1
            }
            state.errors.append(ErrorAnswer(time: now, route: route, status: status, code: errorCode))
            if state.errors.count > Self.capacity { state.errors.removeFirst(state.errors.count - Self.capacity) }
        }
    }

    /// The minutes of the last hour that saw requests, oldest first.
    public var lastHour: [Minute] {
        let floor = Int64(clock.now.timeIntervalSince1970 / 60) - Int64(Self.minutes)
        return state.withLock { $0.minutes.filter { $0.minute > floor } }
    }

    /// The last error answers, newest first.
    public var lastErrors: [ErrorAnswer] { state.withLock { $0.errors.reversed() } }
}
