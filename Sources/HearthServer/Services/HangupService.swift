import Logging
import ServiceLifecycle
import UnixSignals

/// SIGHUP (`systemctl reload`): reads the TLS certificate and key again (``ServerTLS/reload()``). Without
/// `server.tls` there is nothing to reload, and the signal, which would otherwise end the process, is
/// only logged.
struct HangupService: Service {
    let tls: ServerTLS?
    let logger: Logger

    func run() async throws {
        let signals = await UnixSignalsSequence(trapping: .sighup)
        for await _ in signals.cancelOnGracefulShutdown() {
            guard let tls else {
                logger.notice("SIGHUP: nothing to reload (server.tls is not set)")
                continue
            }
            do {
                try tls.reload()
                logger.notice("SIGHUP: reloaded the TLS certificate and key", metadata: ["certificateFile": "\(tls.certificateFile)"])
            } catch {
                logger.error("SIGHUP: kept the TLS certificate in force: \(error)")
            }
        }
    }
}
