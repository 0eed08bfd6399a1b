import Foundation

/// A value that one thread at a time reads or changes: what the standard library's `Mutex` does, on the systems
/// HearthAuth supports that `Mutex` does not (it needs macOS 15 / iOS 18). The lock is Foundation's `NSLock`,
/// which every platform has; like `Mutex`, the value goes in and comes out only through `withLock`, as a
/// `sending` value, so a non-`Sendable` value never escapes to two threads.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: sending Value) {
        self.value = value
    }

    /// Runs `body` with the value while holding the lock. `body` must not take the same lock again.
    func withLock<Result>(_ body: (inout sending Value) throws -> sending Result) rethrows -> sending Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
