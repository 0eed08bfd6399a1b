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

    init(scenario: Scenario, report: LoadReport, ceiling: CeilingMeter.Measurement?, usage: ResourceMonitor.Usage, title: String? = nil) {
        self.scenario = scenario
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

    var meetsTarget: Bool {
        switch scenario.target {
        case .fractionOfCeiling(let minimum): (fractionOfCeiling ?? 0) >= minimum
        case .requestsPerSecond(let minimum): report.successesPerSecond >= minimum
        }
    }
}
