import Foundation
import HearthConfiguration
import HearthDevelopment
import HearthServer
import HearthTesting
import Logging
import Testing

/// A development server on port 0 learns its sandbox's URLs only once it listens.
@Suite("Sandbox URLs once the port is known")
struct SandboxBindingTests {
    @Test("pointing the providers at the bound port needs no database, so a slow or unreachable one cannot leave them at port 0")
    func bindingReadsNothing() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-bind-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = ServerConfiguration()
        configuration.mode = .development
        configuration.port = 0
        configuration.dataDirectory = directory.path
        configuration.sqlitePath = directory.appendingPathComponent("hearth.sqlite").path
        configuration.scryptLogN = 4
        configuration.sandboxEnabled = true
        let sandbox = SandboxExtension(clock: .system, logger: Logger(label: "hearth.tests.bind"))
        let services = try await HearthServices.open(
            configuration: configuration, httpClient: LiveHearth.httpClient, logger: Logger(label: "hearth.tests.bind"), extensions: [sandbox])
        // The database goes away before the server has bound (as a PostgreSQL pool that cannot hand out a
        // connection in time does): binding still succeeds.
        try await services.store.close()
        services.serverDidBind(port: 48_123)
        #expect(sandbox.sandbox.baseURL == "http://127.0.0.1:48123/sandbox")
    }
}
