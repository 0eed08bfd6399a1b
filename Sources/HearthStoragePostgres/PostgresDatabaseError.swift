import PostgresNIO

/// A PostgreSQL error with everything that could carry stored or bound values removed.
///
/// The driver's own error keeps the failed query with its bind values, and the server's message
/// and detail may quote row values (for example the e-mail of a unique violation). This keeps only
/// the SQLSTATE and the names of the constraint, table and column, which is what the store needs to
/// map constraint violations (see `SQLDialectQuirks.conflict(from:)`) and what an operator needs to
/// see in a log.
public struct PostgresDatabaseError: Error, Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The driver's failure kind: `server` when the server reported the error, else a client-side
    /// kind such as `connectionError` or `serverClosedConnection`.
    public let kind: String
    /// The five-character SQLSTATE (`23505` unique violation, `40P01` deadlock, …) of a server error.
    public let sqlState: String?
    /// The constraint the error is about, when the server names one.
    public let constraint: String?
    /// The table the error is about, when the server names one.
    public let table: String?
    /// The column the error is about, when the server names one.
    public let column: String?

    public init(kind: String, sqlState: String? = nil, constraint: String? = nil, table: String? = nil, column: String? = nil) {
        self.kind = kind
        self.sqlState = sqlState
        self.constraint = constraint
        self.table = table
        self.column = column
    }

    /// The sanitized form of a driver error.
    init(_ error: PSQLError) {
        self.init(
            kind: error.code.description,
            sqlState: error.serverInfo?[.sqlState],
            constraint: error.serverInfo?[.constraintName],
            table: error.serverInfo?[.tableName],
            column: error.serverInfo?[.columnName])
    }

    public var description: String {
        var text = "PostgreSQL error \(kind)"
        if let sqlState { text += " SQLSTATE \(sqlState)" }
        let names = [("constraint", constraint), ("table", table), ("column", column)]
            .compactMap { name, value in value.map { "\(name) \($0)" } }
        if !names.isEmpty { text += " (\(names.joined(separator: ", ")))" }
        return text
    }

    public var debugDescription: String { description }
}
