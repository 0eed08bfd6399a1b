import ArgumentParser
import Foundation
import HearthConfiguration
import HearthCore
import HearthServer
import HearthStorage
import NIOCore

/// One line for a person when a `hearth` command fails: what happened and what to do, never a type dump
/// or a source path. Every command's errors end here (see ``HearthCommand/main()``).
enum StartupFailure {
    /// `configuration`, when known, names the address and database in the line.
    static func message(_ error: any Error, configuration: ServerConfiguration? = nil) -> String {
        if let io = error as? IOError {
            let address = configuration.map { "\($0.host):\($0.port)" } ?? "the address"
            switch io.errnoCode {
            case EADDRINUSE:
                return "cannot listen on \(address): the address is already in use (another server, perhaps a Firebase "
                    + "emulator, has the port); stop it, or choose another port with --port or server.port"
            case EACCES:
                return "cannot listen on \(address): permission denied (ports below 1024 need privileges); choose another port with --port"
            case EADDRNOTAVAIL:
                return "cannot listen on \(address): no network interface of this machine has that address; check --host or server.host"
            default:
                return "cannot listen on \(address): \(String(cString: strerror(io.errnoCode)))"
            }
        }
        if let error = error as? ConfigurationError { return error.description }
        if let error = error as? UnknownSettingsError { return error.lines.joined(separator: "\nhearth: ") }
        if let error = error as? SecretSealerError {
            return "cannot open the stored secrets: \(error.message)"
        }
        if let hearth = error as? HearthError {
            switch hearth.code {
            case .storageUnavailable:
                let place = configuration.map { " at \($0.storageDescription)" } ?? ""
                var reason = clean(hearth.reason ?? "it is not reachable")
                // The line names the database already.
                if configuration != nil {
                    reason = reason.replacingOccurrences(of: #"^cannot connect to \S+: "#, with: "", options: .regularExpression)
                }
                return "cannot open the database\(place): \(reason); check the database settings "
                    + "(storage.dataDirectory, database.url) and that the database is running"
            default:
                return "failed: \(clean(hearth.reason ?? hearth.code.rawValue))"
            }
        }
        if let error = error as? SQLStoreError { return "the database: \(error.description)" }
        if let error = error as? CocoaError { return error.localizedDescription }
        return "unexpected failure: \(clean(String(describing: error)))"
    }

    /// `open()`, or one line naming the database (``message(_:configuration:)``) and exit code 1.
    static func opening<T>(_ configuration: ServerConfiguration, _ open: () async throws -> T) async throws -> T {
        do {
            return try await open()
        } catch {
            FileHandle.standardError.write(Data("hearth: \(message(error, configuration: configuration))\n".utf8))
            throw ExitCode(1)
        }
    }

    /// `text` without source locations (`at Module/File.swift:12`) or type prefixes (`HearthError.`).
    static func clean(_ text: String) -> String {
        text.replacingOccurrences(of: #"\s*at [A-Za-z0-9_./-]+\.swift:\d+"#, with: "", options: .regularExpression)
            .replacingOccurrences(of: #"[A-Za-z0-9_/.-]+\.swift:\d+"#, with: "", options: .regularExpression)
            .replacingOccurrences(of: "HearthError.", with: "")
    }
}
