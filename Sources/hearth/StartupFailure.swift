import Foundation
import HearthCore
import HearthServer
import NIOCore

/// One line for a person when `hearth serve` cannot start: what happened and what to do, never a
/// type dump or a source path.
enum StartupFailure {
    static func message(_ error: any Error, configuration: ServerConfiguration) -> String {
        if let io = error as? IOError {
            let address = "\(configuration.host):\(configuration.port)"
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
        if let hearth = error as? HearthError {
            switch hearth.code {
            case .storageUnavailable:
                return "cannot open the database at \(configuration.storageDescription): \(hearth.reason ?? "it is not reachable")"
            default:
                return "cannot start: \(hearth.reason ?? hearth.code.rawValue)"
            }
        }
        return "cannot start: \(error.localizedDescription)"
    }
}
