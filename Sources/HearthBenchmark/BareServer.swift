import Foundation
import Hummingbird
import NIOCore
import NIOPosix

/// The framework's ceiling: Hummingbird 2 answering `GET /` with a short text and nothing else, no middleware, no
/// log, no database. `hearth-benchmark --bare-server` runs it; the benchmark starts that as a child process (as it
/// starts `hearth serve`) and drives it with the same client, so the 404, JWKS and lookup scenarios are read against
/// what the framework alone does on this machine in the same run.
enum BareServer {
    static let path = "/"
    static let banner = "Bare Hummingbird is listening on http://"

    /// Serves on 127.0.0.1 at an ephemeral port, printed as ``banner`` + `127.0.0.1:PORT`, until SIGTERM.
    static func run() async throws {
        let router = Router()
        router.get(RouterPath(path)) { _, _ in "Hello, world!" }
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "bare"),
            onServerRunning: { channel in
                FileHandle.standardOutput.write(Data("\(banner)127.0.0.1:\(channel.localAddress?.port ?? 0)\n".utf8))
            })
        try await app.runService()
    }
}

/// The bare server started for a run, measured as a ceiling like RS256: loaded for the ceiling's seconds right before
/// and after each scenario that is read against it.
struct BareServerCeiling {
    let process: ServerProcess
    let driver: LoadDriver

    static func launch(group: MultiThreadedEventLoopGroup, requestTimeout: TimeAmount, startupTimeout: Duration) async throws -> Self {
        let own = Bundle.main.executableURL?.resolvingSymlinksInPath().path ?? CommandLine.arguments[0]
        let process = try await ServerProcess.launch(
            arguments: { _ in [own, "--bare-server"] }, environment: [:], startupTimeout: startupTimeout, banner: BareServer.banner)
        return Self(process: process, driver: LoadDriver(group: group, host: "127.0.0.1", ports: [process.port], requestTimeout: requestTimeout))
    }

    /// Requests per second of `GET /` over `connections` for `duration` (after a second's warm-up), with the CPU the
    /// rest of the machine used meanwhile (the load client included).
    func measure(connections: Int, duration: TimeAmount) async throws -> CeilingMeter.Measurement {
        let plan = RequestPlan(name: "bare Hummingbird hello", requests: [PreparedRequest(get: BareServer.path, hostHeader: driver.hostHeader)])
        let measureStart = NIODeadline.now() + .seconds(1)
        let measureEnd = measureStart + duration
        let (report, usage) = try await ResourceMonitor(serverPIDs: [process.pid]).watch(measureStart: measureStart, measureEnd: measureEnd) {
            try await driver.runTimed(plan, connections: connections, measureStart: measureStart, measureEnd: measureEnd)
        }
        guard report.errors == 0 else { throw BenchmarkError("the bare server answered \(report.errors) requests with an error") }
        return CeilingMeter.Measurement(
            operationsPerSecond: report.successesPerSecond, operations: report.requests, workers: connections, otherCores: usage.otherCores)
    }
}
