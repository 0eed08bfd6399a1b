import Foundation
import HearthConfiguration
import HearthCore
import HearthStorage
import HearthTelemetry
import HearthTokens
import Hummingbird
import NIOCore

/// `GET /metrics`: the server's metrics in Prometheus' text format (version 0.0.4).
///
/// On the main port behind the administrator's credential (``AdminAuthMiddleware``); on `metrics.listen`'s
/// address without one (see ``buildMetricsApplication(services:)``). Gauges of state rather than events (the
/// pools, the signing key's age) are read at each scrape.
struct MetricsController<Context: RequestContext>: Sendable {
    /// The registry as text, its gauges of state read first.
    let scrape: @Sendable () async -> [UInt8]

    func addRoutes(to group: RouterGroup<Context>) {
        group.get(use: metrics)
    }

    @Sendable func metrics(_ request: Request, context: Context) async throws -> Response {
        Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: await scrape())))
    }
}

extension HearthServices {
    /// Reads the gauges of state (pools, password lanes, queues, signing key, start time, version) and returns the registry as text.
    func scrapeMetrics() async -> [UInt8] {
        let now = clock.now
        for pool in database.poolUsage() {
            metrics.set(.databaseConnectionsInUse, pool.pool, to: Double(pool.inUse))
            metrics.set(.databaseConnectionsWaiting, pool.pool, to: Double(pool.waiting))
        }
        for lane in PasswordHashing.Lane.allCases {
            let counts = hashing.counts(lane)
            metrics.set(.passwordChecksRunning, lane.rawValue, to: Double(counts.running))
            metrics.set(.passwordChecksWaiting, lane.rawValue, to: Double(counts.waiting))
        }
        if let created = await keyRing.signingKeyCreatedAt(at: now) {
            metrics.set(.signingKeyAge, to: max(0, now.timeIntervalSince(created)))
        }
        if let mails = try? await store.countWaitingMails(), let texts = try? await store.countWaitingSMS() {
            metrics.set(.queueWaiting, "mail", to: Double(mails))
            metrics.set(.queueWaiting, "sms", to: Double(texts))
        }
        metrics.set(.startTime, to: metrics.startedAt.timeIntervalSince1970)
        metrics.set(.buildInfo, HearthVersion.current, configuration.usesPostgres ? "postgres" : "sqlite", to: 1)
        return metrics.telemetry.exposition()
    }
}

/// The second listener of `metrics.listen`: `GET /metrics` and nothing else, without a credential (it belongs
/// on an address only the Prometheus server reaches).
public func buildMetricsApplication(services: HearthServices, address: ServerConfiguration.ListenAddress) -> some ApplicationProtocol {
    let router = Router(context: BasicRequestContext.self)
    router.add(middleware: WireErrorMiddleware())
    MetricsController<BasicRequestContext>(scrape: services.scrapeMetrics).addRoutes(to: router.group("/metrics"))
    return Application(
        router: router, configuration: .init(address: .hostname(address.host, port: address.port), serverName: "Hearth"),
        logger: services.logger)
}
