import ArgumentParser
import AsyncHTTPClient
import CProcessMemory
import Foundation
import HearthComposition
import HearthConfiguration
import HearthCore
import HearthDevelopment
import HearthServer
import HearthTLS
import Hummingbird
import Logging
import ServiceLifecycle
import UnixSignals

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Run the server.")

    @OptionGroup var options: CommonOptions
    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical (default: log.level, else info).")
    var logLevel: String?

    func run() async throws {
        // Two allocator arenas rather than one per pool thread: some 15 MB less resident memory under load
        // (BENCHMARKS.md, issue 30).
        _ = hearth_tune_allocator(2)
        // scrypt's 16 MiB scratch blocks, one per hashing thread (NIO's blocking pool: one per core), made once and reused.
        _ = hearth_keep_large_crypto_buffers(Int32(ProcessInfo.processInfo.activeProcessorCount))
        // Everything this process creates (database, journals, key file) is for its owner only.
        umask(0o077)
        // SIGHUP (`systemctl reload`) reloads the TLS files once the server runs; until then it must not end the process.
        signal(SIGHUP, SIG_IGN)
        let configuration = try await options.configurationOrExit()
        var level = configuration.log.level
        if let logLevel {
            guard let chosen = Logger.Level(rawValue: logLevel) else {
                FileHandle.standardError.write(Data("hearth: invalid configuration: --log-level: unknown level \(logLevel)\n".utf8))
                throw ExitCode(2)
            }
            level = chosen
        }
        let format = configuration.log.format
        LoggingSystem.bootstrap { label in
            var handler = LineLogHandler.standardError(label: label, format: format)
            handler.logLevel = level
            return handler
        }
        // Log lines wait a moment in a buffer (off the requests' path); whatever is there is written on the way out.
        defer { LogOutput.standardError.flush() }
        let logger = Logger(label: "hearth")
        // The TLS files are checked before anything is opened, as every file a setting names.
        let tls: ServerTLS?
        do {
            tls = try configuration.tlsCertificateFile.map { try ServerTLS(certificateFile: $0, keyFile: configuration.tlsKeyFile ?? "") }
        } catch {
            FileHandle.standardError.write(Data("hearth: \(StartupFailure.message(error, configuration: configuration))\n".utf8))
            throw ExitCode(2)
        }
        // Chosen and made here, run by the group below: the store (and PostgreSQL's pool), the HTTP client, the server.
        let prepared: PreparedServer
        do {
            prepared = try await PreparedServer.prepare(configuration: configuration, logger: logger)
        } catch {
            throw Self.failure(error, configuration: configuration)
        }
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton)
        // Development mode composes the provider sandbox here; the server itself knows nothing of it.
        let extensions: [any ServerExtension] =
            configuration.servesSandbox ? [SandboxExtension(clock: .system, logger: Logger(label: "hearth.sandbox"))] : []
        let server = HearthServerService {
            try await HearthServices.open(
                configuration: configuration, base: prepared.base, httpClient: httpClient, logger: logger, extensions: extensions)
        } application: { services in
            buildApplication(services: services, tls: tls, reloadsOnHangup: true) { port in
                // The start-up's measurements are done: the memory they freed goes back, and the code only the start-up
                // ran (relocation, the measurements, the migrations) stops counting in the server's RSS.
                _ = hearth_release_kept_crypto_buffers()
                _ = hearth_release_free_memory()
                _ = hearth_release_unused_code()
                Banner.print(configuration: services.configuration, port: port, servesSandbox: !services.extensions.isEmpty)
            }
        }
        // The server stops first, then the database is closed, the HTTP client shut down and the pool stopped, on every
        // way out (a port that is taken included).
        let group = ServiceGroup(
            configuration: .init(
                services: ServiceGroupConfiguration.ServiceConfiguration.server(server, prepared: prepared, httpClient: httpClient),
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        do {
            try await group.run()
        } catch {
            throw Self.failure(error, configuration: configuration)
        }
    }

    /// Says why the server could not start or stopped; its exit code is 2 for a configuration that is wrong, else 1.
    private static func failure(_ error: any Error, configuration: ServerConfiguration) -> ExitCode {
        LogOutput.standardError.flush()
        if let error = error as? ConfigurationError {
            FileHandle.standardError.write(Data("hearth: \(error)\n".utf8))
            return ExitCode(2)
        }
        FileHandle.standardError.write(Data("hearth: \(StartupFailure.message(error, configuration: configuration))\n".utf8))
        return ExitCode(1)
    }
}

enum Banner {
    static func print(configuration: ServerConfiguration, port: Int, servesSandbox: Bool) {
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        let base = "\(configuration.tlsCertificateFile == nil ? "http" : "https")://\(host):\(port)"
        var lines: [String] = []
        if configuration.mode == .development {
            lines += [
                "",
                "  ************************************************************************",
                "  *  DEVELOPMENT MODE: any API key is accepted, the server listens on    *",
                "  *  loopback only. Never expose it. For a deployment, write a config    *",
                "  *  file with mode: production (see docs/configuration.md).             *",
                "  ************************************************************************",
            ]
        }
        lines += [
            "",
            "  Hearth is listening on \(base)",
            "  version    : \(HearthVersion.current)",
            "  project id : \(configuration.projectID)",
            "  API key    : \(configuration.mode == .development ? configuration.displayAPIKey : "one of project.apiKeys")",
            "  JWKS       : \(base)/.well-known/jwks.json",
            "  data       : \(configuration.storageDescription)",
            "  mail       : \(configuration.mailDescription)",
            "  SMS        : \(configuration.smsDescription)",
        ]
        // Without the endpoint's credentials.
        if let traces = configuration.tracing.tracesURL { lines.append("  traces     : \(traces)") }
        if servesSandbox {
            lines += [
                "  sandbox    : \(base)/sandbox/  (offline stand-ins for Apple, Microsoft, Twitter, Google,",
                "               Facebook, GitHub, Yahoo and OIDC; every provider not configured points here)",
            ]
        }
        if configuration.mode == .development {
            lines.append(
                "  Firebase SDKs: useEmulator(withHost: \"\(configuration.host)\", port: \(port)), or FIREBASE_AUTH_EMULATOR_HOST=\(configuration.host):\(port)"
            )
        } else {
            // Admin SDKs in emulator mode send `Bearer owner`, which production refuses.
            lines += [
                "  Firebase client SDKs: useEmulator(withHost: \"\(configuration.host)\", port: \(port))",
                "  Admin SDKs: a service-account key from `hearth admin create-key` (docs/admin-credentials.md)",
            ]
        }
        lines.append("")
        FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }
}
