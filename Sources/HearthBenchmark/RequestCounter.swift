import Synchronization

/// Hands out request indices to the connections of one load phase, whatever event loop they run on.
final class RequestCounter: Sendable {
    private let value = Atomic<Int>(0)

    /// The next index, starting at 0.
    func next() -> Int {
        value.wrappingAdd(1, ordering: .relaxed).oldValue
    }
}
