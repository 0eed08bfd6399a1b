import ArgumentParser
import Foundation
import HearthAdmin
import HearthComposition
import HearthConfiguration
import HearthCore
import HearthServer
import Hummingbird
import Logging
import ServiceLifecycle

/// Where `hearth users …` sends its calls: a running server's admin API (`--server URL` with a credential),
/// or, without `--server`, the configured database itself, through the same admin API served in-process on
/// a loopback port only this command knows (on SQLite the server must be stopped: it holds the file).
struct AdminConnectionOptions: ParsableArguments {
    @OptionGroup var options: CommonOptions
    @Option(name: .long, help: "A running server's base URL (e.g. https://auth.example.com); without it the database is used directly.")
    var server: String?
    @Option(name: .long, help: "With --server: a service-account file from `hearth admin create-key`.")
    var credentials: String?
    @Option(name: .customLong("admin-token"), help: "With --server: one of the server's admin.tokens (or HEARTH_ADMIN_TOKEN).")
    var adminToken: String?

    func validate() throws {
        if server == nil, credentials != nil || adminToken != nil {
            throw ValidationError("--credentials and --admin-token go with --server")
        }
    }

    /// Runs `body` with an admin client for the chosen target. Errors of the admin API become one line on
    /// standard error and exit code 1.
    func withAdmin<T: Sendable>(_ body: @Sendable (HearthAdmin) async throws -> T) async throws -> T {
        do {
            if let server { return try await body(try remote(server)) }
            return try await local(body)
        } catch let error as HearthAdminError {
            FileHandle.standardError.write(Data("hearth: \(error.code.rawValue): \(error.message)\n".utf8))
            throw ExitCode(1)
        }
    }

    private func remote(_ server: String) throws -> HearthAdmin {
        guard let url = URL(string: server), url.scheme == "http" || url.scheme == "https", url.host != nil else {
            throw ValidationError("--server: not an http(s) URL")
        }
        let credential: Credential
        if let credentials {
            credential = .serviceAccount(file: URL(fileURLWithPath: credentials))
        } else if let token = adminToken ?? ProcessInfo.processInfo.environment["HEARTH_ADMIN_TOKEN"] {
            credential = .bearer(token)
        } else {
            credential = .emulatorOwner
        }
        let project = try projectID(credentials: credentials)
        return try HearthAdmin(projectID: project, server: url, credential: credential)
    }

    /// The project: `--project`, else the service-account file's, else development mode's.
    private func projectID(credentials: String?) throws -> String {
        if let project = options.project { return project }
        if let credentials, let data = FileManager.default.contents(atPath: credentials),
            case .object(let json)? = try? JSONDecoder().decode(JSONValue.self, from: data), case .string(let project)? = json["project_id"]
        {
            return project
        }
        return ServerConfiguration().projectID
    }

    /// Opens the database as `hearth serve` would, serves the admin API on 127.0.0.1 at a free port with a
    /// one-time admin token, runs `body` against it, and closes everything.
    private func local<T: Sendable>(_ body: @Sendable (HearthAdmin) async throws -> T) async throws -> T {
        var configuration = try await options.configurationOrExit()
        let token = Self.oneTimeToken()
        configuration.adminTokens.append(token)
        configuration.host = "127.0.0.1"
        configuration.port = 0
        var logger = Logger(label: "hearth.users")
        logger.logLevel = .warning
        let opened = configuration
        let services = try await StartupFailure.opening(configuration) {
            try await HearthServices.open(configuration: opened, httpClient: Composition.httpClient, logger: logger)
        }
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: buildRouter(services: services),
            configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "Hearth"),
            onServerRunning: { channel in portSink.yield(channel.localAddress?.port ?? 0) },
            logger: logger)
        // Stopped by a graceful shutdown once the command is done: cancelling would log the connections it cuts.
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let running = Task { try await group.run() }
        defer { running.cancel() }
        do {
            var port = 0
            for await bound in ports {
                port = bound
                break
            }
            guard port > 0, let url = URL(string: "http://127.0.0.1:\(port)") else { throw ExitCode(1) }
            let admin = try HearthAdmin(projectID: configuration.projectID, server: url, credential: .bearer(token))
            let result = try await body(admin)
            await group.triggerGracefulShutdown()
            _ = try? await running.value
            try await services.store.close()
            return result
        } catch {
            await group.triggerGracefulShutdown()
            _ = try? await running.value
            try? await services.store.close()
            throw error
        }
    }

    /// 32 random bytes in hex: a token no one else has, valid only while this command runs.
    private static func oneTimeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }
}

/// ``AdminConnectionOptions`` with `--tenant`: `hearth users …` on the users of one tenant instead of the project's,
/// through the admin API's tenant paths (`…/projects/{project}/tenants/{tenant}/accounts…`).
struct TenantAdminConnectionOptions: ParsableArguments {
    @OptionGroup var connection: AdminConnectionOptions
    @Option(name: .long, help: "Work in this tenant (an id from `hearth tenants list`): its users, not the project's own.")
    var tenant: String?

    func validate() throws {
        if tenant?.isEmpty == true { throw ValidationError("--tenant: give a tenant id") }
    }

    /// ``AdminConnectionOptions/withAdmin(_:)``, with the client of `--tenant` when given.
    func withAdmin<T: Sendable>(_ body: @Sendable (HearthAdmin) async throws -> T) async throws -> T {
        let tenant = self.tenant
        return try await connection.withAdmin { admin in
            guard let tenant else { return try await body(admin) }
            return try await body(try admin.tenantManager.auth(forTenant: tenant))
        }
    }
}

/// Prints every item of every page `fetch` reads (given the previous page's token, `nil` first), one `line` each, and
/// returns how many there were: the listings of `hearth users list` and `hearth tenants list`.
func printPages<Item>(
    line: (Item) -> String, _ fetch: (_ pageToken: String?) async throws -> (items: [Item], next: String?)
) async throws -> Int {
    var token: String?
    var count = 0
    repeat {
        let page = try await fetch(token)
        for item in page.items { print(line(item)) }
        count += page.items.count
        token = page.next
    } while token != nil
    return count
}
