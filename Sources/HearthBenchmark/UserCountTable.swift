import Foundation

/// One accounts:lookup measurement on a database of `users` users.
struct UserCountResult: Sendable {
    let users: Int
    let connections: Int
    let report: LoadReport
    let usage: ResourceMonitor.Usage
}

/// Lookup throughput and latency by user count, as a Markdown table.
struct UserCountTable {
    let rows: [UserCountResult]

    func render() -> String {
        let header = [
            "Users", "Connections", "Requests", "Req/s", "p50 ms", "p90 ms", "p99 ms", "Errors", "Server RSS MB", "CPU server+db+client+other",
        ]
        let cells = rows.map { row -> [String] in
            let report = row.report
            func latency(_ fraction: Double) -> String {
                report.latencyMilliseconds(percentile: fraction).map { $0 < 10 ? String(format: "%.2f", $0) : ResultTable.decimal($0) } ?? "-"
            }
            return [
                ResultTable.grouped(Double(row.users)),
                String(row.connections),
                ResultTable.grouped(Double(report.requests)),
                ResultTable.grouped(report.successesPerSecond),
                latency(0.50), latency(0.90), latency(0.99),
                ResultTable.grouped(Double(report.errors)),
                row.usage.peakServerRSS.map(ResultTable.megabytes) ?? "n/a",
                ResultTable.cpu(row.usage),
            ]
        }
        let widths = header.indices.map { column in ([header] + cells).map { $0[column].count }.max() ?? 0 }
        func line(_ values: [String]) -> String {
            "| "
                + values.enumerated().map { column, cell in
                    String(repeating: " ", count: widths[column] - cell.count) + cell
                }.joined(separator: " | ") + " |"
        }
        let rule = "|" + widths.map { String(repeating: "-", count: $0 + 1) + ":" }.joined(separator: "|") + "|"
        return ([line(header), rule] + cells.map(line)).joined(separator: "\n")
    }
}
