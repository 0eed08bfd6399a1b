import ArgumentParser
import Foundation
import NIOCore
import NIOPosix

/// The servers `--compare-peer` can set Hearth's refresh beside.
enum Peer: String, CaseIterable, ExpressibleByArgument, Sendable {
    case glewlwyd
}

extension BenchmarkCommand {
    /// The peer's refresh grant, right after Hearth's refresh scenario: the peer started in a throwaway directory, one
    /// refresh token per connection from its password grant, then `grant_type=refresh_token` round-robin with the same
    /// client, connections, warm-up and seconds (and wrk after it with `--wrk`), between two RS256 ceilings; the peer
    /// stopped and its directories removed. `nil`, with a line saying why, when the peer is not installed or failed:
    /// Hearth's own figures stand without it.
    func measurePeerRefresh(_ peer: Peer, group: MultiThreadedEventLoopGroup, meter: CeilingMeter) async -> ScenarioResult? {
        if let missing = GlewlwydPeer.missing() {
            Self.emit("peer    : \(missing): the comparison with \(peer.rawValue) is skipped")
            return nil
        }
        let server: GlewlwydPeer
        do {
            server = try await GlewlwydPeer.launch(startupTimeout: .milliseconds(Int(startupTimeout * 1_000)))
        } catch {
            Self.emit("peer    : \(peer.rawValue) did not start, the comparison is skipped: \(error)")
            return nil
        }
        SignalTrap.guardPeer(pid: server.pid, paths: server.cleanupPaths)
        Self.emit(
            "peer    : \(peer.rawValue) \(server.version) (\(GlewlwydPeer.executable), pid \(server.pid) port \(server.port), SQLite in WAL mode)")
        defer { SignalTrap.guardPeer(pid: nil, paths: []) }
        do {
            let result = try await measure(server, group: group, meter: meter)
            await server.stop()
            return result
        } catch {
            Self.emit("peer    : the comparison with \(peer.rawValue) failed and is skipped: \(error)")
            await server.stop()
            return nil
        }
    }

    private func measure(_ server: GlewlwydPeer, group: MultiThreadedEventLoopGroup, meter: CeilingMeter) async throws -> ScenarioResult {
        let driver = LoadDriver(group: group, host: "127.0.0.1", ports: [server.port], requestTimeout: Self.timeAmount(requestTimeout))
        let started = ContinuousClock.now
        // glewlwyd logs that it started a moment before it answers every connection: a reset connection is tried again.
        var attempt = 1
        var tokens: [String]
        while true {
            do {
                tokens = try await server.refreshTokens(count: connections, driver: driver, connections: min(connections, 8))
                break
            } catch  where attempt < 5 {
                attempt += 1
                try await Task.sleep(for: .milliseconds(500))
            }
        }
        Self.emit("prepared \(tokens.count) glewlwyd refresh tokens (password grant) in \(Self.elapsed(since: started))")
        let requests = tokens.map {
            PreparedRequest(
                path: GlewlwydPeer.tokenPath, form: [("grant_type", "refresh_token"), ("refresh_token", $0)], hostHeader: driver.hostHeader)
        }
        let plan = RequestPlan(name: "glewlwyd refresh", requests: requests)
        let ceilingBefore = try await measureCeiling(.rs256, meter: meter)
        let measureStart = NIODeadline.now() + Self.timeAmount(warmupSeconds)
        let measureEnd = measureStart + Self.timeAmount(seconds)
        let (report, usage) = try await ResourceMonitor(serverPIDs: [server.pid]).watch(measureStart: measureStart, measureEnd: measureEnd) {
            try await driver.runTimed(plan, connections: connections, measureStart: measureStart, measureEnd: measureEnd)
        }
        let ceilingAfter = try await measureCeiling(.rs256, meter: meter)
        var result = ScenarioResult(
            scenario: .refresh, report: report, ceiling: Self.combine(ceilingBefore, ceilingAfter), usage: usage,
            title: "\(Scenario.refresh.title), glewlwyd \(server.version) (peer)")
        result.peer = "glewlwyd \(server.version)"
        if wrk {
            guard let client = WrkClient.find(threads: wrkThreads, connections: wrkConnections) else {
                throw BenchmarkError("--wrk: no wrk on the PATH (apt-get install wrk)")
            }
            let measured = try await client.run(requests, port: server.port, seconds: seconds, expectedStatus: 200)
            result.wrk = measured
            Self.emit(
                "  wrk: \(ResultTable.decimal(measured.requestsPerSecond)) req/s, p50 \(ResultTable.decimal(measured.p50Milliseconds)) ms, p99 \(ResultTable.decimal(measured.p99Milliseconds)) ms, \(measured.unexpected) unexpected answers"
            )
        }
        let p50 = report.latencyMilliseconds(percentile: 0.5).map(ResultTable.decimal) ?? "-"
        Self.emit(
            "\(result.title): \(ResultTable.decimal(report.successesPerSecond)) req/s, p50 \(p50) ms, \(report.errors) errors, CPU server+db+client+other \(ResultTable.cpu(usage)) cores; RS256 ceiling right before / after it: \(ResultTable.decimal(ceilingBefore.operationsPerSecond)) / \(ResultTable.decimal(ceilingAfter.operationsPerSecond))/s"
        )
        return result
    }

    /// One line per peer row under the tables: Hearth's refresh over the peer's, by each client.
    func printPeerComparison(_ results: [ScenarioResult]) {
        for peer in results where peer.peer != nil {
            guard let ratio = ResultTable.peerRatio(of: peer, among: results),
                let hearth = results.first(where: { $0.scenario == peer.scenario && $0.peer == nil })
            else { continue }
            let wrkRatio = ResultTable.peerRatio(of: peer, among: results, wrk: true).map { String(format: "; by wrk %.2f×", $0) } ?? ""
            Self.emit("")
            Self.emit(
                "\(peer.scenario.title) against \(peer.peer ?? "the peer") in the same run: Hearth \(ResultTable.grouped(hearth.report.successesPerSecond)) req/s, the peer \(ResultTable.decimal(peer.report.successesPerSecond)) req/s: Hearth ÷ peer \(String(format: "%.2f", ratio))×\(wrkRatio)"
            )
        }
    }
}
