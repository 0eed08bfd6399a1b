import NIOCore
import NIOHTTP1
import NIOPosix

/// Opens keep-alive connections to the servers and runs one load phase over them.
///
/// Each connection is driven by a ``LoadConnectionHandler`` on a client event loop; the driver only
/// connects them in a task group and merges their reports. With several servers (replicas), connection
/// `i` goes to `ports[i % ports.count]`: round-robin, as a load balancer spreads keep-alive connections.
struct LoadDriver: Sendable {
    let group: MultiThreadedEventLoopGroup
    let host: String
    let ports: [Int]
    let requestTimeout: TimeAmount
    let connectTimeout: TimeAmount = .seconds(5)

    init(group: MultiThreadedEventLoopGroup, host: String, ports: [Int], requestTimeout: TimeAmount) {
        precondition(!ports.isEmpty, "a load driver needs at least one server")
        self.group = group
        self.host = host
        self.ports = ports
        self.requestTimeout = requestTimeout
    }

    /// The `Host` header (the first server's address; the servers do not route by it).
    var hostHeader: String { "\(host):\(ports[0])" }

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
            for index in 0..<max(1, connections) {
                let port = ports[index % ports.count]
                tasks.addTask { try await runConnection(plan, port: port, schedule: schedule, counter: counter) }
            }
            var reports: [ConnectionReport] = []
            for try await report in tasks { reports.append(report) }
            return reports
        }
    }

    private func runConnection(_ plan: RequestPlan, port: Int, schedule: LoadSchedule, counter: RequestCounter) async throws -> ConnectionReport {
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
            throw BenchmarkError("\(plan.name): cannot connect to \(host):\(port): \(error)")
        }
        return try await promise.futureResult.get()
    }
}
