import Foundation

/// The `hearth serve` replicas of one phase, all on the same database, each on its own port. The load
/// client spreads its connections over them round-robin, as a load balancer would.
final class ServerFleet {
    let replicas: [ServerProcess]

    private init(replicas: [ServerProcess]) {
        self.replicas = replicas
    }

    var ports: [Int] { replicas.map(\.port) }
    var pids: [Int32] { replicas.map(\.pid) }

    /// Starts `count` servers on `databaseURL`: the first alone (it applies the migrations and makes
    /// the signing key), then the others.
    static func launch(
        count: Int, executable: String, databaseURL: String, environment: [String: String], startupTimeout: Duration
    ) async throws -> ServerFleet {
        var started: [ServerProcess] = []
        // Replicas share one key-encryption key: each would otherwise make its own in its data directory,
        // and all but the first would find the signing key sealed with another.
        var shared = ["HEARTH_DATABASE_URL": databaseURL]
        let inherited = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        if inherited["HEARTH_SECRETS_KEY"] == nil, inherited["HEARTH_SECRETS_KEY_FILE"] == nil {
            var random = SystemRandomNumberGenerator()
            shared["HEARTH_SECRETS_KEY"] = Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &random) }).base64EncodedString()
        }
        do {
            for _ in 0..<count {
                let server = try await ServerProcess.launch(
                    executable: executable,
                    environment: environment.merging(shared) { _, new in new },
                    startupTimeout: startupTimeout)
                started.append(server)
                SignalTrap.guardServers(started.map { ($0.pid, $0.directoryPath) })
            }
        } catch {
            for server in started { await server.stop() }
            SignalTrap.guardServers([])
            throw error
        }
        return ServerFleet(replicas: started)
    }

    /// Sets every replica's peak RSS (`VmHWM`) back to its RSS now (`5` into `/proc/<pid>/clear_refs`), so that a
    /// later ``peakResidentBytes()`` is the peak of what ran in between. Nothing where there is no procfs.
    func resetPeakResidentBytes() {
        for pid in pids { try? "5".write(toFile: "/proc/\(pid)/clear_refs", atomically: false, encoding: .utf8) }
    }

    /// The highest peak RSS (`VmHWM`) of the replicas.
    func peakResidentBytes() -> Int? {
        replicas.compactMap { $0.memory()?.peakResidentBytes }.max()
    }

    /// How the replicas that died ended, if any did.
    var exitDescriptions: [String] {
        replicas.enumerated().compactMap { index, server in server.exitDescription.map { "replica \(index + 1): \($0)" } }
    }

    func stderrTails() -> String {
        replicas.enumerated().map { index, server in "replica \(index + 1):\n\(server.stderrTail())" }.joined(separator: "\n")
    }

    /// Stops every replica and forgets them in the signal trap.
    func stop() async {
        for server in replicas { await server.stop() }
        SignalTrap.guardServers([])
    }
}
