import NIOCore
import PostgresKit
import SQLKit
import Synchronization

/// Which statements a store runs as named server-side prepared statements, and under which names.
///
/// Without it every statement is parsed, analysed and planned again by PostgreSQL: about a fifth of
/// the database's CPU under a load of sign-ups. A statement is prepared once it has been run
/// ``minimumUses`` times with the same bound types, on each connection at its first use there
/// (PostgresNIO keeps the connection's names), and at most ``capacity`` of them, so SQL that varies
/// (a long batch, a list of values) never fills the server's memory: the rest runs unnamed as before.
///
/// PostgresNIO remembers a failed preparation for the connection's lifetime. So when a prepared
/// statement fails for a reason other than its values (a time-out, a lock, an aborted transaction,
/// a schema changed by another replica), its next use takes a new name and is prepared again; after
/// ``maximumGenerations`` such failures the statement runs unnamed.
final class PreparedStatements: Sendable {
    /// Runs of one statement before it is prepared.
    static let minimumUses = 2
    /// Distinct statements kept.
    static let capacity = 256
    /// Statements with more bound values run unnamed (a long batch's plan is large and rarely reused).
    static let maximumBinds = 64
    /// Failures after which a statement is no longer prepared.
    static let maximumGenerations = 8

    /// One statement: its text and the types of its bound values.
    struct Key: Hashable, Sendable {
        var sql: String
        var types: [PostgresDataType]
    }

    private struct Entry {
        var number: Int
        var uses = 0
        var generation = 0
    }

    private struct State {
        var entries: [Key: Entry] = [:]
    }

    private let state = Mutex(State())

    init() {}

    /// The name to run `key` under, or `nil` when it runs unnamed this time.
    func name(for key: Key) -> String? {
        guard key.types.count <= Self.maximumBinds else { return nil }
        return state.withLock { state -> String? in
            var entry: Entry
            if let known = state.entries[key] {
                entry = known
            } else {
                guard state.entries.count < Self.capacity else { return nil }
                entry = Entry(number: state.entries.count + 1)
            }
            entry.uses += 1
            state.entries[key] = entry
            guard entry.uses >= Self.minimumUses, entry.generation < Self.maximumGenerations else { return nil }
            return "hearth_\(entry.number)_\(entry.generation)"
        }
    }

    /// Records that `key`, run under a name, failed with `sqlState` (`nil`: no answer from the server).
    /// A failure caused by the values (classes 22, 23) or by a concurrent transaction (40) leaves the name
    /// as it is: the statement is still prepared. Any other takes a new name for the next use.
    func failed(_ key: Key, sqlState: String?) {
        guard let sqlState, !["22", "23", "40"].contains(where: sqlState.hasPrefix) else { return }
        state.withLock { state in state.entries[key]?.generation += 1 }
    }

    /// The current generation of `key`'s name (for tests).
    func generation(of key: Key) -> Int? {
        state.withLock { $0.entries[key]?.generation }
    }

    /// `binds` as PostgreSQL bindings with their types, or `nil` when one of them is not a value PostgresNIO
    /// encodes directly (such a statement runs unnamed, through PostgresKit's translation).
    static func bindings(_ binds: [any Encodable & Sendable]) throws -> (PostgresBindings, [PostgresDataType])? {
        var bindings = PostgresBindings(capacity: binds.count)
        var types: [PostgresDataType] = []
        types.reserveCapacity(binds.count)
        for bind in binds {
            if isNone(bind) {
                bindings.appendNull()
                types.append(.null)
            } else if let value = bind as? any PostgresThrowingDynamicTypeEncodable {
                try bindings.append(value)
                types.append(value.psqlType)
            } else {
                return nil
            }
        }
        return (bindings, types)
    }

    /// Whether `value` is an optional holding nothing.
    private static func isNone(_ value: some Any) -> Bool {
        guard let optional = value as? any OptionalValue else { return false }
        return optional.isNone
    }
}

private protocol OptionalValue {
    var isNone: Bool { get }
}

extension Optional: OptionalValue {
    fileprivate var isNone: Bool { self == nil }
}

/// The statement being run, as PostgresNIO's prepared statement: its name, text and bound types are the
/// task's (PostgresNIO reads them as static members, and a store's statements are known only at run time).
struct NamedStatement: PostgresPreparedStatement {
    struct Current: Sendable {
        var name = ""
        var sql = ""
        var types: [PostgresDataType] = []
    }

    @TaskLocal static var current = Current()

    static var name: String { current.name }
    static var sql: String { current.sql }
    static var bindingDataTypes: [PostgresDataType] { current.types }

    typealias Row = PostgresRow

    let bindings: PostgresBindings

    func makeBindings() throws -> PostgresBindings { bindings }
    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}
