import NIOCore
import NIOHTTP1
import NIOPosix

/// Opens keep-alive connections to the server and runs one load phase over them.
///
/// Each connection is driven by a ``LoadConnectionHandler`` on a client event loop; the driver only
/// connects them in a task group and merges their reports.
struct LoadDriver: Sendable {
    let group: MultiThreadedEventLoopGroup
    let host: String
    let port: Int
    let requestTimeout: TimeAmount
    let connectTimeout: TimeAmount = .seconds(5)

    var hostHeader: String { "\(host):\(port)" }

    /// Sends `plan` from now until `measureEnd`, measuring the responses that complete from `measureStart` on.
    func runTimed(_ plan: RequestPlan, connections: Int, measureStart: NIODeadline, measureEnd: NIODeadline) async throws -> LoadReport {
        let reports = try await run(plan, schedule: .timed(measureStart: measureStart, measureEnd: measureEnd), connections: connections)
        return LoadReport(merging: reports, seconds: Double((measureEnd - measureStart).nanoseconds) / 1e9)
    }

    /// Sends every request of `plan` once and keeps the responses (for fixtures).
    func runOnce(_ plan: RequestPlan, connections: Int) async throws -> LoadReport {
        let started = NIODeadline.now()
        let reports = try await run(plan, schedule: .counted(plan.requests.count), connections: min(connections, plan.requests.count))
        return LoadReport(merging: reports, seconds: Double((NIODeadline.now() - started).nanoseconds) / 1e9)
    }

    private func run(_ plan: RequestPlan, schedule: LoadSchedule, connections: Int) async throws -> [ConnectionReport] {
        let counter = RequestCounter()
        return try await withThrowingTaskGroup(of: ConnectionReport.self) { tasks in
            for _ in 0..<max(1, connections) {
                tasks.addTask { try await runConnection(plan, schedule: schedule, counter: counter) }
            }
            var reports: [ConnectionReport] = []
            for try await report in tasks { reports.append(report) }
            return reports
        }
    }

    private func runConnection(_ plan: RequestPlan, schedule: LoadSchedule, counter: RequestCounter) async throws -> ConnectionReport {
        let loop = group.next()
        let promise = loop.makePromise(of: ConnectionReport.self)
        let timeout = requestTimeout
        let bootstrap = ClientBootstrap(group: loop)
            .connectTimeout(connectTimeout)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(
                        LoadConnectionHandler(plan: plan, schedule: schedule, counter: counter, requestTimeout: timeout, promise: promise))
                }
            }
        do {
            _ = try await bootstrap.connect(host: host, port: port).get()
        } catch {
            promise.fail(error)  // a no-op if the handler already failed it
            throw BenchmarkError("\(plan.name): cannot connect to \(hostHeader): \(error)")
        }
        return try await promise.futureResult.get()
    }
}
