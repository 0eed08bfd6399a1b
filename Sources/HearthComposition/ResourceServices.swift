import AsyncHTTPClient
import HearthServer
import HearthStorage
import ServiceLifecycle

/// The database as a service of the composition's `ServiceGroup`: listed before the server, it is closed after the
/// server stopped (a group stops its services in reverse order), so no request finds it closed.
public struct StoreService: Service {
    let store: SQLStore

    public init(_ store: SQLStore) { self.store = store }

    public func run() async throws {
        try? await gracefulShutdown()
        try await store.close()
    }
}

/// The HTTP client of the calls to identity providers as a service of the composition's `ServiceGroup`: listed
/// before the server, it is shut down once the server and its background services stopped.
public struct HTTPClientService: Service {
    let client: HTTPClient

    public init(_ client: HTTPClient) { self.client = client }

    public func run() async throws {
        try? await gracefulShutdown()
        try await client.shutdown()
    }
}

extension ServiceGroupConfiguration.ServiceConfiguration {
    /// A server's services in the order of its `ServiceGroup`: the PostgreSQL pool and its account-change listener, the
    /// HTTP client, the database,
    /// then `server` (typically a ``HearthServerService``). A group stops them in reverse order, so the server stops
    /// before its database is closed, and the pool stops last; when the server ends, even by failing (a port that is
    /// taken, a database that refuses the migrations), the others are shut down gracefully, not cancelled, so the
    /// database is always closed properly.
    public static func server(_ server: any Service, prepared: PreparedServer, httpClient: HTTPClient) -> [Self] {
        (prepared.databasePool.map { [Self(service: $0)] } ?? []) + (prepared.accountChangeListener.map { [Self(service: $0)] } ?? []) + [
            .init(service: HTTPClientService(httpClient)), .init(service: StoreService(prepared.base.store)),
            .init(service: server, successTerminationBehavior: .gracefullyShutdownGroup, failureTerminationBehavior: .gracefullyShutdownGroup),
        ]
    }
}
