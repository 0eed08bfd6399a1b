import Logging
import ServiceLifecycle
import UnixSignals

/// SIGHUP (`systemctl reload`): reads the TLS certificate and key again (``ServerTLS/reload()``). Without
/// `server.tls` there is nothing to reload, and the signal, which would otherwise end the process, is
/// only logged.
public struct HangupService: Service {
    public let tls: ServerTLS?
    public let logger: Logger

    public init(tls: ServerTLS?, logger: Logger) {
        self.tls = tls
        self.logger = logger
    }

    public func run() async throws {
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
