/// One scenario's figures, set against its ceiling and target.
struct ScenarioResult: Sendable {
    let scenario: Scenario
    let report: LoadReport
    /// The ceiling measurement the scenario is compared with, if it has one.
    var ceiling: CeilingMeter.Measurement?
    /// Server RSS (sampled through warm-up and measurement) and CPU of server and client.
    let usage: ResourceMonitor.Usage
    /// The row's name: the scenario's title unless a phase names it otherwise (user-count runs).
    var title: String
    /// What the scenario should reach on the run's database.
    let target: Scenario.Target
    /// The same scenario driven by wrk right after (`--wrk`).
    var wrk: WrkClient.Result?
    /// The server measured, when the row is another server's (`--compare-peer`), not Hearth's: compared, not judged.
    var peer: String?
    /// The most p99 may be of p50 under saturation (issue 30: a short tail).
    static let tailLimit = 3.0

    init(
        scenario: Scenario, report: LoadReport, ceiling: CeilingMeter.Measurement?, usage: ResourceMonitor.Usage, title: String? = nil,
        target: Scenario.Target? = nil
    ) {
        self.scenario = scenario
        self.target = target ?? scenario.target
        self.report = report
        self.ceiling = ceiling
        self.usage = usage
        self.title = title ?? scenario.title
    }

    /// Successful requests per second as a fraction of the ceiling's operations per second.
    var fractionOfCeiling: Double? {
        guard let ceiling, ceiling.operationsPerSecond > 0 else { return nil }
        return report.successesPerSecond / ceiling.operationsPerSecond
    }

    /// p99 over p50 of the measured requests.
    var tail: Double? {
        guard let p50 = report.latencyMilliseconds(percentile: 0.50), let p99 = report.latencyMilliseconds(percentile: 0.99), p50 > 0 else {
            return nil
        }
        return p99 / p50
    }

    /// The rate target met, and the tail within ``tailLimit``.
    var meetsTarget: Bool {
        let rate =
            switch target {
            case .fractionOfCeiling(let minimum): (fractionOfCeiling ?? 0) >= minimum
            case .requestsPerSecond(let minimum): report.successesPerSecond >= minimum
            }
        return rate && (tail ?? 0) <= Self.tailLimit
    }
}
