import Foundation
import HearthCore
import Logging
import ServiceLifecycle

/// Rotates the signing keys on schedule and picks up keys other replicas made.
public struct KeyRotationService: Service {
    private let keyRing: KeyRing
    private let interval: Duration
    private let logger: Logger

    public init(keyRing: KeyRing, checkEvery interval: Duration = .seconds(60), logger: Logger) {
        self.keyRing = keyRing
        self.interval = interval
        self.logger = logger
    }

    public func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try await Task.sleep(for: interval)
                do {
                    try await keyRing.rotateIfDue()
                } catch {
                    guard !endedByCancellation(error) else { return }
                    logger.error("key rotation check failed", metadata: ["error": "\(String(describing: type(of: error)))"])
                }
            }
        }
    }
}
