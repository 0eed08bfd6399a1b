import ArgumentParser
import Foundation
import NIOCore
import NIOPosix

/// `hearth-benchmark`: measures the CPU ceilings, starts a `hearth serve` child process and drives the
/// sign-up, refresh, lookup and password sign-in endpoints over loopback, then prints one table.
/// See BENCHMARKS.md.
@main
struct BenchmarkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hearth-benchmark",
        abstract: "Load-test a hearth server against this machine's RS256 and scrypt ceilings.")

    @Option(help: "Comma-separated scenarios to run: signup, refresh, lookup, signin.")
    var scenarios: String = Scenario.allCases.map(\.rawValue).joined(separator: ",")

    @Option(help: "Concurrent keep-alive connections per scenario.")
    var connections: Int = 64

    @Option(help: "Measured seconds per scenario (after the warm-up).")
    var seconds: Double = 10

    @Option(name: .customLong("warmup-seconds"), help: "Warm-up seconds per scenario, not measured.")
    var warmupSeconds: Double = 2

    @Option(name: .customLong("ceiling-seconds"), help: "Seconds for each ceiling measurement.")
    var ceilingSeconds: Double = 3

    @Option(name: .customLong("scrypt-log-n"), help: "scrypt cost (N = 2^logN) for the server and the hash ceiling.")
    var scryptLogN: Int = 14

    @Option(help: "The hearth executable (default: `hearth` next to this executable).")
    var server: String?

    @Option(name: .customLong("client-threads"), help: "Event-loop threads of the load client.")
    var clientThreads: Int = 1

    @Option(name: .customLong("refresh-users"), help: "Anonymous accounts made for the refresh and lookup scenarios.")
    var refreshUsers: Int = 1_000

    @Option(name: .customLong("password-users"), help: "E-mail accounts made for the password sign-in scenario.")
    var passwordUsers: Int = 200

    @Option(name: .customLong("request-timeout"), help: "Seconds a single response may take before the run fails.")
    var requestTimeout: Double = 30

    @Option(name: .customLong("startup-timeout"), help: "Seconds the server may take to print its port.")
    var startupTimeout: Double = 60

    func validate() throws {
        guard (1...10_000).contains(connections) else { throw ValidationError("--connections must be 1...10000") }
        guard seconds > 0, warmupSeconds >= 0, ceilingSeconds > 0 else { throw ValidationError("durations must be positive") }
        guard (1...20).contains(scryptLogN) else { throw ValidationError("--scrypt-log-n must be 1...20") }
        guard (1...64).contains(clientThreads) else { throw ValidationError("--client-threads must be 1...64") }
        guard refreshUsers > 0, passwordUsers > 0 else { throw ValidationError("fixture counts must be positive") }
        _ = try selectedScenarios()
    }

    private func selectedScenarios() throws -> [Scenario] {
        var selected = Set<Scenario>()
        for name in scenarios.split(separator: ",") where !name.trimmingCharacters(in: .whitespaces).isEmpty {
            guard let scenario = Scenario(argument: String(name)) else {
                throw ValidationError("unknown scenario \(name); choose from \(Scenario.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            selected.insert(scenario)
        }
        guard !selected.isEmpty else { throw ValidationError("--scenarios is empty") }
        return Scenario.allCases.filter(selected.contains)
    }

    func run() async throws {
        let selected = try selectedScenarios()
        let machine = MachineDescription.current()
        Self.emit("Hearth load benchmark, \(Self.timestamp())")
        Self.emit("machine : \(machine.summary)")
        Self.emit("command : \(CommandLine.arguments.joined(separator: " "))")
        Self.emit("load    : \(connections) keep-alive connections, \(Self.format(warmupSeconds)) s warm-up + \(Self.format(seconds)) s measured per scenario, \(clientThreads) client thread(s)")
        Self.emit("")

        // 1. Ceilings, before the server starts, on every core (measured again at the end).
        let meter = CeilingMeter(workers: machine.cores, duration: Self.timeAmount(ceilingSeconds))
        let ceilingsBefore = try await measureCeilings(selected, meter: meter, label: "before")

        // 2. The server.
        let signalTrap = SignalTrap()
        defer { withExtendedLifetime(signalTrap) {} }
        let executable = server ?? ServerProcess.defaultExecutable()
        let process: ServerProcess
        do {
            process = try await ServerProcess.launch(
                executable: executable,
                environment: ["HEARTH_PASSWORDS_SCRYPT_LOG_N": String(scryptLogN)],
                startupTimeout: .milliseconds(Int(startupTimeout * 1_000)))
        } catch {
            FileHandle.standardError.write(Data("hearth-benchmark: \(error)\n".utf8))
            throw ExitCode(2)
        }
        SignalTrap.guardServer(pid: process.pid, directory: process.directoryPath)
        Self.emit("server  : \(executable) (pid \(process.pid), port \(process.port), HEARTH_PASSWORDS_SCRYPT_LOG_N=\(scryptLogN))")
        Self.emit("")

        // 3. The scenarios; the server is stopped whatever happens.
        let group = MultiThreadedEventLoopGroup(numberOfThreads: clientThreads)
        let outcome: Result<[ScenarioResult], any Error>
        do {
            outcome = .success(try await runScenarios(selected, server: process, group: group))
        } catch {
            outcome = .failure(error)
        }
        let peak = process.memory()?.peakResidentBytes
        let serverExit = process.exitDescription
        let stderrTail = process.stderrTail()
        await process.stop()
        SignalTrap.guardServer(pid: nil, directory: nil)
        try? await group.shutdownGracefully()

        guard case .success(var results) = outcome else {
            if case .failure(let error) = outcome { FileHandle.standardError.write(Data("hearth-benchmark: \(error)\n".utf8)) }
            if let serverExit { FileHandle.standardError.write(Data("the server died (\(serverExit)); its last output:\n\(stderrTail)\n".utf8)) }
            throw ExitCode(1)
        }

        // 4. The ceilings again, so drift during the run shows; the table uses the mean.
        Self.emit("")
        let ceilingsAfter = try await measureCeilings(selected, meter: meter, label: "after ")
        var ceilings: [Scenario.Ceiling: CeilingMeter.Measurement] = [:]
        for (kind, before) in ceilingsBefore {
            ceilings[kind] = Self.combine(before, ceilingsAfter[kind])
        }
        for index in results.indices {
            results[index].ceiling = results[index].scenario.ceiling.flatMap { ceilings[$0] }
        }

        Self.emit("")
        Self.emit(ResultTable(results: results, serverPeakRSS: peak).render())
        printErrors(results)
        let kinds = Scenario.Ceiling.allCases
        let phases = kinds.compactMap { kind in ceilingsBefore[kind].map { ("\(kind.name) ceiling (before)", $0.otherCores) } }
            + results.map { ($0.scenario.title, $0.usage.otherCores) }
            + kinds.compactMap { kind in ceilingsAfter[kind].map { ("\(kind.name) ceiling (after)", $0.otherCores) } }
        let busy = phases.filter { ($0.1 ?? 0) > Self.disturbanceThreshold }.map { "\($0.0) (\(ResultTable.cores($0.1)) cores)" }
        if !busy.isEmpty {
            Self.emit("")
            Self.emit("Warning: other processes used the CPU during \(busy.joined(separator: ", ")); those figures are off. Rerun on a quiet machine.")
        }
    }

    /// The ceiling the table uses: the mean of both measurements, or the undisturbed one when only one
    /// of them ran while other processes used the CPU.
    private static func combine(_ before: CeilingMeter.Measurement, _ after: CeilingMeter.Measurement?) -> CeilingMeter.Measurement {
        guard let after else { return before }
        let beforeDisturbed = (before.otherCores ?? 0) > disturbanceThreshold
        let afterDisturbed = (after.otherCores ?? 0) > disturbanceThreshold
        switch (beforeDisturbed, afterDisturbed) {
        case (true, false): return after
        case (false, true): return before
        default: return before.averaged(with: after)
        }
    }

    /// The ceilings the selected scenarios are compared with, printed as they are measured.
    private func measureCeilings(_ selected: [Scenario], meter: CeilingMeter, label: String) async throws -> [Scenario.Ceiling: CeilingMeter.Measurement] {
        var ceilings: [Scenario.Ceiling: CeilingMeter.Measurement] = [:]
        if selected.contains(where: { $0.ceiling == .rs256 }) {
            let measurement = try await meter.rs256(payloadBytes: 600)
            ceilings[.rs256] = measurement
            Self.emit("ceiling \(label): RS256 2048-bit over a \(CeilingMeter.jwtSigningInput(length: 600).utf8.count)-byte input, \(measurement.workers) workers: \(ResultTable.grouped(measurement.operationsPerSecond)) signatures/s (other CPU \(ResultTable.cores(measurement.otherCores)) cores)")
        }
        if selected.contains(where: { $0.ceiling == .scrypt }) {
            let measurement = try await meter.scrypt(logN: scryptLogN)
            ceilings[.scrypt] = measurement
            Self.emit("ceiling \(label): scrypt logN \(scryptLogN), r 8, p 1, \(measurement.workers) workers: \(ResultTable.decimal(measurement.operationsPerSecond)) hashes/s (\(measurement.operations) hashes, other CPU \(ResultTable.cores(measurement.otherCores)) cores)")
        }
        return ceilings
    }

    /// Prepares and runs each scenario; the results have no ceiling yet.
    private func runScenarios(_ selected: [Scenario], server: ServerProcess, group: MultiThreadedEventLoopGroup) async throws -> [ScenarioResult] {
        let driver = LoadDriver(group: group, host: "127.0.0.1", port: server.port, requestTimeout: Self.timeAmount(requestTimeout))
        let fixtures = FixtureFactory(driver: driver, connections: connections)
        var sessions: [FixtureFactory.Session] = []
        var results: [ScenarioResult] = []
        for scenario in selected {
            let requests: [PreparedRequest]
            switch scenario {
            case .signup:
                requests = [PreparedRequest(path: scenario.path, json: #"{"returnSecureToken":true}"#, hostHeader: driver.hostHeader)]
            case .refresh, .lookup:
                if sessions.isEmpty {
                    let started = ContinuousClock.now
                    sessions = try await fixtures.anonymousSessions(count: refreshUsers)
                    Self.emit("prepared \(sessions.count) anonymous accounts in \(Self.elapsed(since: started))")
                }
                requests = sessions.map { session in
                    scenario == .refresh
                        ? PreparedRequest(
                            path: scenario.path,
                            json: #"{"grant_type":"refresh_token","refresh_token":"\#(session.refreshToken.jsonEscaped)"}"#,
                            hostHeader: driver.hostHeader)
                        : PreparedRequest(path: scenario.path, json: #"{"idToken":"\#(session.idToken.jsonEscaped)"}"#, hostHeader: driver.hostHeader)
                }
            case .signin:
                let started = ContinuousClock.now
                let accounts = try await fixtures.passwordAccounts(count: passwordUsers, runID: String(UUID().uuidString.prefix(8)).lowercased())
                Self.emit("prepared \(accounts.count) e-mail accounts in \(Self.elapsed(since: started))")
                requests = accounts.map {
                    PreparedRequest(
                        path: scenario.path,
                        json: #"{"email":"\#($0.email.jsonEscaped)","password":"\#($0.password.jsonEscaped)","returnSecureToken":true}"#,
                        hostHeader: driver.hostHeader)
                }
            }
            let plan = RequestPlan(name: scenario.title, requests: requests)
            let measureStart = NIODeadline.now() + Self.timeAmount(warmupSeconds)
            let measureEnd = measureStart + Self.timeAmount(seconds)
            let (report, usage) = try await ResourceMonitor(serverPID: server.pid).watch(measureStart: measureStart, measureEnd: measureEnd) {
                try await driver.runTimed(plan, connections: connections, measureStart: measureStart, measureEnd: measureEnd)
            }
            let result = ScenarioResult(scenario: scenario, report: report, ceiling: nil, usage: usage)
            results.append(result)
            let p50 = report.latencyMilliseconds(percentile: 0.5).map(ResultTable.decimal) ?? "-"
            Self.emit("\(scenario.title): \(ResultTable.decimal(report.successesPerSecond)) req/s, p50 \(p50) ms, \(report.errors) errors, CPU server \(ResultTable.cores(usage.serverCores)) + client \(ResultTable.cores(usage.clientCores)) + other \(ResultTable.cores(usage.otherCores)) cores")
        }
        return results
    }

    private func printErrors(_ results: [ScenarioResult]) {
        let failing = results.filter { $0.report.errors > 0 }
        guard !failing.isEmpty else { return }
        Self.emit("")
        Self.emit("Errors (non-200 answers):")
        for result in failing {
            for (status, count) in result.report.errorsByStatus.sorted(by: { $0.key < $1.key }) {
                Self.emit("  \(result.scenario.title): \(count) × HTTP \(status): \(result.report.errorSamples[status] ?? "")")
            }
        }
    }

    /// Prints and flushes, so progress lines appear at once also when stdout is a pipe or a file.
    private static func emit(_ line: String) {
        print(line)
        fflush(nil)
    }

    /// Cores' worth of CPU used by other processes above which a phase is reported as disturbed.
    static let disturbanceThreshold = 0.15

    private static func timeAmount(_ seconds: Double) -> TimeAmount { .nanoseconds(Int64(seconds * 1e9)) }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }

    private static func elapsed(since start: ContinuousClock.Instant) -> String {
        let duration = ContinuousClock.now - start
        return String(format: "%.1f s", Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
    }

    private static func timestamp() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date())
    }
}
