import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// Serves the routes `addRoutes` adds on a free loopback port while `body` runs, given the base URL
/// (`http://127.0.0.1:PORT`): for stand-ins a test server talks to (the SMS gateways', a captcha's site-verify).
public func withLoopbackRouter<T: Sendable>(
    _ addRoutes: (Router<BasicRequestContext>) -> Void, _ body: (URL) async throws -> T
) async throws -> T {
    let router = Router()
    addRoutes(router)
    var logger = Logger(label: "hearth.test.loopback")
    logger.logLevel = .warning
    let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
    let app = Application(
        router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
        onServerRunning: { channel in
            continuation.yield(channel.localAddress?.port ?? 0)
            continuation.finish()
        }, logger: logger)
    let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
    let running = Task { try await group.run() }
    var iterator = ports.makeAsyncIterator()
    guard let port = await iterator.next(), port > 0 else {
        await group.triggerGracefulShutdown()
        try await running.value
        throw HarnessError("the loopback router did not start")
    }
    do {
        let result = try await body(URL(string: "http://127.0.0.1:\(port)")!)
        await group.triggerGracefulShutdown()
        try await running.value
        return result
    } catch {
        await group.triggerGracefulShutdown()
        _ = await running.result
        throw error
    }
}
