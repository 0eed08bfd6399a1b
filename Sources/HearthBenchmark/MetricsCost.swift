import Foundation
import NIOCore
import NIOPosix

/// One scenario of the metrics-cost phase: each round's figures with metrics on and off.
struct MetricsCostRow: Sendable {
    struct Round: Sendable {
        /// `on` or `off`.
        let variant: String
        let report: LoadReport
        let usage: ResourceMonitor.Usage
    }

    let scenario: Scenario
    let rounds: [Round]

    /// Throughput over every round of a variant: all successes over all measured seconds.
    func requestsPerSecond(_ variant: String) -> Double {
        let chosen = rounds.filter { $0.variant == variant }
        let seconds = chosen.reduce(0) { $0 + $1.report.seconds }
        return seconds > 0 ? Double(chosen.reduce(0) { $0 + $1.report.successes }) / seconds : 0
    }

    /// On over off, round by round (each round measures both, back to back).
    var roundRatios: [Double] {
        let on = rounds.filter { $0.variant == "on" }
        let off = rounds.filter { $0.variant == "off" }
        return zip(on, off).map { $1.report.successesPerSecond > 0 ? $0.report.successesPerSecond / $1.report.successesPerSecond : 0 }
    }

    var ratio: Double {
        let off = requestsPerSecond("off")
        return off > 0 ? requestsPerSecond("on") / off : 0
    }

    /// The most metrics may cost: on at least 97 % of off.
    static let target = 0.97

    static func render(_ rows: [MetricsCostRow]) -> String {
        var lines = [
            "| scenario | metrics on, req/s | metrics off, req/s | on / off | round by round | p50 on / off, ms | errors | target (≥ 0.97) |",
            "|---|---:|---:|---:|---|---:|---:|---|",
        ]
        for row in rows {
            let errors = row.rounds.reduce(0) { $0 + $1.report.errors }
            let p50 = ["on", "off"].map { variant in
                let values = row.rounds.filter { $0.variant == variant }.compactMap { $0.report.latencyMilliseconds(percentile: 0.5) }
                return values.isEmpty ? "-" : ResultTable.decimal(values.reduce(0, +) / Double(values.count))
            }
            lines.append(
                "| \(row.scenario.title) | \(ResultTable.decimal(row.requestsPerSecond("on"))) | \(ResultTable.decimal(row.requestsPerSecond("off"))) | "
                    + "\(String(format: "%.3f", row.ratio)) | \(row.roundRatios.map { String(format: "%.3f", $0) }.joined(separator: ", ")) | "
                    + "\(p50[0]) / \(p50[1]) | \(errors) | \(row.ratio >= target ? "met" : "MISSED") |")
        }
        return lines.joined(separator: "\n")
    }
}

extension BenchmarkCommand {
    /// The metrics-cost phase: two servers on fresh databases, one as configured (metrics on) and one with
    /// `HEARTH_METRICS_ENABLED=false`, each with its own anonymous accounts; then, `rounds` times, refresh and
    /// lookup on each server back to back, the order swapped every round, so that the VM's drift falls on both.
    func runMetricsCost(
        rounds: Int, executable: String, databases: BenchmarkDatabase, group: MultiThreadedEventLoopGroup
    ) async throws -> [MetricsCostRow] {
        Self.emit("")
        var fleets: [(variant: String, fleet: ServerFleet)] = []
        do {
            for (variant, environment) in [("on", [String: String]()), ("off", ["HEARTH_METRICS_ENABLED": "false"])] {
                let url = try await databases.makeDatabase()
                SignalTrap.guardDatabase(pid: databases.clusterPID, paths: databases.cleanupPaths)
                fleets.append((variant, try await launchFleet(executable: executable, databaseURL: url, environment: environment)))
            }
            var plans: [String: [Scenario: RequestPlan]] = [:]
            var drivers: [String: LoadDriver] = [:]
            for (variant, fleet) in fleets {
                let driver = LoadDriver(group: group, host: "127.0.0.1", ports: fleet.ports, requestTimeout: Self.timeAmount(requestTimeout))
                let started = ContinuousClock.now
                let sessions = try await FixtureFactory(driver: driver, connections: connections).anonymousSessions(count: refreshUsers)
                Self.emit("prepared \(sessions.count) anonymous accounts on the server with metrics \(variant) in \(Self.elapsed(since: started))")
                drivers[variant] = driver
                plans[variant] = [
                    .refresh: RequestPlan(
                        name: Scenario.refresh.title,
                        requests: sessions.map {
                            PreparedRequest(
                                path: Scenario.refresh.path,
                                json: #"{"grant_type":"refresh_token","refresh_token":"\#($0.refreshToken.jsonEscaped)"}"#,
                                hostHeader: driver.hostHeader)
                        }),
                    .lookup: RequestPlan(
                        name: Scenario.lookup.title,
                        requests: sessions.map {
                            PreparedRequest(
                                path: Scenario.lookup.path, json: #"{"idToken":"\#($0.idToken.jsonEscaped)"}"#, hostHeader: driver.hostHeader)
                        }),
                ]
            }
            var rows: [MetricsCostRow] = []
            for scenario in [Scenario.refresh, .lookup] {
                var measured: [MetricsCostRow.Round] = []
                for round in 1...rounds {
                    let order = round % 2 == 1 ? fleets : fleets.reversed()
                    for (variant, fleet) in order {
                        guard let driver = drivers[variant], let plan = plans[variant]?[scenario] else { continue }
                        let (report, usage) = try await measure(
                            plan, driver: driver, connections: connections, fleet: fleet, databases: databases)
                        measured.append(.init(variant: variant, report: report, usage: usage))
                        Self.emit(
                            "\(scenario.title), round \(round), metrics \(variant): \(ResultTable.decimal(report.successesPerSecond)) req/s, p50 \(report.latencyMilliseconds(percentile: 0.5).map(ResultTable.decimal) ?? "-") ms, \(report.errors) errors, CPU \(ResultTable.cpu(usage))"
                        )
                    }
                }
                rows.append(MetricsCostRow(scenario: scenario, rounds: measured))
            }
            for (_, fleet) in fleets { await fleet.stop() }
            return rows
        } catch {
            for (variant, fleet) in fleets where !fleet.exitDescriptions.isEmpty {
                FileHandle.standardError.write(
                    Data(
                        "the server with metrics \(variant) died (\(fleet.exitDescriptions.joined(separator: ", "))); last output:\n\(fleet.stderrTails())\n"
                            .utf8))
            }
            for (_, fleet) in fleets { await fleet.stop() }
            throw error
        }
    }
}
