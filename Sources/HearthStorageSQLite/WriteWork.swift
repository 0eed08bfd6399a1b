import HearthStorage
import SQLKit

/// One unit of work for the writer connection, as the group commit's ``TurnQueue`` carries it.
struct WriteWork: Sendable {
    /// `true` for a body of exactly one statement, which may run in autocommit mode when it is
    /// alone in its batch.
    let isSingleStatement: Bool
    /// Stores its own typed result in a ``ResultSlot``; whether it succeeded is known only after the `COMMIT` of the
    /// transaction it ran in.
    let body: @Sendable (any SQLDatabase) async throws -> Void
}

/// A write waiting for the writer, or being run.
typealias WriteJob = TurnQueue<WriteWork>.Job
