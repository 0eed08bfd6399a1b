import Foundation

/// Renders the results as a Markdown table that also reads well in a terminal.
struct ResultTable {
    let results: [ScenarioResult]
    /// The server's peak RSS over the whole run (`VmHWM`), if known.
    let serverPeakRSS: Int?
    static let memoryTargetBytes = 80 * 1_000_000

    func render() -> String {
        let header = [
            "Scenario", "Requests", "Req/s", "p50 ms", "p90 ms", "p99 ms", "p99/p50", "Ceiling /s", "vs ceiling", "Target", "Met", "Errors",
            "Server RSS MB",
            "CPU server+db+client+other",
        ]
        let rows = results.map(row(for:))
        var lines = [Self.markdown(header: header, rows: rows, numeric: [1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 13])]
        if let serverPeakRSS {
            let met = serverPeakRSS < Self.memoryTargetBytes
            lines.append("")
            lines.append(
                "Server peak RSS over the run (VmHWM): \(Self.megabytes(serverPeakRSS)) MB; target < \(Self.memoryTargetBytes / 1_000_000) MB: \(met ? "met" : "MISSED")"
            )
        }
        return lines.joined(separator: "\n")
    }

    /// The wrk rows: rate (and its ratio to the built-in run's ceiling), p50, p99, the tail, unexpected answers.
    func renderWrk() -> String {
        let rows = results.compactMap { result -> [String]? in
            guard let wrk = result.wrk else { return nil }
            let fraction = result.ceiling.map { String(format: "%.1f%%", wrk.requestsPerSecond / max($0.operationsPerSecond, 1e-9) * 100) } ?? "-"
            return [
                result.title, Self.grouped(wrk.requestsPerSecond), fraction, Self.decimal(wrk.p50Milliseconds), Self.decimal(wrk.p99Milliseconds),
                String(format: "%.1f", wrk.tail), wrk.tail <= ScenarioResult.tailLimit ? "yes" : "NO", Self.grouped(Double(wrk.unexpected)),
            ]
        }
        return Self.markdown(
            header: ["Scenario", "Req/s", "vs ceiling", "p50 ms", "p99 ms", "p99/p50", "Tail ≤ 3", "Unexpected"], rows: rows,
            numeric: [1, 2, 3, 4, 5, 7])
    }

    /// Hearth's rate over a peer's row's, from the built-in client (`wrk: false`) or from wrk: Hearth's row is the one of
    /// the same scenario that is not a peer's.
    static func peerRatio(of peer: ScenarioResult, among results: [ScenarioResult], wrk: Bool = false) -> Double? {
        guard let hearth = results.first(where: { $0.scenario == peer.scenario && $0.peer == nil }) else { return nil }
        let rates =
            wrk
            ? (hearth.wrk?.requestsPerSecond, peer.wrk?.requestsPerSecond) : (hearth.report.successesPerSecond, peer.report.successesPerSecond)
        guard let ours = rates.0, let theirs = rates.1, theirs > 0 else { return nil }
        return ours / theirs
    }

    /// A Markdown table, each column padded to its widest cell; the `numeric` columns right-aligned.
    static func markdown(header: [String], rows: [[String]], numeric: Set<Int>) -> String {
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            "| "
                + cells.enumerated().map { column, cell in
                    let padding = String(repeating: " ", count: widths[column] - cell.count)
                    return numeric.contains(column) ? padding + cell : cell + padding
                }.joined(separator: " | ") + " |"
        }
        let rule =
            "|"
            + widths.enumerated().map { column, width in
                numeric.contains(column) ? String(repeating: "-", count: width + 1) + ":" : ":" + String(repeating: "-", count: width + 1)
            }.joined(separator: "|") + "|"
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
    }

    private func row(for result: ScenarioResult) -> [String] {
        let report = result.report
        let ceiling: String
        switch (result.scenario.ceiling, result.ceiling) {
        case (.rs256?, let measurement?): ceiling = "RS256 \(Self.grouped(measurement.operationsPerSecond))"
        case (.scrypt?, let measurement?): ceiling = "scrypt \(Self.decimal(measurement.operationsPerSecond))"
        case (.bareServer?, let measurement?): ceiling = "bare \(Self.grouped(measurement.operationsPerSecond))"
        case (.es256?, let measurement?): ceiling = "ES256 verify \(Self.grouped(measurement.operationsPerSecond))"
        default: ceiling = "-"
        }
        var target: String
        switch result.target {
        case .fractionOfCeiling(let fraction): target = "≥ \(Int((fraction * 100).rounded()))% of ceiling, p99/p50 ≤ \(Int(ScenarioResult.tailLimit))"
        case .requestsPerSecond(let rate): target = "≥ \(Self.grouped(rate)) req/s, p99/p50 ≤ \(Int(ScenarioResult.tailLimit))"
        }
        if result.peer != nil {
            // A peer's row is not held to Hearth's target: it says how far ahead Hearth's own row is.
            target = Self.peerRatio(of: result, among: results).map { "Hearth ÷ this: \(String(format: "%.2f", $0))×" } ?? "-"
        }
        return [
            result.title,
            Self.grouped(Double(report.requests)),
            report.successesPerSecond >= 100 ? Self.grouped(report.successesPerSecond) : Self.decimal(report.successesPerSecond),
            report.latencyMilliseconds(percentile: 0.50).map(Self.decimal) ?? "-",
            report.latencyMilliseconds(percentile: 0.90).map(Self.decimal) ?? "-",
            report.latencyMilliseconds(percentile: 0.99).map(Self.decimal) ?? "-",
            result.tail.map { String(format: "%.1f", $0) } ?? "-",
            ceiling,
            result.fractionOfCeiling.map { String(format: "%.1f%%", $0 * 100) } ?? "-",
            target,
            result.peer != nil ? "-" : result.meetsTarget ? "yes" : "NO",
            Self.grouped(Double(report.errors)),
            result.usage.peakServerRSS.map(Self.megabytes) ?? "n/a",
            Self.cpu(result.usage),
        ]
    }

    /// "server + db + client + other" cores; db is "-" without a database server to watch.
    static func cpu(_ usage: ResourceMonitor.Usage) -> String {
        "\(cores(usage.serverCores)) + \(usage.databaseCores.map { cores($0) } ?? "-") + \(cores(usage.clientCores)) + \(cores(usage.otherCores))"
    }

    /// Cores' worth of CPU, two decimals.
    static func cores(_ value: Double?) -> String { value.map { String(format: "%.2f", $0) } ?? "n/a" }

    /// Megabytes (10^6 bytes), one decimal.
    static func megabytes(_ bytes: Int) -> String { String(format: "%.1f", Double(bytes) / 1_000_000) }

    static func decimal(_ value: Double) -> String {
        value >= 100 ? String(format: "%.0f", value) : value >= 10 ? String(format: "%.1f", value) : String(format: "%.2f", value)
    }

    /// A whole number with thousands separators: 12,345.
    static func grouped(_ value: Double) -> String {
        let digits = String(Int(value.rounded()))
        var result = ""
        for (offset, character) in digits.reversed().enumerated() {
            if offset > 0, offset % 3 == 0, character != "-" { result.append(",") }
            result.append(character)
        }
        return String(result.reversed())
    }
}
