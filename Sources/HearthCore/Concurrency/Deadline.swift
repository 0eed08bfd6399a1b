/// A time limit on a piece of async work that may not honour cancellation promptly (a network exchange).
public enum Deadline {
    /// The deadline passed.
    public struct Exceeded: Error {
        public init() {}
    }

    /// Runs `operation`, abandoning (and cancelling) it when `seconds` have passed: throws ``Exceeded`` then.
    public static func run<T: Sendable>(seconds: Double, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await CancellableSleep.sleep(for: .nanoseconds(Int64(seconds * 1_000_000_000)))
                throw Exceeded()
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw Exceeded() }
            return first
        }
    }
}
