import AsyncHTTPClient
import HearthStorage
import ServiceLifecycle

/// The database as a service of the composition's `ServiceGroup`: listed before the application, it is closed
/// after the application stopped (a group stops its services in reverse order), so no request finds it closed.
/// Closing a PostgreSQL store stops its connection pool.
public struct StoreService: Service {
    let store: SQLStore

    public init(_ store: SQLStore) { self.store = store }

    public func run() async throws {
        try? await gracefulShutdown()
        try await store.close()
    }
}

/// The HTTP client of the calls to identity providers as a service of the composition's `ServiceGroup`: listed
/// before the application, it is shut down once the application and its background services stopped.
public struct HTTPClientService: Service {
    let client: HTTPClient

    public init(_ client: HTTPClient) { self.client = client }

    public func run() async throws {
        try? await gracefulShutdown()
        try await client.shutdown()
    }
}

extension ServiceGroupConfiguration.ServiceConfiguration {
    /// A server's services in the order of its `ServiceGroup`: the HTTP client, the database, then `application`.
    /// A group stops them in reverse order, so the application stops before its database is closed; when the
    /// application ends, even by failing (a port that is taken), the others are shut down gracefully, not
    /// cancelled, so the database is always closed properly.
    public static func server(_ application: any Service, store: SQLStore, httpClient: HTTPClient) -> [Self] {
        [
            .init(service: HTTPClientService(httpClient)), .init(service: StoreService(store)),
            .init(service: application, successTerminationBehavior: .gracefullyShutdownGroup, failureTerminationBehavior: .gracefullyShutdownGroup),
        ]
    }
}
