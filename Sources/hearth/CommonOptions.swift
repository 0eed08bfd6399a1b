import ArgumentParser
import Configuration
import Foundation
import HearthConfiguration
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
    /// naming the key (one per unknown setting), and exit code 2.
    func configurationOrExit() async throws -> ServerConfiguration {
        do {
            return try await loadConfiguration()
        } catch let error as ConfigurationError {
            FileHandle.standardError.write(Data("hearth: \(error)\n".utf8))
            throw ExitCode(2)
        } catch let error as UnknownSettingsError {
            FileHandle.standardError.write(Data(error.lines.map { "hearth: \($0)\n" }.joined().utf8))
            throw ExitCode(2)
        }
    }

    /// The configuration from flags, `HEARTH_*` variables and the file. Settings Hearth does not read (in
    /// the file or the environment) are an ``UnknownSettingsError`` in production mode, and a warning on
    /// standard error in development mode. Former names of renamed settings are a warning in both.
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
        var fileKeys: [String] = []
        if let config {
            guard FileManager.default.fileExists(atPath: config) else {
                throw ConfigurationError(key: "--config", problem: "no file at \(config)")
            }
            guard FileManager.default.isReadableFile(atPath: config) else {
                throw ConfigurationError(key: "--config", problem: "\(config) cannot be read (permission denied)")
            }
            do {
                if config.hasSuffix(".json") {
                    providers.append(try await FileProvider<JSONSnapshot>(filePath: FilePath(config)))
                } else {
                    providers.append(try await FileProvider<YAMLSnapshot>(filePath: FilePath(config)))
                }
                fileKeys = try KnownSettings.fileKeys(atPath: config)
            } catch {
                let format = config.hasSuffix(".json") ? "JSON" : "YAML"
                throw ConfigurationError(
                    key: "--config",
                    problem:
                        "\(config) is not a valid \(format) configuration (a map of settings, lists of plain values only): \(Self.parseProblem(error))"
                )
            }
        }
        // A configuration file means a real deployment unless it says otherwise.
        let defaultMode: ServerConfiguration.Mode = config == nil ? .development : .production
        let reader = ConfigReader(providers: providers)
        let parsed = Result { try ServerConfiguration(reader: reader, defaultMode: defaultMode) }
        let unknown = KnownSettings.unknown(
            fileKeys: fileKeys, file: config, environment: Array(ProcessInfo.processInfo.environment.keys),
            oidcNames: KnownSettings.oidcNames(in: reader))
        if !unknown.isEmpty {
            let mode = (try? parsed.get())?.mode ?? reader.string(forKey: "mode").flatMap(ServerConfiguration.Mode.init(rawValue:)) ?? defaultMode
            if mode == .production {
                throw UnknownSettingsError(lines: unknown.map { "\($0) (production mode refuses unknown settings)" })
            }
            FileHandle.standardError.write(Data(unknown.map { "hearth: warning: \($0) (ignored in development mode)\n" }.joined().utf8))
        }
        // Former names are read in both modes, with a warning each.
        let renamed = KnownSettings.renamedInUse(
            fileKeys: fileKeys, file: config, environment: Array(ProcessInfo.processInfo.environment.keys),
            oidcNames: KnownSettings.oidcNames(in: reader))
        FileHandle.standardError.write(Data(renamed.map { "hearth: warning: \($0)\n" }.joined().utf8))
        return try parsed.get()
    }

    /// What a YAML or JSON parser said, without its type names.
    private static func parseProblem(_ error: any Error) -> String {
        let text = String(describing: error).split(whereSeparator: \.isNewline).prefix(2).joined(separator: " ")
        return text.isEmpty || text.contains(".swift") ? "it does not parse" : String(text.prefix(300))
    }
}

/// Settings the configuration names that Hearth does not read, refused in production mode.
struct UnknownSettingsError: Error {
    let lines: [String]
}
