import AsyncHTTPClient
import Foundation
import HearthComposition
import HearthConfiguration
import HearthCore
import HearthDevelopment
import HearthProviders
import HearthSandbox
import HearthServer
import Hummingbird
import Logging
import ServiceLifecycle

/// A real Hearth server for tests and examples: development mode on `127.0.0.1` and a free port, a fresh
/// temporary SQLite directory (or, with `HEARTH_TEST_DATABASE=postgres`, a fresh database of a throwaway
/// PostgreSQL cluster: see ``TestDatabase``), the provider sandbox mounted at `/sandbox` with every provider pointed at
/// it, and a ``ManualClock`` that the server, the sandbox and the test share.
///
/// ```swift
/// try await withLiveHearth { live in
///     let credential = try live.sandbox.signInCredential(for: .appleAlice)
///     // talk HTTP to live.baseURL …
///     live.clock.advance(by: 3_600)
/// }
/// ```
public final class LiveHearth: Sendable {
    public let services: HearthServices
    public let clock: ManualClock
    /// The temporary directory holding the SQLite file; removed by ``stop()``.
    public let directory: URL
    private let group: ServiceGroup
    private let running: Task<Void, any Error>
    /// The port the server listens on.
    public let port: Int

    /// The API key tests send (development mode accepts any key).
    public let apiKey = "test-api-key"
    public var host: String { services.configuration.host }
    /// `http://127.0.0.1:<port>`.
    public var baseURL: String { "http://\(host):\(port)" }
    public var projectID: String { services.configuration.projectID }
    /// The identity providers' stand-ins this server verifies credentials against.
    public let sandbox: Sandbox

    private init(
        services: HearthServices, sandbox: Sandbox, clock: ManualClock, directory: URL, group: ServiceGroup,
        running: Task<Void, any Error>, port: Int
    ) {
        self.services = services
        self.sandbox = sandbox
        self.port = port
        self.clock = clock
        self.directory = directory
        self.group = group
        self.running = running
    }

    /// The HTTP client of in-process test servers (which have no service group): one for the test process, so no
    /// server's end shuts it down under another's requests. A live server makes its own.
    public static let httpClient = HTTPClient(eventLoopGroupProvider: .singleton)

    /// Starts a server and returns once it accepts connections.
    /// - Parameters:
    ///   - providers: changes to the providers once they point at the sandbox (e.g. Microsoft's allowed tenants).
    ///   - configure: changes to the test configuration (development mode, port 0, cheap scrypt).
    public static func start(
        clock: ManualClock = ManualClock(), logger: Logger = Logger(label: "hearth.live-test"),
        providers: @escaping @Sendable (inout ProvidersConfiguration) -> Void = { _ in },
        _ configure: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> LiveHearth {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-live-\(UUID().uuidString)")
        var configuration = ServerConfiguration()
        configuration.mode = .development
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.dataDirectory = directory.path
        configuration.scryptLogN = 4
        // The sandbox answers at once, but a full test run on two loaded cores can hold a request longer than
        // the 10 s default; tests of the time-out set their own.
        configuration.providers.network.requestTimeout = 60
        // Hundreds of test servers share one PostgreSQL cluster at once: small pools.
        configuration.databaseMaxConnections = 4
        // As `hearth serve` in development mode.
        configuration.signIn.emailLinkEnabled = true
        configuration.signIn.phoneEnabled = true
        configuration.signIn.passkeys = .development
        configure(&configuration)
        configuration.sandboxEnabled = true
        let sandbox = SandboxExtension(clock: clock.wallClock, logger: logger)

        // Composed as `hearth serve` composes it: the store (and PostgreSQL's pool), the HTTP client and the server run
        // by one group, which stops them in reverse order.
        let prepared: PreparedServer
        do {
            if configuration.databaseURL == nil, configuration.sqlitePath == nil {
                configuration.databaseURL = try await TestDatabase.url(forDataDirectory: configuration.dataDirectory)
            }
            prepared = try await PreparedServer.prepare(configuration: configuration, logger: logger)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton)
        let (listening, listeningContinuation) = AsyncStream.makeStream(of: (services: HearthServices, port: Int).self)
        let server = HearthServerService { [configuration] in
            try await HearthServices.open(
                configuration: configuration, base: prepared.base, httpClient: httpClient, clock: clock.wallClock, logger: logger,
                extensions: [sandbox], adjustProviders: providers)
        } application: { services in
            buildApplication(services: services) { port in
                listeningContinuation.yield((services, port))
                listeningContinuation.finish()
            }
        }
        var groupConfiguration = ServiceGroupConfiguration(
            services: ServiceGroupConfiguration.ServiceConfiguration.server(server, prepared: prepared, httpClient: httpClient),
            logger: logger)
        // A connection that never finishes must not hold a test forever: after 60 s the server is cancelled. (A
        // graceful stop also flushes the trace exporter, whose export may take 10 s; the whole suite running at once on
        // two cores stretches both.)
        groupConfiguration.maximumGracefulShutdownDuration = .seconds(60)
        let group = ServiceGroup(configuration: groupConfiguration)
        let running = Task {
            defer { listeningContinuation.finish() }
            try await group.run()
        }
        var iterator = listening.makeAsyncIterator()
        guard let (services, port) = await iterator.next() else {
            // The server stopped before it listened: report why.
            let failure: any Error
            do {
                try await running.value
                failure = CancellationError()
            } catch {
                failure = error
            }
            try? FileManager.default.removeItem(at: directory)
            throw failure
        }
        return LiveHearth(
            services: services, sandbox: sandbox.sandbox, clock: clock, directory: directory, group: group, running: running, port: port)
    }

    /// Stops the server (its group closes the database and the HTTP client) and removes the directory.
    public func stop() async throws {
        await group.triggerGracefulShutdown()
        let outcome = await running.result
        try? FileManager.default.removeItem(at: directory)
        try outcome.get()
    }
}

/// Starts a ``LiveHearth``, runs `body` with it, and always stops it.
public func withLiveHearth<T: Sendable>(
    clock: ManualClock = ManualClock(), providers: @escaping @Sendable (inout ProvidersConfiguration) -> Void = { _ in },
    _ configure: (inout ServerConfiguration) -> Void = { _ in },
    _ body: (LiveHearth) async throws -> T
) async throws -> T {
    let live = try await LiveHearth.start(clock: clock, providers: providers, configure)
    do {
        let result = try await body(live)
        try await live.stop()
        return result
    } catch {
        try? await live.stop()
        throw error
    }
}
