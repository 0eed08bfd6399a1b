import Foundation

/// Failures of the SQL store that are not domain errors.
///
/// Descriptions name tables, columns and migrations only; they never contain stored values.
public enum SQLStoreError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The database records a migration this binary does not know: it was written by a newer version.
    case unknownMigration(String)
    /// A stored value could not be read as the type the store expects.
    case undecodableColumn(String)

    public var description: String {
        switch self {
        case .unknownMigration(let name):
            "database schema is newer than this binary: unknown migration \(name)"
        case .undecodableColumn(let column):
            "stored value of column \(column) has an unexpected type"
        }
    }

    public var errorDescription: String? { description }
}
