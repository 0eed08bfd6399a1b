import HearthCore

// MARK: - LeaderLockStore

extension SQLStore {
    /// Runs `body` while this process holds the leader lock `name`, or returns `nil` when another
    /// holder has it. The backend decides what the lock is (see ``SQLTransactor/withLeaderLock(_:_:)``):
    /// a PostgreSQL session advisory lock on `hashtext(name)`, or nothing at all on SQLite.
    public func withLeaderLock<T: Sendable>(
        _ name: String, _ body: @Sendable () async throws -> T
    ) async throws -> T? {
        try await work.withLeaderLock(name, body)
    }
}
