import HearthStorage
import Logging
import PostgresNIO
import ServiceLifecycle

/// Keeps a replica's cache of users and sessions exact while other replicas write the same database: it holds a
/// connection of its own (outside the pool) that says `LISTEN` on ``SQLStore/accountChangesChannel``, and hands every
/// announcement to the store, which forgets the user it names (``SQLStore/heardAccountChange(_:)``).
///
/// Every write that changes a user announces it with `pg_notify` inside its own transaction, so the announcement
/// reaches every listening replica when, and only when, the change commits. The store serves from its cache only while
/// this listener hears (``SQLStore/hearsAccountChanges(_:)``): from the moment `LISTEN` is confirmed until the connection
/// fails. Then the cache is emptied and stays off while the listener reconnects (backing off from 100 ms to 5 s). A
/// connection that dies without the client noticing (a network partition) is covered by the cache's maximum age.
///
/// Run it as a service of the server's group (``PostgresStorage/prepare(url:options:logger:userCache:sealer:telemetry:)``
/// returns it). It stops at the group's graceful shutdown or when cancelled.
public struct PostgresAccountChangeListener: Service {
    let store: SQLStore
    let configuration: PostgresConnection.Configuration
    let logger: Logger

    init(store: SQLStore, configuration: PostgresConnection.Configuration, logger: Logger) {
        self.store = store
        self.configuration = configuration
        self.logger = logger
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await listen()
        }
        store.hearsAccountChanges(false)
    }

    /// Listens, reconnecting after each failure, until cancelled.
    private func listen() async {
        var delay = Duration.milliseconds(100)
        var failures = 0
        while !Task.isCancelled {
            do {
                let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
                do {
                    try await connection.listen(on: SQLStore.accountChangesChannel) { notifications in
                        store.hearsAccountChanges(true)
                        if failures > 0 { logger.info("Hearing other replicas' account changes again; the user cache is on") }
                        (delay, failures) = (.milliseconds(100), 0)
                        for try await notification in notifications {
                            store.heardAccountChange(notification.payload)
                        }
                    }
                } catch {
                    store.hearsAccountChanges(false)
                    try? await connection.close()
                    throw error
                }
                store.hearsAccountChanges(false)
                try? await connection.close()
            } catch {
                store.hearsAccountChanges(false)
                if Task.isCancelled { return }
                failures += 1
                // The first failure of a run of them is worth a warning; the retries are not.
                logger.log(
                    level: failures == 1 ? .warning : .debug,
                    "Not hearing other replicas' account changes; the user cache is off until the listener reconnects",
                    metadata: ["error": "\(String(describing: type(of: error)))"])
            }
            try? await Task.sleep(for: delay)
            delay = min(delay * 2, .seconds(5))
        }
    }
}
