import Dispatch
import Foundation
import Synchronization

/// Stops the server children (and the PostgreSQL cluster and the `--compare-peer` server, if the benchmark
/// started them) and removes their directories when the benchmark is interrupted (Ctrl-C, SIGTERM), so
/// nothing outlives the benchmark. Active while an instance is alive.
final class SignalTrap {
    private struct Guarded {
        var servers: [(pid: Int32, directory: String)] = []
        /// The postmaster: SIGINT is its fast shutdown.
        var databasePID: Int32 = 0
        var paths: [String] = []
        /// The peer server of `--compare-peer` and its directories.
        var peerPID: Int32 = 0
        var peerPaths: [String] = []
    }

    private static let guarded = Mutex(Guarded())
    private let sources: [any DispatchSourceSignal]

    /// Routes SIGINT and SIGTERM to the trap instead of ending the process outright.
    init() {
        sources = [SIGINT, SIGTERM].map { signalNumber in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { SignalTrap.interrupted(by: signalNumber) }
            source.resume()
            return source
        }
    }

    deinit {
        for source in sources { source.cancel() }
    }

    /// The servers to stop on interruption (empty once they have been stopped normally).
    static func guardServers(_ servers: [(pid: Int32, directory: String)]) {
        guarded.withLock { $0.servers = servers }
    }

    /// The database server to stop and the paths to delete on interruption.
    static func guardDatabase(pid: Int32?, paths: [String]) {
        guarded.withLock {
            $0.databasePID = pid ?? 0
            $0.paths = paths
        }
    }

    /// The peer server to stop and its directories to delete on interruption (`nil` once it has been stopped).
    static func guardPeer(pid: Int32?, paths: [String]) {
        guarded.withLock {
            $0.peerPID = pid ?? 0
            $0.peerPaths = paths
        }
    }

    private static func interrupted(by signalNumber: Int32) {
        let state = guarded.withLock { $0 }
        FileHandle.standardError.write(Data("\nhearth-benchmark: interrupted; stopping the server\n".utf8))
        for server in state.servers where server.pid > 0 { kill(server.pid, SIGTERM) }
        for server in state.servers where server.pid > 0 {
            var waited = 0
            while kill(server.pid, 0) == 0, waited < 50 {  // up to 5 s
                usleep(100_000)
                waited += 1
            }
            if kill(server.pid, 0) == 0 { kill(server.pid, SIGKILL) }
            try? FileManager.default.removeItem(atPath: server.directory)
        }
        if state.peerPID > 0 {
            kill(state.peerPID, SIGTERM)
            var waited = 0
            while kill(state.peerPID, 0) == 0, waited < 50 {  // up to 5 s
                usleep(100_000)
                waited += 1
            }
            if kill(state.peerPID, 0) == 0 { kill(state.peerPID, SIGKILL) }
        }
        for path in state.peerPaths { try? FileManager.default.removeItem(atPath: path) }
        if state.databasePID > 0 {
            kill(state.databasePID, SIGINT)
            var waited = 0
            while kill(state.databasePID, 0) == 0, waited < 100 {
                usleep(100_000)
                waited += 1
            }
            if kill(state.databasePID, 0) == 0 { kill(state.databasePID, SIGKILL) }
        }
        for path in state.paths { try? FileManager.default.removeItem(atPath: path) }
        exit(128 + signalNumber)
    }
}
