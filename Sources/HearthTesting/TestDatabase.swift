import Foundation
import HearthPostgresLauncher
import Synchronization

/// The database behind the test servers (`TestHearth` in the server tests, ``LiveHearth``):
/// `HEARTH_TEST_DATABASE=postgres` gives each of them a fresh database of its own in ONE throwaway
/// PostgreSQL cluster shared by the whole test process (``PostgresCluster/shared()``); unset (or
/// `sqlite`), each keeps its SQLite file in its temporary data directory.
///
/// ```sh
/// HEARTH_TEST_DATABASE=postgres swift test --skip-build --filter HearthServerTests
/// ```
///
/// A server's database is tied to its data directory: a test that stops a server and opens another
/// one on the same directory (a restart) finds its data on PostgreSQL too. The databases are not
/// dropped one by one (`DROP DATABASE … WITH (FORCE)` would cut a pool that is still closing); they go
/// with the cluster when the test process exits.
public enum TestDatabase {
    /// The backends the test servers can use.
    public enum Backend: String, Sendable {
        case sqlite
        case postgres
    }

    /// `HEARTH_TEST_DATABASE`: `postgres` (or `postgresql`) selects PostgreSQL; anything else, SQLite.
    public static var backend: Backend {
        switch ProcessInfo.processInfo.environment["HEARTH_TEST_DATABASE"]?.lowercased() {
        case "postgres", "postgresql": .postgres
        default: .sqlite
        }
    }

    /// Data directory path → database URL, for the databases made by ``url(forDataDirectory:)``.
    private static let databases = Mutex<[String: String]>([:])

    /// The `database.url` for a test server whose data directory is `directory`: `nil` on SQLite;
    /// on PostgreSQL a database of the shared cluster, created for this directory on first use and
    /// the same one afterwards.
    public static func url(forDataDirectory directory: String) async throws -> String? {
        guard backend == .postgres else { return nil }
        if let known = databases.withLock({ $0[directory] }) { return known }
        let url = try await PostgresTestCluster.shared().createDatabase()
        // Two servers opened at once on one new directory: the first database made wins.
        let chosen = databases.withLock { databases in
            if let earlier = databases[directory] { return earlier }
            databases[directory] = url
            return url
        }
        if chosen != url, let name = databaseName(url) {
            try? await PostgresTestCluster.shared().dropDatabase(name)
        }
        return chosen
    }

    /// Which backend the test servers use, for a test's log line or a skip message.
    public static var description: String {
        backend == .postgres ? "PostgreSQL (HEARTH_TEST_DATABASE=postgres)" : "SQLite"
    }

    private static func databaseName(_ url: String) -> String? {
        guard let components = URLComponents(string: url) else { return nil }
        let name = String(components.path.dropFirst())
        return name.isEmpty ? nil : name
    }
}
