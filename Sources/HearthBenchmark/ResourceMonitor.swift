import NIOCore

/// Watches the machine while a scenario runs: the server's RSS, sampled through warm-up and measurement,
/// and the CPU the server and the load client use during the measured window.
struct ResourceMonitor {
    /// What the monitor saw; nil readings mean no procfs.
    struct Usage: Sendable {
        var peakServerRSS: Int?
        /// Cores' worth of CPU (1.0 = one core busy) during the measured window.
        var serverCores: Double?
        var clientCores: Double?
        /// Everything else on the machine (other processes, hypervisor steal): it should be near 0.
        var otherCores: Double?
    }

    private enum Reading: Sendable {
        case rss(Int?)
        case cpu(server: Double?, client: Double?, other: Double?)
    }

    let serverPID: Int32
    var sampleInterval: Duration = .milliseconds(200)

    /// Runs `body` (which should last until `measureEnd`) while watching.
    func watch<T>(measureStart: NIODeadline, measureEnd: NIODeadline, _ body: () async throws -> T) async throws -> (T, Usage) {
        let pid = String(serverPID)
        let interval = sampleInterval
        return try await withThrowingTaskGroup(of: Reading.self) { tasks in
            tasks.addTask {
                var peak: Int?
                repeat {
                    if let status = ProcessStatus(pid: pid) { peak = max(peak ?? 0, status.residentBytes) }
                    try? await Task.sleep(for: interval)
                } while !Task.isCancelled && NIODeadline.now() < measureEnd
                return .rss(peak)
            }
            tasks.addTask {
                await Self.sleep(until: measureStart)
                let serverBefore = ProcessStatus.cpuSeconds(pid: pid)
                let clientBefore = ProcessStatus.cpuSeconds(pid: "self")
                let machineBefore = ProcessStatus.machineBusySeconds()
                await Self.sleep(until: measureEnd)
                guard !Task.isCancelled else { return .cpu(server: nil, client: nil, other: nil) }
                let window = Double((measureEnd - measureStart).nanoseconds) / 1e9
                func cores(_ before: Double?, _ after: Double?) -> Double? {
                    guard let before, let after, window > 0 else { return nil }
                    return (after - before) / window
                }
                let server = cores(serverBefore, ProcessStatus.cpuSeconds(pid: pid))
                let client = cores(clientBefore, ProcessStatus.cpuSeconds(pid: "self"))
                let machine = cores(machineBefore, ProcessStatus.machineBusySeconds())
                let other = machine.flatMap { machine in server.flatMap { server in client.map { max(0, machine - server - $0) } } }
                return .cpu(server: server, client: client, other: other)
            }
            let value = try await body()
            var usage = Usage()
            for try await reading in tasks {
                switch reading {
                case .rss(let peak): usage.peakServerRSS = peak
                case .cpu(let server, let client, let other):
                    usage.serverCores = server
                    usage.clientCores = client
                    usage.otherCores = other
                }
            }
            return (value, usage)
        }
    }

    private static func sleep(until deadline: NIODeadline) async {
        let remaining = (deadline - .now()).nanoseconds
        if remaining > 0 { try? await Task.sleep(for: .nanoseconds(remaining)) }
    }
}
