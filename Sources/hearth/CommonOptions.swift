import ArgumentParser
import Configuration
import Foundation
import HearthServer
import SystemPackage

/// Flags every subcommand understands. They win over `HEARTH_*` environment variables, which win over
/// the configuration file, which wins over the defaults.
struct CommonOptions: ParsableArguments {
    @Option(name: .long, help: "A YAML (.yaml/.yml) or JSON configuration file.")
    var config: String?
    @Option(name: .long, help: "Listen address (development mode accepts loopback only).")
    var host: String?
    @Option(name: .long, help: "Listen port (9099 by default, as the Firebase emulator).")
    var port: Int?
    @Option(name: .customLong("data-dir"), help: "Where the SQLite database lives (./.hearth by default).")
    var dataDirectory: String?
    @Option(name: .long, help: "Project id: the ID tokens' audience.")
    var project: String?
    @Option(name: .long, help: "development or production.")
    var mode: String?

    /// ``loadConfiguration()`` for a command: an invalid configuration is one line on standard error
    /// naming the key, and exit code 2.
    func configurationOrExit() async throws -> ServerConfiguration {
        do {
            return try await loadConfiguration()
        } catch let error as ConfigurationError {
            FileHandle.standardError.write(Data("hearth: \(error)\n".utf8))
            throw ExitCode(2)
        }
    }

    func loadConfiguration() async throws -> ServerConfiguration {
        var flags: [AbsoluteConfigKey: ConfigValue] = [:]
        if let host { flags["server.host"] = .init(.string(host), isSecret: false) }
        if let port { flags["server.port"] = .init(.int(port), isSecret: false) }
        if let dataDirectory { flags["storage.dataDirectory"] = .init(.string(dataDirectory), isSecret: false) }
        if let project { flags["project.id"] = .init(.string(project), isSecret: false) }
        if let mode { flags["mode"] = .init(.string(mode), isSecret: false) }

        var environment: [String: String] = [:]
        for (name, value) in ProcessInfo.processInfo.environment where name.hasPrefix("HEARTH_") {
            environment[String(name.dropFirst("HEARTH_".count))] = value
        }
        var providers: [any ConfigProvider] = [
            InMemoryProvider(name: "flags", values: flags),
            EnvironmentVariablesProvider(environmentVariables: environment, secretsSpecifier: .all),
        ]
        if let config {
            guard FileManager.default.fileExists(atPath: config) else {
                throw ConfigurationError(key: "--config", problem: "no file at \(config)")
            }
            do {
                if config.hasSuffix(".json") {
                    providers.append(try await FileProvider<JSONSnapshot>(filePath: FilePath(config)))
                } else {
                    providers.append(try await FileProvider<YAMLSnapshot>(filePath: FilePath(config)))
                }
            } catch {
                throw ConfigurationError(key: "--config", problem: "\(config) is not valid YAML/JSON: \(error)")
            }
        }
        // A configuration file means a real deployment unless it says otherwise.
        return try ServerConfiguration(reader: ConfigReader(providers: providers), defaultMode: config == nil ? .development : .production)
    }
}
