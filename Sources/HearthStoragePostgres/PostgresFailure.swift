import Foundation
import HearthCore
import NIOCore
import NIOPosix
import PostgresNIO

/// How PostgreSQL driver errors reach the store: sanitized, and as
/// `HearthError(.storageUnavailable)` when they mean the database cannot be reached or used now.
enum PostgresFailure {
    /// `error` with every ``PSQLError`` replaced: by `HearthError(.storageUnavailable)` when it is
    /// an unavailability (see ``isUnavailability(_:)``), else by a ``PostgresDatabaseError``. Other
    /// errors pass through unchanged.
    static func translate(_ error: any Error) -> any Error {
        guard let driverError = error as? PSQLError else { return error }
        let sanitized = PostgresDatabaseError(driverError)
        if let state = sanitized.sqlState, refusedTextStates.contains(state) {
            // A NUL in a bound text (character_not_in_repertoire, untranslatable_character): the client's
            // input, not the database's failure. SQLite would keep such text and read it back cut.
            return HearthError(
                .invalidArgument, detail: "Text values must not contain NUL characters.", reason: "PostgreSQL refused a text value",
                underlying: sanitized)
        }
        guard isUnavailability(driverError) else { return sanitized }
        return HearthError(.storageUnavailable, reason: "PostgreSQL: \(explanation(driverError))", underlying: sanitized)
    }

    /// SQLSTATEs of text PostgreSQL cannot hold.
    static let refusedTextStates: Set<String> = ["22021", "22P05"]

    /// Lost or refused connections, authentication failures, a missing database, a server shutting
    /// down or out of resources, and statement or lock timeouts.
    static func isUnavailability(_ error: PSQLError) -> Bool {
        switch error.code {
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed,
            .sslUnsupported, .failedToAddSSLHandler, .receivedUnencryptedDataAfterSSLRequest,
            .unsupportedAuthMechanism, .authMechanismRequiresPassword, .saslError:
            return true
        case .server:
            guard let state = error.serverInfo?[.sqlState] else { return false }
            return isUnavailability(sqlState: state)
        default:
            return false
        }
    }

    /// SQLSTATEs that mean "not now" rather than "wrong request".
    static func isUnavailability(sqlState state: String) -> Bool {
        let unavailableClasses = ["08", "28", "53", "57", "58"]  // connection, authorization, resources, operator, system
        return unavailableClasses.contains(where: state.hasPrefix)
            || state == "3D000"  // the database does not exist
            || state == "55P03"  // lock_timeout
    }

    /// Whether running the whole transaction again may succeed: serialization failure or deadlock.
    static func isRetryable(_ error: any Error) -> Bool {
        guard let databaseError = error as? PostgresDatabaseError, let state = databaseError.sqlState else { return false }
        return state == "40001" || state == "40P01"
    }

    /// What went wrong, without values: the code, the SQLSTATE, and for connection-phase errors the
    /// server's message (it names the user or database, never a password) or the network error.
    static func explanation(_ error: PSQLError) -> String {
        var text = error.code.description
        if let state = error.serverInfo?[.sqlState] {
            text += " SQLSTATE \(state)"
            if isUnavailability(sqlState: state), let message = error.serverInfo?[.message] {
                text += ": \(message)"
            }
        } else if error.code == .connectionError, let underlying = error.underlying {
            text = "cannot connect (\(networkProblem(underlying)))"
        }
        return text
    }

    /// What the network said, in words: the system's message for an errno, or a host name that does not
    /// resolve, rather than the NIO types' dumps.
    static func networkProblem(_ error: any Error) -> String {
        if let io = error as? IOError { return String(cString: strerror(io.errnoCode)).lowercased() }
        if let connection = error as? NIOConnectionError {
            if connection.dnsAError != nil || connection.dnsAAAAError != nil { return "the host name \(connection.host) does not resolve" }
            if let first = connection.connectionErrors.first { return networkProblem(first.error) }
            return "no address to connect to for \(connection.host)"
        }
        if error is ChannelError { return "the connection failed" }
        return String(describing: error)
    }
}
