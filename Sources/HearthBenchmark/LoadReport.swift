/// The merged outcome of one load phase over all its connections.
struct LoadReport: Sendable {
    /// Responses completed in the measured window, errors included.
    let requests: Int
    let successes: Int
    let errorsByStatus: [UInt: Int]
    let errorSamples: [UInt: String]
    /// Length of the measured window in seconds.
    let seconds: Double
    /// Sorted latencies in nanoseconds.
    private let sortedLatencies: [UInt64]
    /// Every captured response (fixture preparation), ordered by request index.
    let captured: [ConnectionReport.CapturedResponse]

    init(merging reports: [ConnectionReport], seconds: Double) {
        var latencies: [UInt64] = []
        latencies.reserveCapacity(reports.reduce(0) { $0 + $1.latencies.count })
        var errors: [UInt: Int] = [:]
        var samples: [UInt: String] = [:]
        var captured: [ConnectionReport.CapturedResponse] = []
        for report in reports {
            latencies += report.latencies
            errors.merge(report.errorsByStatus, uniquingKeysWith: +)
            samples.merge(report.errorSamples) { first, _ in first }
            captured += report.captured
        }
        sortedLatencies = latencies.sorted()
        requests = latencies.count
        successes = reports.reduce(0) { $0 + $1.successes }
        errorsByStatus = errors
        errorSamples = samples
        self.captured = captured.sorted { $0.index < $1.index }
        self.seconds = seconds
    }

    var errors: Int { errorsByStatus.values.reduce(0, +) }

    /// Successful (200) responses per second of the measured window.
    var successesPerSecond: Double { seconds > 0 ? Double(successes) / seconds : 0 }

    /// The latency below which `fraction` of the responses completed, in milliseconds (nearest rank).
    func latencyMilliseconds(percentile fraction: Double) -> Double? {
        guard !sortedLatencies.isEmpty else { return nil }
        let rank = Int((fraction * Double(sortedLatencies.count)).rounded(.up)) - 1
        return Double(sortedLatencies[min(max(rank, 0), sortedLatencies.count - 1)]) / 1_000_000
    }
}
