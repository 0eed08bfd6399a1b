import Dispatch
import Foundation
import Synchronization

/// Stops the server child and removes its directory when the benchmark is interrupted (Ctrl-C, SIGTERM),
/// so no server outlives the benchmark. Active while an instance is alive.
final class SignalTrap {
    private static let child = Mutex<(pid: Int32, directory: String?)>((0, nil))
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

    /// The server to stop on interruption; `nil` once it has been stopped normally.
    static func guardServer(pid: Int32?, directory: String?) {
        child.withLock { $0 = (pid ?? 0, directory) }
    }

    private static func interrupted(by signalNumber: Int32) {
        let (pid, directory) = child.withLock { $0 }
        FileHandle.standardError.write(Data("\nhearth-benchmark: interrupted; stopping the server\n".utf8))
        if pid > 0 {
            kill(pid, SIGTERM)
            var waited = 0
            while kill(pid, 0) == 0, waited < 50 {  // up to 5 s
                usleep(100_000)
                waited += 1
            }
            if kill(pid, 0) == 0 { kill(pid, SIGKILL) }
        }
        if let directory { try? FileManager.default.removeItem(atPath: directory) }
        exit(128 + signalNumber)
    }
}
