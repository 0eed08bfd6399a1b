import NIOCore

/// Watches the machine while a scenario runs: the servers' RSS, sampled through warm-up and measurement,
/// and the CPU the servers (all replicas together), the database server (PostgreSQL's processes, when
/// the benchmark runs the cluster) and the load client use during the measured window.
struct ResourceMonitor {
    /// What the monitor saw; nil readings mean no procfs.
    struct Usage: Sendable {
        /// The highest RSS any one replica reached.
        var peakServerRSS: Int?
        /// Cores' worth of CPU (1.0 = one core busy) during the measured window, replicas summed.
        var serverCores: Double?
        /// PostgreSQL's processes (nil when there is none to watch: SQLite, or an external server).
        var databaseCores: Double?
        var clientCores: Double?
        /// Everything else on the machine (other processes, hypervisor steal): it should be near 0.
        var otherCores: Double?
    }

    private enum Reading: Sendable {
        case rss(Int?)
        case cpu(server: Double?, database: Double?, client: Double?, other: Double?)
    }

    let serverPIDs: [Int32]
    /// The database server's processes, listed again at the start of the window (backends come and go).
    var databasePIDs: @Sendable () -> [Int32] = { [] }
    var sampleInterval: Duration = .milliseconds(200)

    /// Runs `body` (which should last until `measureEnd`) while watching.
    func watch<T>(measureStart: NIODeadline, measureEnd: NIODeadline, _ body: () async throws -> T) async throws -> (T, Usage) {
        let pids = serverPIDs.map { String($0) }
        let interval = sampleInterval
        let databasePIDs = self.databasePIDs
        return try await withThrowingTaskGroup(of: Reading.self) { tasks in
            tasks.addTask {
                var peak: Int?
                repeat {
                    for pid in pids {
                        if let status = ProcessStatus(pid: pid) { peak = max(peak ?? 0, status.residentBytes) }
                    }
                    try? await Task.sleep(for: interval)
                } while !Task.isCancelled && NIODeadline.now() < measureEnd
                return .rss(peak)
            }
            tasks.addTask {
                await Self.sleep(until: measureStart)
                let database = databasePIDs().map { String($0) }
                let serverBefore = Self.cpuSeconds(pids)
                let databaseBefore = Self.cpuSecondsByPID(database)
                let clientBefore = ProcessStatus.cpuSeconds(pid: "self")
                let machineBefore = ProcessStatus.machineBusySeconds()
                await Self.sleep(until: measureEnd)
                guard !Task.isCancelled else { return .cpu(server: nil, database: nil, client: nil, other: nil) }
                let window = Double((measureEnd - measureStart).nanoseconds) / 1e9
                func cores(_ before: Double?, _ after: Double?) -> Double? {
                    guard let before, let after, window > 0 else { return nil }
                    return (after - before) / window
                }
                let server = cores(serverBefore, Self.cpuSeconds(pids))
                // Backends that ended during the window are lost (their CPU shows as "other").
                let databaseAfter = Self.cpuSecondsByPID(database)
                let databaseUsed: Double? =
                    database.isEmpty
                    ? nil
                    : databaseBefore.reduce(0) { sum, entry in
                        sum + max(0, (databaseAfter[entry.key] ?? entry.value) - entry.value)
                    }
                let databaseCores = databaseUsed.flatMap { used in window > 0 ? used / window : nil }
                let client = cores(clientBefore, ProcessStatus.cpuSeconds(pid: "self"))
                let machine = cores(machineBefore, ProcessStatus.machineBusySeconds())
                let other = machine.flatMap { machine in
                    server.flatMap { server in client.map { max(0, machine - server - $0 - (databaseCores ?? 0)) } }
                }
                return .cpu(server: server, database: databaseCores, client: client, other: other)
            }
            let value = try await body()
            var usage = Usage()
            for try await reading in tasks {
                switch reading {
                case .rss(let peak): usage.peakServerRSS = peak
                case .cpu(let server, let database, let client, let other):
                    usage.serverCores = server
                    usage.databaseCores = database
                    usage.clientCores = client
                    usage.otherCores = other
                }
            }
            return (value, usage)
        }
    }

    /// CPU seconds of all `pids` together; nil when one cannot be read.
    private static func cpuSeconds(_ pids: [String]) -> Double? {
        var total = 0.0
        for pid in pids {
            guard let seconds = ProcessStatus.cpuSeconds(pid: pid) else { return nil }
            total += seconds
        }
        return total
    }

    private static func cpuSecondsByPID(_ pids: [String]) -> [String: Double] {
        var result: [String: Double] = [:]
        for pid in pids { result[pid] = ProcessStatus.cpuSeconds(pid: pid) }
        return result
    }

    private static func sleep(until deadline: NIODeadline) async {
        let remaining = (deadline - .now()).nanoseconds
        if remaining > 0 { try? await Task.sleep(for: .nanoseconds(remaining)) }
    }
}
